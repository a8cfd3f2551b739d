import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take minutes, longest first. Vitest starts the files it has timings for longest first, but a fresh
 * clone (CI) has no timings, so it starts the largest files first, and these small-but-long ones (a spawned runtime,
 * one test per route) would start last and hold one worker alone at the end of the run (issue 34: `npm test` ≤ 12 min).
 */
export const LONG_FILES: readonly string[] = [
  'test/integration/local/crash-restart.test.ts',
  'test/hostile/hostile-input.test.ts',
  'test/integration/isolation/tenant-isolation.test.ts',
  'test/infra/stateless-stack.test.ts',
  'test/integration/reliability/idempotency-generic.test.ts',
  'test/integration/local/local-cli.test.ts',
  'test/integration/local/signals.test.ts',
  'test/hostile/size-growth.test.ts',
  'test/infra/sqs-client-bundles.test.ts',
];

const rankOf = (moduleId: string): number => {
  const rank = LONG_FILES.findIndex((file) => moduleId.endsWith(file));
  return rank === -1 ? LONG_FILES.length : rank;
};

/** Vitest's order (timings, then size), with LONG_FILES moved to the front in their order. */
export default class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return sorted
      .map((spec, index) => ({ spec, index, rank: rankOf(spec.moduleId) }))
      .sort((a, b) => a.rank - b.rank || a.index - b.index)
      .map(({ spec }) => spec);
  }
}
