import { eachLimited } from '../../lib/concurrency.js';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { makeHandler as makeCreateCampaign } from '../../functions/campaigns/create-campaign.js';
import { makeHandler as makeAddVouchers } from '../../functions/vouchers/add-vouchers-to-campaign.js';
import { addVouchersToCampaignRoute, createCampaignRoute } from '../../lib/api/routes.js';
import { pointsBucket, voucherChangeSet, voucher as voucherEntity } from '../../lib/db/entities.js';
import type { TransactItem } from '../../lib/db/transact.js';
import { EXPIRY_SHARDS, expiresKeyOf, type PointsBucket } from '../../lib/loyalties/points-bucket.js';
import { expirePoints } from '../../lib/loyalties/points-expiry.job.js';
import { dueBucketPages } from '../../lib/loyalties/points-expiry.repo.js';
import { EXPIRY_INDEX_KEYS } from '../../lib/loyalties/loyalty-card.repo.js';
import { cardTransaction } from '../../lib/db/entities.js';
import type { Runtime } from '../../lib/runtime.js';
import type { LoyaltyCard, Voucher } from '../../lib/vouchers/voucher.js';
import { getVoucherByCode } from '../../lib/vouchers/voucher.repo.js';
import { type BenchContext, batchPut, benchRuntime, invokeOk, keyPairHeaders, newBenchProject, timed } from './context.js';
import { check, type Section } from './report.js';
import { perSecond } from './stats.js';

/** Buckets per card in the bench: both due, so the worker reads the card but not its buckets (all it holds is due). */
const BUCKETS_PER_CARD = 2;
/** The sweep's concurrency, the same on both sides (the worker's defaults). */
const SHARDS_AT_ONCE = 4;
const CARDS_AT_ONCE = 8;
const PAGE = 100;

interface Seeded {
  cards: Map<string, { voucher: Voucher; card: LoyaltyCard }>;
  buckets: number;
}

/** Cards (copies of `template`) each holding BUCKETS_PER_CARD buckets that expired on `expiresAt`, written straight to the table. */
async function seed(runtime: Runtime, template: Voucher, count: number, tag: string, expiresAt: string): Promise<Seeded> {
  const cards = new Map<string, { voucher: Voucher; card: LoyaltyCard }>();
  const items: Record<string, unknown>[] = [];
  const now = new Date().toISOString();
  for (let c = 0; c * BUCKETS_PER_CARD < count; c += 1) {
    const serial = `${tag}${String(c).padStart(6, '0')}`;
    const buckets: PointsBucket[] = Array.from({ length: BUCKETS_PER_CARD }, (_, k) => ({
      id: `lopb_${serial}${k}`,
      projectId: template.projectId,
      campaignId: template.campaignId ?? '',
      voucherId: `v_${serial}`,
      voucherCode: `EXP-${serial}`,
      points: 10 + k,
      status: 'ACTIVE',
      expiresAt,
      createdAt: now,
      updatedAt: now,
    }));
    const bucketed = buckets.reduce((s, b) => s + b.points, 0);
    const card: LoyaltyCard = {
      points: bucketed,
      balance: bucketed,
      bucketedPoints: bucketed,
      expiredPoints: 0,
      subtractedPoints: 0,
      pendingPoints: 0,
      nextExpirationDate: expiresAt,
      nextExpirationPoints: bucketed,
      revision: 1,
    };
    const voucher: Voucher = { ...template, id: `v_${serial}`, code: `EXP-${serial}`, loyaltyCard: card };
    cards.set(voucher.id, { voucher, card });
    items.push(voucherEntity.toItem(voucher, template.campaignId ?? ''), ...buckets.map((b) => pointsBucket.toItem(b)));
  }
  await batchPut(runtime, items, 8);
  return { cards, buckets: cards.size * BUCKETS_PER_CARD };
}

/**
 * The floor: what a write-off cannot avoid, with nothing read but the index. The same Query pages
 * of the expiry index (per shard, this set's day only), then per card the same one transaction
 * (the card with its counters worked out in advance, conditioned on its revision and moved in the
 * updated_at index; each due bucket conditioned on its points, leaving the index; a card
 * transaction per bucket), at the same concurrency.
 */
