import { configDefaults, defineConfig } from 'vitest/config';
import LongFirstSequencer from './test/support/long-first-sequencer.js';

/*
 * Two projects: `unit` (test/unit: no network, no engines, no Java) and `integration` (everything else: integration,
 * e2e, hostile, infra), which starts DynamoDB Local, s3rver and the local SQS once in its globalSetup. A globalSetup
 * runs only when its project has tests queued, so `vitest run --project unit` never starts the engines.
 */
/** Integration files that need a module graph of their own (see the project below). */
const ISOLATED = ['test/e2e/**/*.test.ts', 'test/integration/local/**/*.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    // Two workers on CI's 2 cores: integration files mostly wait on DynamoDB Local, so two overlap (835 s → 575 s, decision "Two test workers").
    maxWorkers: 2,
    sequence: { sequencer: LongFirstSequencer },
    hookTimeout: 120_000,
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    projects: [
      {
        extends: true,
        // One module graph per worker, not per file: unit files share no state (no mocks, no stubs; a test checks that),
        // and re-importing lib/ for each of ~110 files was most of the project's time (337 s → 134 s at load ~20).
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false },
      },
      {
        extends: true,
        // One module graph per worker here too: re-importing lib/ for each of ~230 files was a third of the suite
        // (a subset of 39 files: 319 s → 131 s). What a file keeps per file (its own table) is reset between files
        // by test/support/per-file.ts.
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/unit/**', ...ISOLATED],
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles: ['test/support/per-file.ts'],
          isolate: false,
        },
      },
      {
        extends: true,
        // Files that start the local runtime in-process (its container runtime and queues are built once from the
        // environment) or spy on the process's output: a fresh module graph each.
        test: {
          name: 'integration-isolated',
          include: ISOLATED,
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
    ],
  },
});
