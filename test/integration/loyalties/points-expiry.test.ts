import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { ensureTable } from '../../../infra/local/engines.js';
import { ManualClock } from '../../../lib/clock.js';
import { createDocumentClient } from '../../../lib/db/client.js';
import { JobStoppedError } from '../../../lib/jobs/job-stop.js';
import { listCardTransactions } from '../../../lib/loyalties/card-transaction.repo.js';
import { EXPIRY_SHARDS, expiryShard } from '../../../lib/loyalties/points-bucket.js';
import { expirePoints } from '../../../lib/loyalties/points-expiry.job.js';
import { dueBucketPages } from '../../../lib/loyalties/points-expiry.repo.js';
import type { Runtime } from '../../../lib/runtime.js';
import { campaignApi, newCampaign } from '../../support/api.js';
import { loyaltyApi } from '../../support/loyalty-api.js';
import { apiClient } from '../../support/api-client.js';
import { startFaultProxy } from '../../support/fault-proxy.js';
import { engines, keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const DAY = 86_400_000;
const at = Date.UTC(2026, 1, 10, 12, 0, 0); // 2026-02-10

async function setup(cards = ['CARD-1'], tableName?: string) {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock, tableName });
  const pair = await newProject(runtime);
  const campaigns = campaignApi(runtime, pair);
  const loyalty = loyaltyApi(runtime, pair);
  await newCampaign(campaigns, { name: 'Club', campaign_type: 'LOYALTY_PROGRAM', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } });
  const ids: Record<string, string> = {};
  for (const code of cards) ids[code] = (await campaigns.addVoucher('Club', { code })).json.id as string;
  const cardOf = async (code = 'CARD-1') => (await campaigns.getVoucher(code)).json.loyalty_card as Record<string, unknown>;
  const transactions = (code = 'CARD-1') => listCardTransactions(runtime, pair.project_id, ids[code] as string);
  const sweep = (options: Parameters<typeof expirePoints>[1] = {}) => expirePoints(runtime, { projectId: pair.project_id, ...options });
  return { clock, runtime, pair, loyalty, ids, cardOf, transactions, sweep };
}

/** This project's entries in the expiry index that are due before `today`. */
async function dueEntries(runtime: Runtime, projectId: string, today: string): Promise<string[]> {
  const out: string[] = [];
  for (let shard = 0; shard < EXPIRY_SHARDS; shard += 1) {
    for await (const page of dueBucketPages(runtime, shard, today)) out.push(...page.filter((b) => b.projectId === projectId).map((b) => b.id));
  }
  return out;
}

/** The bucket items a TransactWriteItems request (DynamoDB JSON) updates. */
const bucketWriteOffs = (body: string): number =>
  (JSON.parse(body) as { TransactItems: { Update?: { Key: { PK: { S: string } } } }[] }).TransactItems.filter((t) => t.Update?.Key.PK.S.endsWith('#BUCKETS'))
    .length;