async function rawWriteOffs(runtime: Runtime, seeded: Seeded, expiresAt: string): Promise<number> {
  let written = 0;
  const date = new Date().toISOString();
  await eachLimited(
    Array.from({ length: EXPIRY_SHARDS }, (_, i) => i),
    SHARDS_AT_ONCE,
    async (shard) => {
      for await (const page of pointsBucket.queryPages(
        runtime,
        { sparse: [shard] },
        { sortRange: { from: expiresAt, to: `${expiresAt}#~` }, pageSize: PAGE },
      )) {
        const byCard = new Map<string, PointsBucket[]>();
        for (const b of page) byCard.set(b.voucherId, [...(byCard.get(b.voucherId) ?? []), b]);
        await eachLimited([...byCard.values()], CARDS_AT_ONCE, async (due) => {
          const first = due[0] as PointsBucket;
          const held = seeded.cards.get(first.voucherId);
          if (!held) throw new Error(`floor: unknown card ${first.voucherId}`);
          const before = held.card;
          let after = before;
          const records: TransactItem[] = [];
          for (const b of due) {
            after = {
              ...after,
              balance: after.balance - b.points,
              expiredPoints: after.expiredPoints + b.points,
              bucketedPoints: (after.bucketedPoints ?? 0) - b.points,
              revision: (after.revision ?? 0) + 1,
              nextExpirationDate: null,
              nextExpirationPoints: null,
            };
            records.push(
              cardTransaction.putIfAbsent(runtime, {
                id: `vtx_floor${b.id}`,
                projectId: b.projectId,
                campaignId: b.campaignId,
                voucherId: b.voucherId,
                type: 'POINTS_EXPIRATION',
                source: null,
                sourceId: null,
                reason: null,
                points: -b.points,
                total: after.points,
                balance: after.balance,
                createdAt: date,
              }),
            );
          }
          // The card moves in the updated_at index (GSI5) with every change, as the worker's write does.
          const moved = voucherChangeSet({ projectId: first.projectId, id: first.voucherId }, date);
          await runtime.ddb.send(
            new TransactWriteCommand({
              TransactItems: [
                {
                  Update: {
                    TableName: runtime.tableName,
                    Key: voucherEntity.key(first.projectId, first.voucherCode ?? ''),
                    UpdateExpression: `SET loyaltyCard = :card, updatedAt = :now, ${moved.set}`,
                    ConditionExpression: 'id = :id AND loyaltyCard.balance = :balance AND loyaltyCard.revision = :rev',
                    ExpressionAttributeNames: moved.names,
                    ExpressionAttributeValues: {
                      ...moved.values,
                      ':card': after,
                      ':now': date,
                      ':id': first.voucherId,
                      ':balance': before.balance,
                      ':rev': before.revision,
                    },
                  },
                },
                ...due.map((b) => ({
                  Update: {
                    TableName: runtime.tableName,
                    Key: pointsBucket.key(b.projectId, b.campaignId, expiresKeyOf(b.expiresAt), b.id),
                    UpdateExpression: `SET points = :points, #status = :status, updatedAt = :now REMOVE ${EXPIRY_INDEX_KEYS}`,
                    ConditionExpression: 'points = :was AND #status = :active',
                    ExpressionAttributeNames: { '#status': 'status' },
                    ExpressionAttributeValues: { ':points': b.points, ':status': 'EXPIRED', ':now': date, ':was': b.points, ':active': 'ACTIVE' },
                  },
                })),
                ...records,
              ],
            }),
          );
          held.card = after;
          written += due.length;
        });
      }
    },
  );
  return written;
}

/** Entries of the expiry index still due (every shard): 0 once every seeded bucket is written off. */
async function stillDue(runtime: Runtime): Promise<number> {
  const today = new Date().toISOString().slice(0, 10);
  let n = 0;
  for (let shard = 0; shard < EXPIRY_SHARDS; shard += 1) for await (const page of dueBucketPages(runtime, shard, today, 1000)) n += page.length;
  return n;
}

/**
 * Issue 18 "Expiry": the points expiry worker's sweep (lib/loyalties/points-expiry.job.ts) over N
 * expired buckets (2 per card) against its floor: the same index Query pages and the same
 * one write-off transaction per card, with the card's new counters worked out in advance (nothing
 * read but the index). The floor runs half before and half after the worker, each on its own
 * freshly seeded buckets. See docs/benchmarks.md "12. Points expiry".
 */
