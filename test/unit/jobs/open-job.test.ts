import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jobMessageSchema } from '../../../lib/jobs/job-message.schema.js';
import { jobMessageOf, OPEN_JOB_SHARDS, openJobShard } from '../../../lib/jobs/open-job.js';

describe('openJobShard', () => {
  it('gives every id one shard in 0..15, the same every time', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (id) => {
        const shard = openJobShard(id);
        expect(Number.isInteger(shard)).toBe(true);
        expect(shard).toBeGreaterThanOrEqual(0);
        expect(shard).toBeLessThan(OPEN_JOB_SHARDS);
        expect(openJobShard(id)).toBe(shard);
      }),
    );
  });

  it('keeps the shards of stored markers (a changed hash would strand them: the key of an ending job would miss its marker)', () => {
    expect([openJobShard('aa_1'), openJobShard('exp_1'), openJobShard(''), openJobShard('aa_ylmi76kslwH67BDqqoAZK4A9')]).toEqual([11, 12, 5, 15]);
  });

  it('spreads random ids evenly: 16,000 ids put 800 to 1,200 in each shard', () => {
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    const counts = new Array<number>(OPEN_JOB_SHARDS).fill(0);
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { minLength: 24, maxLength: 24 }), (chars) => {
        const shard = openJobShard(`aa_${chars.join('')}`);
        counts[shard] = (counts[shard] ?? 0) + 1;
      }),
      { numRuns: 16_000 },
    );
    for (const count of counts) {
      expect(count).toBeGreaterThanOrEqual(800);
      expect(count).toBeLessThanOrEqual(1200);
    }
  });
});

describe('jobMessageOf', () => {
  it('builds the queue message the worker accepts for each job kind', () => {
    const generation = jobMessageOf({ type: 'generate-vouchers', projectId: 'p1', subjectId: 'aa_1', createdAt: '2026-01-01T00:00:00.000Z' });
    const exported = jobMessageOf({ type: 'export-points-expiration', projectId: 'p1', subjectId: 'exp_1', createdAt: '2026-01-01T00:00:00.000Z' });
    expect(generation).toEqual({ type: 'generate-vouchers', projectId: 'p1', asyncActionId: 'aa_1' });
    expect(exported).toEqual({ type: 'export-points-expiration', projectId: 'p1', exportId: 'exp_1' });
    expect(jobMessageSchema.safeParse(generation).success).toBe(true);
    expect(jobMessageSchema.safeParse(exported).success).toBe(true);
  });
});
