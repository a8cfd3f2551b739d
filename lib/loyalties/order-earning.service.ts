import type { Campaign } from '../campaigns/campaign.js';
import { orderEarning } from '../db/entities.js';
import { getCampaign } from '../campaigns/campaign.repo.js';
import { MAX_TRANSACTION_ITEMS, RETRY, retryOnConflict, transact, type TransactItem } from '../db/transact.js';
import { type EarningRule, ruleApplies } from '../earning-rules/earning-rule.js';
import { listEarningRulesOfEvent } from '../earning-rules/earning-rule.repo.js';
import { ORDER_PAID_EVENT } from '../earning-rules/order-paid-event.js';
import { orderPointsFor } from '../earning-rules/order-points.js';
import { orderMemberships } from './earning-memberships.js';
import { AppError, NotEnoughPointsError } from '../errors.js';
import type { Order, OrderStatus } from '../orders/order.js';
import { joinProgram } from '../publications/publication.service.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from '../vouchers/voucher.js';
import { getHeldVoucher } from '../vouchers/voucher-holder.repo.js';
import { type CardTransaction, type CardTransactionDetails, runningCounters } from './card-transaction.js';
import { putCardTransactionItem } from './card-transaction.repo.js';
import { expiryOf } from './expiration.js';
import { programEarnsAt } from './loyalty-earning.js';
import { prepareCardChange } from './loyalty.service.js';
import { earningKey, MAX_EARNINGS_PER_COMMIT, ORDER_PAID_EVENT_TYPE, type OrderEarning, takeBackShares } from './order-earning.js';
import { orderEarnings, orderStatusIs } from './pending-points.repo.js';
import { newBucket, type PointsBucket } from './points-bucket.js';
import { cancelOrderPendingPoints, holdPendingPoints } from './pending-points.service.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/** `details.event.type` of an order's accrual and of its take-back (the reference's customer event names). */
export { ORDER_PAID_EVENT_TYPE };
export const ORDER_CANCELED_EVENT_TYPE = 'customer.order.canceled';

/** An order's earnings, read consistently (one Query of the order's earnings partition; pending-points.repo.ts). */
export const listOrderEarnings = orderEarnings;

/*
 * orderStatusIs (pending-points.repo.ts) is the check, inside every transaction that earns or takes back an order's points,
 * that the stored order still has the status the change is for. It orders a status change and the loyalty effects
 * of another: an earning that commits after a CANCELED write (or a take-back after a PAID one)
 * fails here, so whichever status is written last, the card ends as that status says, and the
 * take-back that runs after a CANCELED write sees every earning committed before it.
 */
const orderStillIs = (deps: Pick<Runtime, 'tableName'>, order: Order, status: OrderStatus): TransactItem =>
  orderStatusIs(deps, order.projectId, order.id, status);

/** What one run of an order's earning or take-back did on the cards. */
export interface EffectRun {
  /** Earning entries this run wrote (earning) or took back (take-back); 0 when an earlier run did them. */
  entries: number;
  /** The stored order left the status meanwhile (a later write): this run stopped, and that write's effects apply. */
  superseded: boolean;
}

const NOTHING: EffectRun = { entries: 0, superseded: false };
const add = (a: EffectRun, b: EffectRun): EffectRun => ({ entries: a.entries + b.entries, superseded: a.superseded || b.superseded });

/**
 * The customer's card in the program; with `auto_join` (Voucherify: customers join "if any earning
 * rule is fulfilled"), a card is published to them first, as add-member would (join-once, so
 * parallel joins give one card). Null when they hold none and cannot join (no `auto_join`, or no
 * card can be published).
 */
async function cardOf(deps: Deps, order: Order, customerId: string, campaign: Campaign): Promise<Voucher | null> {
  const held = await getHeldVoucher(deps, order.projectId, customerId, campaign.id);
  if (held.voucher?.loyaltyCard) return held.voucher;
  if (!campaign.autoJoin) return null;
  try {
    const published = await joinProgram(deps, order.projectId, campaign.id, customerId);
    return published.value.voucher?.loyaltyCard ? published.value.voucher : null;
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}

/** One rule's points for one card of a paid order, with ids fixed before any commit. */
interface PlannedAccrual {
  rule: EarningRule;
  bucket: PointsBucket;
  transactionId: string;
}

/**
 * Adds the points the project's `order.paid` rules give for `order` to its customer's loyalty
 * cards, once per (order, card, rule) however often or however concurrently it is called: each
 * rule's bucket, its POINTS_ACCRUAL transaction (details: the event, the order, the rule) and the
 * order's earning entry (put only if absent) are one transaction per card (at most
 * MAX_EARNINGS_PER_COMMIT rules each), so a lost race re-reads the entries and adds only what is
 * missing. A rule earns while it is active and inside its dates, and its program likewise; a rule
 * disabled or deleted a moment ago is already seen so. Nothing for an order without a customer.
 * Each commit holds only while the stored order is still PAID: once a later write moved it (a
 * cancellation), nothing more is earned and the run reports itself superseded.
 * @throws ConflictRetryError when a card stays too busy.
 */
export async function earnFromPaidOrder(deps: Deps, order: Order): Promise<EffectRun> {
  const customerId = order.customerId;
  if (order.status !== 'PAID' || customerId === null) return NOTHING;
  const now = deps.clock.now();
  const at = now.toISOString();
  const rules = (await listEarningRulesOfEvent(deps, order.projectId, ORDER_PAID_EVENT)).filter((r) => r.customEventSchemaId === null && ruleApplies(r, at));
  if (rules.length === 0) return NOTHING;
  const memberships = await orderMemberships(deps, order.projectId, order.items, rules);
  let run = NOTHING;
  const byCampaign = new Map<string, EarningRule[]>();
  for (const r of rules) byCampaign.set(r.campaignId, [...(byCampaign.get(r.campaignId) ?? []), r]);
  const eventId = deps.ids.id('evcus');
  for (const [campaignId, campaignRules] of byCampaign) {
    const campaign = await getCampaign(deps, order.projectId, campaignId);
    if (!campaign || !programEarnsAt(campaign, at)) continue;
    const giving = campaignRules.map((rule) => ({ rule, points: orderPointsFor(rule.loyalty, order, memberships) })).filter((g) => g.points > 0);
    if (giving.length === 0) continue;
    const card = await cardOf(deps, order, customerId, campaign);
    if (!card) continue;
    const programRules = campaign.voucher?.loyaltyCard?.expirationRules;
    // Rules with pending points hold theirs until activation (lib/loyalties/pending-points.service.ts).
    const held = giving.filter((g) => g.rule.pendingPoints);
    if (held.length > 0) {
      run = add(run, await holdPendingPoints(deps, order, card, held, eventId, now, programRules));
      if (run.superseded) return run;
      if (held.length === giving.length) continue;
    }
    const planned: PlannedAccrual[] = giving
      .filter((g) => !g.rule.pendingPoints)
      .map(({ rule, points }) => ({
        rule,
        bucket: { ...newBucket(deps, card, points, expiryOf(rule.expirationRules ?? programRules, now), at), earningRuleId: rule.id },
        transactionId: deps.ids.id('vtx'),
      }));
    run = add(run, await earnOnCard(deps, order, card, planned, eventId, now));
    if (run.superseded) return run;
  }
  return run;
}

/** Commits the planned accruals of one card in commits of at most MAX_EARNINGS_PER_COMMIT, skipping those already earned. */
async function earnOnCard(deps: Deps, order: Order, card: Voucher, planned: PlannedAccrual[], eventId: string, now: Date): Promise<EffectRun> {
  const at = now.toISOString();
  let written = 0;
  for (;;) {
    const step = await retryOnConflict(`Too many concurrent changes to loyalty card ${card.code}`, async () => {
      const done = new Set((await listOrderEarnings(deps, order.projectId, order.id)).map((e) => earningKey(e.voucherId, e.ruleId)));
      const todo = planned.filter((p) => !done.has(earningKey(card.id, p.rule.id)));
      if (todo.length === 0) return { left: 0, wrote: 0, superseded: false };
      const batch = todo.slice(0, MAX_EARNINGS_PER_COMMIT);
      // The card, the order's status check and 2 items per rule; the rest may go to buckets.
      const maxBucketWrites = MAX_TRANSACTION_ITEMS - 2 - 2 * batch.length;
      const prepared = await prepareCardChange(deps, order.projectId, card.code, { kind: 'add', buckets: batch.map((p) => p.bucket) }, now, maxBucketWrites);
      if (!prepared) return RETRY;
      // The card was deleted (and its code re-created) since it was found: it earns nothing.
      if (prepared.voucher.id !== card.id) return { left: 0, wrote: 0, superseded: false };
      // What each bucket earned once the card's tier mapped it (lib/loyalties/tier.ts).
      const earned = new Map(prepared.plan.inserts.map((b) => [b.id, b.points]));
      const pointsOf = (b: { id: string; points: number }): number => earned.get(b.id) ?? b.points;
      const sorted = [...batch].sort((a, b) => (a.transactionId < b.transactionId ? -1 : a.transactionId > b.transactionId ? 1 : 0));
      const counters = runningCounters(
        sorted.map((p) => pointsOf(p.bucket)),
        { total: prepared.plan.card.points, balance: prepared.plan.card.balance },
      );
      // Index 0: its failure means the order is no longer PAID.
      const items: TransactItem[] = [orderStillIs(deps, order, 'PAID'), ...prepared.items];
      sorted.forEach((p, i) => {
        const details: CardTransactionDetails = {
          event: { id: eventId, type: ORDER_PAID_EVENT_TYPE },
          order: { id: order.id, sourceId: order.sourceId },
          earningRule: { id: p.rule.id, source: { banner: p.rule.banner ?? '' } },
        };
        const after = counters[i] ?? { total: prepared.plan.card.points, balance: prepared.plan.card.balance };
        items.push(putCardTransactionItem(deps, record(card, p.transactionId, 'POINTS_ACCRUAL', pointsOf(p.bucket), details, at, after)));
        items.push(
          orderEarning.putIfAbsent(deps, {
            projectId: order.projectId,
            orderId: order.id,
            voucherId: card.id,
            code: card.code,
            campaignId: p.bucket.campaignId,
            ruleId: p.rule.id,
            banner: p.rule.banner ?? '',
            points: pointsOf(p.bucket),
            bucketId: p.bucket.id,
            transactionId: p.transactionId,
            status: 'EARNED',
            takenBackPoints: null,
            takeBackTransactionId: null,
            createdAt: at,
            updatedAt: at,
          }),
        );
      });
      const outcome = await transact(deps, items);
      if ('failed' in outcome && outcome.failed.includes(0)) return { left: 0, wrote: 0, superseded: true };
      // A lost race (the card changed, or a parallel call earned first): read the entries again.
      if (!outcome.ok) return RETRY;
      return { left: todo.length - batch.length, wrote: batch.length, superseded: false };
    });
    written += step.wrote;
    if (step.superseded) return { entries: written, superseded: true };
    if (step.left === 0) return { entries: written, superseded: false };
  }
}

function record(
  card: Voucher,
  id: string,
  type: CardTransaction['type'],
  points: number,
  details: CardTransactionDetails,
  at: string,
  counters: { total: number; balance: number },
  relatedTransactionId?: string,
): CardTransaction {
  return {
    id,
    projectId: card.projectId,
    campaignId: card.campaignId,
    voucherId: card.id,
    type,
    source: null,
    sourceId: null,
    reason: null,
    points,
    ...counters,
    details,
    ...(relatedTransactionId !== undefined ? { relatedTransactionId } : {}),
    createdAt: at,
  };
}

/** What running an order's loyalty effects did (the sweep reports it; the request replies by it). */
export interface OrderLoyaltyOutcome extends EffectRun {
  /** The effect the order's status calls for: PAID earns, CANCELED takes back, other statuses none. */
  effect: 'earned' | 'taken_back' | 'none';
}

/**
 * The loyalty effects of an order's status: PAID earns by the `order.paid` rules, CANCELED takes
 * back what it earned; other statuses have none. Each is once per order (see both), so running it
 * again (the order loyalty sweep after a request that died past its commit) changes nothing done,
 * and each holds only while the stored order still has that status (`superseded` otherwise).
 */
export async function orderLoyaltyEffects(deps: Deps, order: Order): Promise<OrderLoyaltyOutcome> {
  if (order.status === 'PAID') return { effect: 'earned', ...(await earnFromPaidOrder(deps, order)) };
  if (order.status === 'CANCELED') return { effect: 'taken_back', ...(await takeBackOrderEarning(deps, order)) };
  return { effect: 'none', ...NOTHING };
}

/**
 * Takes back what `order` earned (its cancellation), once however often or concurrently it is
 * called: per card, the entries still EARNED become TAKEN_BACK in the transaction that removes
 * their points (from the order's own buckets first, then the soonest-expiring), each with a
 * POINTS_REMOVAL transaction (no `source`: AUTOMATIC; details: the cancel event, the order, the
 * rule; related to the accrual). Each commit holds only while the stored order is still CANCELED.
 *
 * Points already spent or expired (docs/decisions.md "Take-back of spent points"): the card never
 * goes below zero; the take-back removes what the card still holds, up to what the order gave, and
 * records the rest as the entry's `shortfallPoints` and in its POINTS_REMOVAL's `reason` (written
 * even when it removes 0 points), so the card's history shows what was not recovered.
 * @throws ConflictRetryError when a card stays too busy.
 */
export async function takeBackOrderEarning(deps: Deps, order: Order): Promise<EffectRun> {
  // Pending entries first: one activated meanwhile is EARNED by the time the earned ones are listed.
  const cancelled = await cancelOrderPendingPoints(deps, order);
  if (cancelled.superseded) return cancelled;
  const earned = (await listOrderEarnings(deps, order.projectId, order.id)).filter((e) => e.status === 'EARNED');
  const codes = [...new Set(earned.map((e) => e.code))];
  const eventId = deps.ids.id('evcus');
  let run = cancelled;
  for (const code of codes) {
    run = add(run, await takeBackOnCard(deps, order, code, eventId));
    if (run.superseded) return run;
  }
  return run;
}

/** The `reason` of a take-back that could not remove all an order gave (the shortfall, in words). */
export function shortfallReason(order: Order, earned: number, taken: number): string | null {
  const short = earned - taken;
  if (short <= 0) return null;
  return `Order ${order.sourceId ?? order.id} canceled: it earned ${earned} points, ${taken} taken back, ${short} already spent or expired and not recovered`;
}

async function takeBackOnCard(deps: Deps, order: Order, code: string, eventId: string): Promise<EffectRun> {
  const transactionIds = new Map<string, string>();
  let takenBack = 0;
  for (;;) {
    const step = await retryOnConflict(`Too many concurrent changes to loyalty card ${code}`, async () => {
      const now = deps.clock.now();
      const at = now.toISOString();
      const todo = (await listOrderEarnings(deps, order.projectId, order.id)).filter((e) => e.status === 'EARNED' && e.code === code);
      if (todo.length === 0) return { left: 0, done: 0, superseded: false };
      const batch = todo.slice(0, MAX_EARNINGS_PER_COMMIT);
      const wanted = batch.reduce((s, e) => s + e.points, 0);
      // The card, the order's status check and 2 items per entry (its removal, its mark); the rest may go to buckets.
      const maxBucketWrites = MAX_TRANSACTION_ITEMS - 2 - 2 * batch.length;
      const first = batch.map((e) => e.bucketId);
      let prepared: Awaited<ReturnType<typeof prepareCardChange>>;
      try {
        prepared = await prepareCardChange(deps, order.projectId, code, { kind: 'spend', points: wanted, first }, now, maxBucketWrites);
      } catch (error) {
        if (!(error instanceof NotEnoughPointsError)) throw error;
        const change = error.available > 0 ? ({ kind: 'spend', points: error.available, first } as const) : ({ kind: 'none' } as const);
        prepared = await prepareCardChange(deps, order.projectId, code, change, now, maxBucketWrites);
      }
      if (!prepared) return RETRY;
      const { voucher, plan } = prepared;
      if (batch.some((e) => e.voucherId !== voucher.id)) {
        // The card was deleted (its code re-created since): nothing of the order is on it any more.
        await transact(
          deps,
          batch.map((e) => markTakenBack(deps, e, 0, null, null, at)),
        );
        return RETRY;
      }
      const taken = plan.card.subtractedPoints - (voucher.loyaltyCard?.subtractedPoints ?? 0);
      const shares = takeBackShares(
        batch.map((e) => e.points),
        taken,
      );
      // The card's write goes in even when it gives nothing: it pins the counters the removals report.
      const items: TransactItem[] = [orderStillIs(deps, order, 'CANCELED'), ...prepared.items];
      const records = batch.map((e, i) => {
        const key = e.ruleId + e.voucherId;
        const id = transactionIds.get(key) ?? deps.ids.id('vtx');
        transactionIds.set(key, id);
        return { entry: e, id, points: shares[i] ?? 0 };
      });
      records.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      const counters = runningCounters(
        records.map((r) => -r.points),
        { total: plan.card.points, balance: plan.card.balance },
      );
      records.forEach((r, i) => {
        const details: CardTransactionDetails = {
          event: { id: eventId, type: ORDER_CANCELED_EVENT_TYPE },
          order: { id: order.id, sourceId: order.sourceId },
          earningRule: { id: r.entry.ruleId, source: { banner: r.entry.banner } },
        };
        const after = counters[i] ?? { total: plan.card.points, balance: plan.card.balance };
        const removal = record(voucher, r.id, 'POINTS_REMOVAL', r.points === 0 ? 0 : -r.points, details, at, after, r.entry.transactionId);
        items.push(putCardTransactionItem(deps, { ...removal, reason: shortfallReason(order, r.entry.points, r.points) }));
        items.push(markTakenBack(deps, r.entry, r.points, r.entry.points - r.points, r.id, at));
      });
      const outcome = await transact(deps, items);
      if ('failed' in outcome && outcome.failed.includes(0)) return { left: 0, done: 0, superseded: true };
      if (!outcome.ok) return RETRY;
      return { left: todo.length - batch.length, done: batch.length, superseded: false };
    });
    takenBack += step.done;
    if (step.superseded) return { entries: takenBack, superseded: true };
    if (step.left === 0) return { entries: takenBack, superseded: false };
  }
}

/** The entry's change to TAKEN_BACK, holding only while it is still EARNED (a parallel take-back loses). */
function markTakenBack(
  deps: Pick<Runtime, 'tableName'>,
  e: OrderEarning,
  points: number,
  shortfall: number | null,
  transactionId: string | null,
  at: string,
): TransactItem {
  return {
    Update: {
      TableName: deps.tableName,
      Key: orderEarning.key(e.projectId, e.orderId, e.voucherId, e.ruleId),
      UpdateExpression: 'SET #status = :taken, takenBackPoints = :points, shortfallPoints = :short, takeBackTransactionId = :tx, updatedAt = :at',
      ConditionExpression: '#status = :earned',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':taken': 'TAKEN_BACK', ':earned': 'EARNED', ':points': points, ':short': shortfall, ':tx': transactionId, ':at': at },
    },
  };
}