export async function benchPointsExpiry(ctx: BenchContext): Promise<Section[]> {
  const started = Date.now();
  const count = ctx.options.quick ? 3_000 : 100_000;
  const runtime = benchRuntime(ctx.engines);
  const pair = await newBenchProject(runtime, 'bench points expiry');
  const headers = keyPairHeaders(pair);
  const program = await invokeOk(makeCreateCampaign({ runtime }), createCampaignRoute, {
    path: '/v1/campaigns',
    headers,
    json: { name: 'Bench expiry club', campaign_type: 'LOYALTY_PROGRAM', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } },
  });
  const sample = await invokeOk(makeAddVouchers({ runtime }), addVouchersToCampaignRoute, {
    path: `/v1/campaigns/${program.id as string}/vouchers`,
    headers,
    json: {},
  });
  const template = await getVoucherByCode(runtime, pair.project_id, sample.code as string);
  if (!template) throw new Error('template card not found');
  const half = Math.floor(count / 2);

  ctx.progress('12. warming up the write-off path (discarded)');
  const warm = await seed(runtime, template, Math.min(1_000, count / 5), 'wu', '2019-12-01');
  await rawWriteOffs(runtime, warm, '2019-12-01');
  await expirePoints(runtime, { projectId: pair.project_id });
  const before = await stillDue(runtime);
  ctx.progress(`12. seeding the floor's first half: ${half} expired buckets (${before} other entries already due)`);
  const floorASet = await seed(runtime, template, half, 'fa', '2020-01-01');
  ctx.progress('12. floor, first half: raw index Query pages + one write-off transaction per card');
  const [floorA, writtenA] = await timed(() => rawWriteOffs(runtime, floorASet, '2020-01-01'));

  ctx.progress(`12. seeding the worker's ${count} expired buckets`);
  await seed(runtime, template, count, 'wk', '2020-02-01');
  ctx.progress(`12. the points expiry worker sweeps ${count} buckets`);
  const [workerMs, report] = await timed(() => expirePoints(runtime, { shardConcurrency: SHARDS_AT_ONCE, cardConcurrency: CARDS_AT_ONCE, pageSize: PAGE }));

  ctx.progress(`12. worker done in ${(workerMs / 1000).toFixed(1)} s; seeding the floor's second half`);
  const floorBSet = await seed(runtime, template, count - half, 'fb', '2020-03-01');
  ctx.progress('12. floor, second half');
  const [floorB, writtenB] = await timed(() => rawWriteOffs(runtime, floorBSet, '2020-03-01'));
  const left = await stillDue(runtime);

  const floorRate = (writtenA + writtenB) / ((floorA + floorB) / 1000);
  const workerRate = report.writtenOff / (workerMs / 1000);
  return [
    {
      item: 12,
      title: `Points expiry: the worker over ${count.toLocaleString('en-US')} expired buckets (${BUCKETS_PER_CARD} a card)`,
      checks: [
        check({
          name: 'buckets/s (worker) vs raw index Query + write-off transactions',
          measured: workerRate,
          floor: floorRate,
          unit: 'buckets/s',
          target: '≥ 0.7 × floor',
          bound: 0.7 * floorRate,
          direction: 'min',
          format: perSecond,
        }),
        check({
          name: 'buckets written off minus seeded',
          measured: Math.abs(report.writtenOff - before - count),
          unit: 'buckets',
          target: '0',
          bound: 0,
          format: String,
        }),
        check({ name: 'index entries still due after the run', measured: left, unit: 'entries', target: '0', bound: 0, format: String }),
      ],
      details: { count, workerMs, floorMs: floorA + floorB, floorWritten: writtenA + writtenB, report, otherDueBefore: before },
      notes: [
        'Floor: the same index Query pages (per shard, 100 a page, 4 shards and 8 cards at once) and the same one transaction per card (card moved in the updated_at index, each due bucket, a POINTS_EXPIRATION each), with the card counters known in advance (no card read); half before, half after the worker.',
      ],
      seconds: (Date.now() - started) / 1000,
    },
  ];
}
