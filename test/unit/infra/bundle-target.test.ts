import { describe, expect, it } from 'vitest';
import { API_BUNDLE_LIMIT_BYTES, API_BUNDLE_TARGET_BYTES, API_BUNDLES_OVER_TARGET } from '../../../infra/constructs/bundling-settings.js';
import { routes } from '../../../lib/api/routes.js';
import { targetBreach } from '../../../scripts/bundles.js';

describe('the 85 % bundle target (issue 34)', () => {
  it('is 340 KiB for an API handler', () => {
    expect(API_BUNDLE_TARGET_BYTES).toBe(Math.floor(0.85 * API_BUNDLE_LIMIT_BYTES));
    expect(API_BUNDLE_TARGET_BYTES).toBe(348_160);
  });

  it('fails an API handler over it unless named, and a named one back under it; workers answer to their limit only', () => {
    const over = API_BUNDLE_TARGET_BYTES + 1;
    expect(targetBreach({ kind: 'api', handler: 'functions/x/new-route.ts', bytes: over }, [])).toMatch(/over the 340 KiB target/);
    expect(targetBreach({ kind: 'api', handler: 'functions/x/new-route.ts', bytes: API_BUNDLE_TARGET_BYTES }, [])).toBeNull();
    expect(targetBreach({ kind: 'api', handler: 'functions/x/old.ts', bytes: over }, ['functions/x/old.ts'])).toBeNull();
    expect(targetBreach({ kind: 'api', handler: 'functions/x/old.ts', bytes: 300_000 }, ['functions/x/old.ts'])).toMatch(
      /remove it from API_BUNDLES_OVER_TARGET/,
    );
    expect(targetBreach({ kind: 'worker', handler: 'functions/workers/x.ts', bytes: 500_000 }, [])).toBeNull();
  });

  it('names only handlers of the route table', () => {
    const handlers = new Set(routes.map((r) => r.handler));
    for (const handler of API_BUNDLES_OVER_TARGET) expect(handlers.has(handler), handler).toBe(true);
  });
});