describe('the points expiry worker', () => {
  it('writes off each past-due bucket in one transaction: the card moves its points to expired_points and records POINTS_EXPIRATION', async () => {
    const { clock, loyalty, cardOf, transactions, sweep } = await setup();
    await loyalty.updateBalance('Club', 'CARD-1', { points: 5, expiration_date: '2026-03-01' });
    await loyalty.updateBalance('Club', 'CARD-1', { points: 7, expiration_date: '2026-06-30' });
    await loyalty.updateBalance('Club', 'CARD-1', { points: 3, expiration_type: 'NON_EXPIRING' });
    expect((await sweep()).writtenOff).toBe(0);

    clock.advance(20 * DAY); // 2026-03-02: the first bucket's last day was yesterday
    const report = await sweep();
    expect(report).toMatchObject({ today: '2026-03-02', writtenOff: 1, points: 5, orphans: 0 });
    expect(await cardOf()).toMatchObject({ points: 15, balance: 10, expired_points: 5, next_expiration_date: '2026-06-30', next_expiration_points: 7 });
    const history = await transactions();
    expect(history.at(-1)).toMatchObject({ type: 'POINTS_EXPIRATION', points: -5, total: 15, balance: 10, source: null });
    expect(history.reduce((s, t) => s + t.points, 0)).toBe(10);
    expect((await sweep()).writtenOff).toBe(0);

    clock.advance(200 * DAY);
    expect(await sweep()).toMatchObject({ writtenOff: 1, points: 7 });
    expect(await cardOf()).toMatchObject({ balance: 3, expired_points: 12 });
    expect((await cardOf()).next_expiration_date).toBeUndefined();
    expect((await transactions()).filter((t) => t.type === 'POINTS_EXPIRATION').map((t) => t.balance)).toEqual([10, 3]);
  });

  it('stops counting past-due points on a member read at once, before the worker writes them off', async () => {
    const { clock, runtime, pair, loyalty, sweep } = await setup();
    const api = apiClient({ runtime }, keyPairHeaders(pair));
    await loyalty.updateBalance('Club', 'CARD-1', { points: 5, expiration_date: '2026-03-01' });
    await loyalty.updateBalance('Club', 'CARD-1', { points: 7, expiration_date: '2026-06-30' });
    clock.advance(20 * DAY);
    const expected = { points: 12, balance: 7, expired_points: 5, next_expiration_date: '2026-06-30', next_expiration_points: 7 };
    expect((await api.call('get-member', { params: { memberId: 'CARD-1' } })).json.loyalty_card).toMatchObject(expected);
    expect((await api.call('get-member-1', { params: { campaignId: 'Club', memberId: 'CARD-1' } })).json.loyalty_card).toMatchObject(expected);
    await sweep();
    expect((await api.call('get-member', { params: { memberId: 'CARD-1' } })).json.loyalty_card).toMatchObject(expected);
  });

  it('finds buckets through the expiry index, which a bucket leaves once spent or written off', async () => {
    const { clock, runtime, pair, loyalty, sweep } = await setup();
    await loyalty.updateBalance('Club', 'CARD-1', { points: 4, expiration_date: '2026-02-20' });
    await loyalty.updateBalance('Club', 'CARD-1', { points: 6, expiration_date: '2026-02-21' });
    await loyalty.updateBalance('Club', 'CARD-1', { points: -4 });
    clock.advance(30 * DAY);
    expect(await dueEntries(runtime, pair.project_id, '2026-03-12')).toHaveLength(1);
    expect(await sweep()).toMatchObject({ writtenOff: 1, points: 6 });
    expect(await dueEntries(runtime, pair.project_id, '2026-03-12')).toEqual([]);
  });

  it("writes off a card's due buckets in one transaction, even across index pages, each with its own POINTS_EXPIRATION", async () => {
    // A table of its own: in the shared one, other tests' due entries fill the shard's pages of one entry.
    const e = engines();
    const raw = new DynamoDBClient({ region: e.region, endpoint: e.dynamoEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    const tableName = `expiry-pages-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    await ensureTable(raw, tableName).finally(() => raw.destroy());
    const { clock, runtime, pair, loyalty, cardOf, transactions } = await setup(['CARD-1'], tableName);
    await loyalty.updateBalance('Club', 'CARD-1', { points: 4, expiration_date: '2026-02-15' });
    await loyalty.updateBalance('Club', 'CARD-1', { points: 6, expiration_date: '2026-02-20' });
    await loyalty.updateBalance('Club', 'CARD-1', { points: 9, expiration_date: '2026-12-31' });
    clock.advance(15 * DAY);
    const proxy = await startFaultProxy(engines().dynamoEndpoint);
    try {
      const counted = { ...runtime, ddb: createDocumentClient({ region: engines().region, endpoint: proxy.url }) };
      // Pages of one entry: the card's second due bucket is on the next index page (as when other cards' entries of the
      // shard fall between them), and still goes in the card's one transaction.
      expect(await expirePoints(counted, { projectId: pair.project_id, pageSize: 1 })).toMatchObject({ writtenOff: 2, points: 10, skipped: 0 });
      // One transaction for both due buckets, not one per bucket or per page. Under a loaded machine the SDK may
      // send it again after a lost connection: every copy sent still writes off both buckets.
      const writes = proxy.log.filter((l) => l.operation === 'TransactWriteItems');
      expect(writes.length).toBeGreaterThanOrEqual(1);
      for (const w of writes) expect(bucketWriteOffs(w.body)).toBe(2);
    } finally {
      await proxy.close();
    }
    const expirations = (await transactions()).filter((t) => t.type === 'POINTS_EXPIRATION');
    expect(expirations.map((t) => [t.points, t.balance])).toEqual([
      [-4, 15],
      [-6, 9],
    ]);
    expect(await cardOf()).toMatchObject({ balance: 9, expired_points: 10, next_expiration_date: '2026-12-31', next_expiration_points: 9 });
  });

  it('writes each bucket off once when two runs race (counted transactions)', async () => {
    const codes = ['A-1', 'A-2', 'A-3', 'A-4', 'A-5', 'A-6'];
    const { clock, loyalty, cardOf, transactions, sweep } = await setup(codes);
    for (const code of codes) {
      for (const [points, date] of [
        [3, '2026-02-15'],
        [5, '2026-02-20'],
        [11, '2026-12-31'],
      ] as const) {
        await loyalty.updateBalance('Club', code, { points, expiration_date: date });
      }
    }
    clock.advance(15 * DAY);
    const [a, b] = await Promise.all([sweep({ cardConcurrency: 3 }), sweep({ cardConcurrency: 3 })]);
    expect(a.writtenOff + b.writtenOff).toBe(codes.length * 2);
    expect(a.points + b.points).toBe(codes.length * 8);
    for (const code of codes) {
      const expirations = (await transactions(code)).filter((t) => t.type === 'POINTS_EXPIRATION');
      expect(expirations.map((t) => t.points).sort()).toEqual([-3, -5]);
      expect(await cardOf(code)).toMatchObject({ balance: 11, expired_points: 8, next_expiration_date: '2026-12-31', next_expiration_points: 11 });
    }
  });

  it('stops between cards when asked and the next run writes off the rest, each bucket once', async () => {
    const codes = ['S-1', 'S-2', 'S-3', 'S-4'];
    const { clock, loyalty, transactions, sweep } = await setup(codes);
    for (const code of codes) await loyalty.updateBalance('Club', code, { points: 2, expiration_date: '2026-02-11' });
    clock.advance(5 * DAY);
    const stop = new AbortController();
    stop.abort();
    await expect(sweep({ signal: stop.signal })).rejects.toBeInstanceOf(JobStoppedError);
    expect((await sweep()).writtenOff).toBe(codes.length);
    for (const code of codes) expect((await transactions(code)).filter((t) => t.type === 'POINTS_EXPIRATION')).toHaveLength(1);
  });

  it('keeps a card in one shard of the index', () => {
    expect(expiryShard('v_abc')).toBe(expiryShard('v_abc'));
    const shards = new Set(Array.from({ length: 200 }, (_, i) => expiryShard(`v_${i}`)));
    expect(shards.size).toBe(EXPIRY_SHARDS);
  });
});
