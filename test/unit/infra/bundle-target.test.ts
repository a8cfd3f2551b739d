import { describe, expect, it } from 'vitest';
import { API_BUNDLE_LIMIT_BYTES, API_BUNDLE_TARGET_BYTES, LAZY_CHUNK_HANDLERS } from '../../../infra/constructs/bundling-settings.js';
import { bundleTargets } from '../../../infra/constructs/bundle-targets.js';
import { lazyChunkBreach, packageBytes, targetBreach } from '../../../scripts/bundles.js';

describe('the 85 % bundle target (issue 34)', () => {
  it('is 340 KiB for an API handler', () => {
    expect(API_BUNDLE_TARGET_BYTES).toBe(Math.floor(0.85 * API_BUNDLE_LIMIT_BYTES));
    expect(API_BUNDLE_TARGET_BYTES).toBe(348_160);
  });

  it('fails every API handler over it, with no exception; workers answer to their limit only', () => {
    const over = API_BUNDLE_TARGET_BYTES + 1;
    expect(targetBreach({ kind: 'api', handler: 'functions/x/new-route.ts', bytes: over })).toMatch(/over the 340 KiB target/);
    expect(targetBreach({ kind: 'api', handler: 'functions/redemptions/redeem-stacked-discounts.ts', bytes: over })).toMatch(/over the 340 KiB target/);
    expect(targetBreach({ kind: 'api', handler: 'functions/x/new-route.ts', bytes: API_BUNDLE_TARGET_BYTES })).toBeNull();
    expect(targetBreach({ kind: 'worker', handler: 'functions/workers/x.ts', bytes: 500_000 })).toBeNull();
  });

  it('counts what a cold start loads against the target, and the lazy chunks too against the limit', () => {
    const bundle = { kind: 'api' as const, handler: 'functions/x/lazy.ts', bytes: API_BUNDLE_TARGET_BYTES, lazyBytes: 70_000 };
    expect(targetBreach(bundle)).toBeNull();
    expect(packageBytes(bundle)).toBe(API_BUNDLE_TARGET_BYTES + 70_000);
    expect(packageBytes(bundle)).toBeGreaterThan(API_BUNDLE_LIMIT_BYTES);
  });

  it('fails a handler built with lazy chunks that has none, so LAZY_CHUNK_HANDLERS names only handlers that need it', () => {
    expect(lazyChunkBreach({ handler: 'functions/x/lazy.ts', lazyChunks: true, lazyBytes: 0 })).toMatch(/remove it from LAZY_CHUNK_HANDLERS/);
    expect(lazyChunkBreach({ handler: 'functions/x/lazy.ts', lazyChunks: true, lazyBytes: 1 })).toBeNull();
    expect(lazyChunkBreach({ handler: 'functions/x/plain.ts', lazyBytes: 0 })).toBeNull();
  });

  it('names only deployed handlers (the route and worker tables) for lazy chunks', () => {
    const handlers = new Set(bundleTargets().map((t) => t.handler));
    for (const handler of LAZY_CHUNK_HANDLERS) expect(handlers.has(handler), handler).toBe(true);
  });
});
