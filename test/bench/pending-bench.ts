/**
 * Item 18 (issue 37): the pending points worker (lib/loyalties/pending-points.job.ts) over N due
 * entries, 2 a card, seeded straight into the table with BatchWriteItem (as item 12 seeds expired
 * buckets), beside its floor: the same due-index Query pages and, per entry, the same one
 * activation transaction with the card's new counters worked out in advance (nothing read but
 * the index), at the worker's concurrency. Half the floor runs before the worker, half after,
 * each on entries of its own activation date.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { makeHandler as makeCreateCampaign } from '../../functions/campaigns/create-campaign.js';
import { makeHandler as makeAddVouchers } from '../../functions/vouchers/add-vouchers-to-campaign.js';
import { addVouchersToCampaignRoute, createCampaignRoute } from '../../lib/api/routes.js';
import { eachLimited } from '../../lib/concurrency.js';
import { orderEarning, pendingPoints, pointsBucket, voucherChangeSet, voucher as voucherEntity } from '../../lib/db/entities.js';
import { putCardTransactionItem } from '../../lib/loyalties/card-transaction.repo.js';
import type { OrderEarning } from '../../lib/loyalties/order-earning.js';
import { EXPIRY_SHARDS } from '../../lib/loyalties/points-bucket.js';
import { activateDuePendingPoints } from '../../lib/loyalties/pending-points.job.js';
import type { PendingPoints } from '../../lib/loyalties/pending-points.js';
import { duePendingPages, endItems, orderEarningItem } from '../../lib/loyalties/pending-points.repo.js';
import type { Runtime } from '../../lib/runtime.js';
import type { LoyaltyCard, Voucher } from '../../lib/vouchers/voucher.js';
import { getVoucherByCode } from '../../lib/vouchers/voucher.repo.js';
import { type BenchContext, batchPut, benchRuntime, invokeOk, keyPairHeaders, newBenchProject, recordCommands, timed } from './context.js';
import { callCounts, perUnit } from './job-floor.js';
import { check, type Section } from './report.js';
import { perSecond } from './stats.js';

/** Due entries per card: the worker activates a card's entries one after the other. */
const ENTRIES_PER_CARD = 2;
/** The worker's concurrency (activateDuePendingPoints: 4 shards, 8 cards of a page at once) and page size. */
const SHARDS_AT_ONCE = 4;
const CARDS_AT_ONCE = 8;
const PAGE = 100;

interface Seeded {
  cards: Map<string, LoyaltyCard>;
  entries: number;
}

/** Cards (copies of `template`) each holding ENTRIES_PER_CARD PENDING entries due on `activatesAt`, with their order earnings. */
async function seed(runtime: Runtime, template: Voucher, count: number, tag: string, activatesAt: string): Promise<Seeded> {
  const cards = new Map<string, LoyaltyCard>();
  const items: Record<string, unknown>[] = [];
  const now = new Date().toISOString();
  const campaignId = template.campaignId ?? '';
  for (let c = 0; c * ENTRIES_PER_CARD < count; c += 1) {
    const serial = `${tag}${String(c).padStart(6, '0')}`;
    const voucherId = `v_${serial}`;
    const code = `PND-${serial}`;
    const entries: PendingPoints[] = Array.from({ length: ENTRIES_PER_CARD }, (_, k) => ({
      id: `lopp_${serial}${k}`,
      projectId: template.projectId,
      campaignId,
      voucherId,
      code,
      customerId: `cust_${serial}`,
      orderId: `ord_${serial}${k}`,
      ruleId: 'ern_bench',
      points: 10 + k,
      activatesAt,
      status: 'PENDING',
      details: {
        event: { id: `evcus_${serial}${k}`, type: 'customer.order.paid', entityId: `cust_${serial}`, createdAt: now },
        earningRule: { id: 'ern_bench', source: { banner: 'Bench' } },
        order: { id: `ord_${serial}${k}`, sourceId: null },
      },
      expirationRules: null,
      bucketId: `lopb_${serial}${k}`,
      transactionId: `vtx_${serial}${k}`,
      createdAt: now,
      updatedAt: now,
    }));
    const earnings: OrderEarning[] = entries.map((e) => ({
      projectId: e.projectId,
      orderId: e.orderId,
      voucherId,
      code,
      campaignId,
      ruleId: e.ruleId,
      banner: 'Bench',
      points: e.points,
      bucketId: e.bucketId,
      transactionId: e.transactionId,
      status: 'PENDING',
      takenBackPoints: null,
      takeBackTransactionId: null,
      pendingPointsId: e.id,
      createdAt: now,
      updatedAt: now,
    }));
    const card: LoyaltyCard = {
      points: 0,
      balance: 0,
      bucketedPoints: 0,
      expiredPoints: 0,
      subtractedPoints: 0,
      pendingPoints: entries.reduce((s, e) => s + e.points, 0),
      nextExpirationDate: null,
      nextExpirationPoints: null,
      revision: 1,
    };
    cards.set(voucherId, card);
    items.push(
      voucherEntity.toItem({ ...template, id: voucherId, code, loyaltyCard: card }, campaignId),
      ...entries.map((e) => pendingPoints.toItem(e)),
      ...earnings.map((e) => orderEarning.toItem(e)),
    );
  }
  await batchPut(runtime, items, 8);
  return { cards, entries: cards.size * ENTRIES_PER_CARD };
}

