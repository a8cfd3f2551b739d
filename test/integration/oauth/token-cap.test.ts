import { describe, expect, it } from 'vitest';
import { makeHandler as makeTokenHandler } from '../../../functions/oauth/generate-oauth-token.js';
import { ManualClock } from '../../../lib/clock.js';
import { getLedger } from '../../../lib/oauth/oauth.repo.js';
import { call } from '../../support/invoke.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const request = { path: '/v1/oauth/token', form: { grant_type: 'client_credentials', scope: 'api' } };

/** Runs `count` calls of `fn` with at most `width` in flight. */
async function inBatches<T>(count: number, width: number, fn: () => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < count; i += width) out.push(...(await Promise.all(Array.from({ length: Math.min(width, count - i) }, fn))));
  return out;
}

describe('OAuth token cap (1000 live tokens per project)', () => {
  it('lets exactly 10 of 50 parallel requests through at 990 live tokens, and says why to the rest', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const runtime = testRuntime({ clock });
    const pair = await newProject(runtime);
    const handler = makeTokenHandler({ runtime });
    const seeded = await inBatches(990, 1, () => call(handler, { ...request, headers: keyPairHeaders(pair) }));
    expect(seeded.every((r) => r.status === 200)).toBe(true);

    const race = await Promise.all(Array.from({ length: 50 }, () => call(handler, { ...request, headers: keyPairHeaders(pair) })));

    const winners = race.filter((r) => r.status === 200);
    const refused = race.filter((r) => r.status !== 200);
    expect(winners).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const r of refused) {
      expect(r.status).toBe(429);
      expect(r.json).toMatchObject({ code: 429, key: 'oauth_token_limit_exceeded' });
      expect(Number(r.headers['Retry-After'])).toBeGreaterThan(0);
    }
    expect((await getLedger(runtime, pair.project_id)).expiries).toHaveLength(1000);
  }, 120_000);

  it('frees slots as tokens expire, and counts each project on its own', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const runtime = testRuntime({ clock });
    const pair = await newProject(runtime);
    const other = await newProject(runtime);
    const handler = makeTokenHandler({ runtime });
    await inBatches(1000, 1, () => call(handler, { ...request, headers: keyPairHeaders(pair) }));
    expect((await call(handler, { ...request, headers: keyPairHeaders(pair) })).status).toBe(429);
    expect((await call(handler, { ...request, headers: keyPairHeaders(other) })).status).toBe(200);
    clock.advance(900_000);
    expect((await call(handler, { ...request, headers: keyPairHeaders(pair) })).status).toBe(200);
    expect((await getLedger(runtime, pair.project_id)).expiries).toHaveLength(1);
  }, 120_000);
});
