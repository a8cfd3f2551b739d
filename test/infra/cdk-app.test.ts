import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { infraConfig } from '../../infra/config.js';
import { buildTestApp, cdkJsonContext } from './infra-support.js';

const root = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);

describe('CDK app', () => {
  it('runs infra/app.ts through tsx with every feature flag aws-cdk-lib recommends', () => {
    const cdkJson = JSON.parse(readFileSync(join(root, 'cdk.json'), 'utf8')) as { app: string };
    expect(cdkJson.app).toBe('npx tsx infra/app.ts');
    const recommended = require('aws-cdk-lib/recommended-feature-flags.json') as Record<string, unknown>;
    expect(cdkJsonContext()).toMatchObject(recommended);
  });

  it('defines a stateful and a stateless stack per cluster, in its region, plus the pipeline, without any lookup', () => {
    const { app, built } = buildTestApp({ nag: false });
    const stacks = [...built.regions.values()].flatMap((r) => [r.stateful, r.stateless]);
    expect(stacks.map((s) => s.stackName)).toEqual(
      infraConfig.clusters.flatMap((c) => [`${infraConfig.appName}-${c.label}-Stateful`, `${infraConfig.appName}-${c.label}-Stateless`]),
    );
    for (const stack of stacks) {
      expect(stack.account).toBe(infraConfig.account);
      expect(infraConfig.clusters.map((c) => c.region)).toContain(stack.region);
    }
    expect(built.pipeline?.stackName).toBe(`${infraConfig.appName}-Pipeline`);
    const assembly = app.synth();
    const missing = assembly.manifest.missing ?? [];
    expect(missing).toEqual([]);
  });
});