/**
 * The floor: what an activation cannot avoid, nothing read but the index. The same due-index
 * Query pages (per shard, this set's date only), then per entry the same one transaction: the
 * card (counters worked out in advance, conditioned on its revision, moved in the updated_at
 * index), the new bucket, the entry leaving PENDING (Delete conditioned + Put), its order
 * earning to EARNED, the PENDING_POINTS_ACTIVATION record; a card's entries one after the
 * other, at the worker's concurrency.
 */
async function rawActivations(runtime: Runtime, seeded: Seeded, date: string): Promise<number> {
  let written = 0;
  const at = new Date().toISOString();
  await eachLimited(
    Array.from({ length: EXPIRY_SHARDS }, (_, i) => i),
    SHARDS_AT_ONCE,
    async (shard) => {
      for await (const page of pendingPoints.queryPages(runtime, { sparse: [shard] }, { sortRange: { from: date, to: `${date}#~` }, pageSize: PAGE })) {
        const byCard = new Map<string, PendingPoints[]>();
        for (const e of page) byCard.set(e.voucherId, [...(byCard.get(e.voucherId) ?? []), e]);
        await eachLimited([...byCard.values()], CARDS_AT_ONCE, async (due) => {
          for (const entry of due) {
            const before = seeded.cards.get(entry.voucherId);
            if (!before) throw new Error(`floor: unknown card ${entry.voucherId}`);
            const after: LoyaltyCard = {
              ...before,
              points: before.points + entry.points,
              balance: before.balance + entry.points,
              bucketedPoints: (before.bucketedPoints ?? 0) + entry.points,
              pendingPoints: before.pendingPoints - entry.points,
              revision: (before.revision ?? 0) + 1,
            };
            const moved = voucherChangeSet({ projectId: entry.projectId, id: entry.voucherId }, at);
            await runtime.ddb.send(
              new TransactWriteCommand({
                TransactItems: [
                  {
                    Update: {
                      TableName: runtime.tableName,
                      Key: voucherEntity.key(entry.projectId, entry.code),
                      UpdateExpression: `SET loyaltyCard = :card, updatedAt = :now, ${moved.set}`,
                      ConditionExpression: 'id = :id AND loyaltyCard.revision = :rev',
                      ExpressionAttributeNames: moved.names,
                      ExpressionAttributeValues: { ...moved.values, ':card': after, ':now': at, ':id': entry.voucherId, ':rev': before.revision },
                    },
                  },
                  pointsBucket.putIfAbsent(runtime, {
                    id: entry.bucketId,
                    projectId: entry.projectId,
                    campaignId: entry.campaignId,
                    voucherId: entry.voucherId,
                    voucherCode: entry.code,
                    points: entry.points,
                    status: 'ACTIVE',
                    expiresAt: null,
                    createdAt: at,
                    updatedAt: at,
                  }),
                  ...endItems(runtime, entry, 'ACTIVATED', at),
                  orderEarningItem(runtime, entry, 'EARNED', entry.points, at),
                  putCardTransactionItem(runtime, {
                    id: entry.transactionId,
                    projectId: entry.projectId,
                    campaignId: entry.campaignId,
                    voucherId: entry.voucherId,
                    type: 'PENDING_POINTS_ACTIVATION',
                    source: null,
                    sourceId: null,
                    reason: null,
                    points: entry.points,
                    total: after.points,
                    balance: after.balance,
                    details: {
                      event: { id: entry.details.event.id, type: entry.details.event.type },
                      earningRule: entry.details.earningRule,
                      order: entry.details.order,
                    },
                    createdAt: at,
                  }),
                ] as never,
              }),
            );
            seeded.cards.set(entry.voucherId, after);
            written += 1;
          }
        });
      }
    },
  );
  return written;
}

/** Entries of the due index still due today (every shard): 0 once every seeded entry is activated. */
async function stillDue(runtime: Runtime): Promise<number> {
  const today = new Date().toISOString().slice(0, 10);
  let n = 0;
  for (let shard = 0; shard < EXPIRY_SHARDS; shard += 1) for await (const page of duePendingPages(runtime, shard, today, 1000)) n += page.length;
  return n;
}

/** Item 18 (issue 37): pending points activation over N due entries beside raw index pages + one transaction an entry. */
export async function benchPendingActivation(ctx: BenchContext): Promise<Section[]> {
  const started = Date.now();
  const count = ctx.options.quick ? 10_000 : 100_000;
  const runtime = benchRuntime(ctx.engines);
  const pair = await newBenchProject(runtime, 'bench pending points');
  const headers = keyPairHeaders(pair);
  const program = await invokeOk(makeCreateCampaign({ runtime }), createCampaignRoute, {
    path: '/v1/campaigns',
    headers,
    json: { name: 'Bench pending club', campaign_type: 'LOYALTY_PROGRAM', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } },
  });
  const sample = await invokeOk(makeAddVouchers({ runtime }), addVouchersToCampaignRoute, {
    path: `/v1/campaigns/${program.id as string}/vouchers`,
    headers,
    json: {},
  });
  const template = await getVoucherByCode(runtime, pair.project_id, sample.code as string);
  if (!template) throw new Error('template card not found');
  const half = Math.floor(count / 2);
  const sweep = () => activateDuePendingPoints(runtime, { projectId: pair.project_id, pageSize: PAGE });

  ctx.progress('18. warming up the activation path (discarded)');
  const warm = await seed(runtime, template, Math.min(1_000, count / 5), 'wu', '2019-12-01');
  await rawActivations(runtime, warm, '2019-12-01');
  await seed(runtime, template, Math.min(1_000, count / 5), 'wv', '2019-12-02');
  await sweep();
  const before = await stillDue(runtime);
  ctx.progress(`18. seeding the floor's first half: ${half} due entries (${before} other entries already due)`);
  const floorASet = await seed(runtime, template, half, 'fa', '2020-01-01');
  ctx.progress('18. floor, first half: raw due-index Query pages + one activation transaction per entry');
  const [floorA, writtenA] = await timed(() => rawActivations(runtime, floorASet, '2020-01-01'));

  ctx.progress(`18. seeding the worker's ${count} due entries`);
  await seed(runtime, template, count, 'wk', '2020-02-01');
  const recorder = recordCommands(runtime);
  ctx.progress(`18. the pending points worker activates ${count} entries`);
  const [workerMs, report] = await timed(sweep);
  const sent = [...recorder.sent];
  recorder.reset();

  ctx.progress(`18. worker done in ${(workerMs / 1000).toFixed(1)} s; seeding the floor's second half`);
  const floorBSet = await seed(runtime, template, count - half, 'fb', '2020-03-01');
  ctx.progress('18. floor, second half');
  const [floorB, writtenB] = await timed(() => rawActivations(runtime, floorBSet, '2020-03-01'));
  const left = await stillDue(runtime);

  const floorRate = (writtenA + writtenB) / ((floorA + floorB) / 1000);
  const workerRate = report.activated / (workerMs / 1000);
  const counts = callCounts(sent.filter((c) => c.name !== 'BatchWrite'));
  return [
    {
      item: 18,
      title: `Pending points activation: the worker over ${count.toLocaleString('en-US')} due entries (${ENTRIES_PER_CARD} a card)`,
      checks: [
        check({
          name: 'entries/s (worker) vs raw index Query + one activation transaction an entry',
          measured: workerRate,
          floor: floorRate,
          unit: 'entries/s',
          target: '≥ 0.7 × floor',
          bound: 0.7 * floorRate,
          direction: 'min',
          format: perSecond,
        }),
        check({
          name: 'entries activated minus seeded',
          measured: Math.abs(report.activated - before - count),
          unit: 'entries',
          target: '0',
          bound: 0,
          format: String,
        }),
        check({ name: 'index entries still due after the run', measured: left, unit: 'entries', target: '0', bound: 0, format: String }),
      ],
      details: { count, workerMs, floorMs: floorA + floorB, floorWritten: writtenA + writtenB, report, otherDueBefore: before, calls: counts },
      notes: [
        `worker ${(workerMs / 1000).toFixed(1)} s, floor ${((floorA + floorB) / 1000).toFixed(1)} s (half before, half after), ${SHARDS_AT_ONCE} shards and ${CARDS_AT_ONCE} cards at once, pages of ${PAGE}`,
        `the worker's calls per entry: ${perUnit(counts, Math.max(1, report.activated))}`,
      ],
      seconds: (Date.now() - started) / 1000,
    },
  ];
}
