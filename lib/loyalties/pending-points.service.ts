import type { Campaign } from '../campaigns/campaign.js';
import { MAX_TRANSACTION_ITEMS, RETRY, retryOnConflict, transact, type TransactItem } from '../db/transact.js';
import type { EarningRule } from '../earning-rules/earning-rule.js';
import { NotFoundError } from '../errors.js';
import type { IdempotencyScope } from '../idempotency/idempotency-scope.js';
import { commitOnce, type Committed, recordedReply } from '../idempotency/idempotency.service.js';
import type { Order } from '../orders/order.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from '../vouchers/voucher.js';
import type { CardTransaction } from './card-transaction.js';
import { putCardTransactionItem } from './card-transaction.repo.js';
import type { ExpirationRules } from './expiration.js';
import { expiryOf } from './expiration.js';
import { findLoyaltyCampaign, findProgramMember, prepareCardChange } from './loyalty.service.js';
import { earningKey, MAX_EARNINGS_PER_COMMIT, ORDER_PAID_EVENT_TYPE, type OrderEarning } from './order-earning.js';
import {
  activationDateOf,
  invalidPendingAmount,
  invalidPendingPointsState,
  type PendingPoints,
  type PendingPointsAction,
  type PendingPointsDetails,
} from './pending-points.js';
import { adjustItem, endItems, getPendingEntry, holdItems, orderEarningItem, orderEarnings, orderStatusIs, pendingEntryPage } from './pending-points.repo.js';
import type { PendingPointsAdjustBody, PendingPointsQuery } from './pending-points.schema.js';
import type { PointsBucket } from './points-bucket.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/** What one run of holding (or cancelling) an order's pending points did; as the order earning's EffectRun. */
export interface PendingRun {
  entries: number;
  superseded: boolean;
}

/**
 * Holds the points of `order.paid` rules with `pending_points` for a card of a paid order: per
 * rule a PENDING entry (activating `period_value` days from now) and the order's earning entry
 * (status PENDING, naming it), with the card's `pending_points` raised, in one transaction per
 * card (at most MAX_EARNINGS_PER_COMMIT rules each), conditioned on the order still being PAID and
 * on the card's revision. Once per (order, card, rule) like every earning: the earning entry's key.
 * @throws ConflictRetryError when the card stays too busy.
 */
export async function holdPendingPoints(
  deps: Deps,
  order: Order,
  card: Voucher,
  held: readonly { rule: EarningRule; points: number }[],
  eventId: string,
  now: Date,
  programRules: ExpirationRules | null | undefined,
): Promise<PendingRun> {
  const at = now.toISOString();
  const planned = held.map((h) => ({ ...h, id: deps.ids.id('lopp'), bucketId: deps.ids.id('lopb'), transactionId: deps.ids.id('vtx') }));
  let written = 0;
  for (;;) {
    const step = await retryOnConflict(`Too many concurrent changes to loyalty card ${card.code}`, async () => {
      const done = new Set((await orderEarnings(deps, order.projectId, order.id)).map((e) => earningKey(e.voucherId, e.ruleId)));
      const todo = planned.filter((p) => !done.has(earningKey(card.id, p.rule.id)));
      if (todo.length === 0) return { left: 0, wrote: 0, superseded: false };
      const batch = todo.slice(0, MAX_EARNINGS_PER_COMMIT);
      const pending = batch.reduce((s, p) => s + p.points, 0);
      const prepared = await prepareCardChange(deps, order.projectId, card.code, { kind: 'none', pending }, now, MAX_TRANSACTION_ITEMS - 2 - 2 * batch.length);
      if (!prepared) return RETRY;
      if (prepared.voucher.id !== card.id) return { left: 0, wrote: 0, superseded: false };
      // Index 0: its failure means the order is no longer PAID.
      const items: TransactItem[] = [orderStatusIs(deps, order.projectId, order.id, 'PAID'), ...prepared.items];
      for (const p of batch) {
        const details: PendingPointsDetails = {
          event: { id: eventId, type: ORDER_PAID_EVENT_TYPE, entityId: order.customerId ?? '', createdAt: at },
          earningRule: { id: p.rule.id, source: { banner: p.rule.banner ?? '' } },
          order: { id: order.id, sourceId: order.sourceId },
        };
        const entry: PendingPoints = {
          id: p.id,
          projectId: order.projectId,
          campaignId: p.rule.campaignId,
          voucherId: card.id,
          code: card.code,
          customerId: order.customerId ?? '',
          orderId: order.id,
          ruleId: p.rule.id,
          points: p.points,
          activatesAt: activationDateOf(now, p.rule.pendingPoints?.periodValue ?? 1),
          status: 'PENDING',
          details,
          expirationRules: p.rule.expirationRules ?? programRules ?? null,
          bucketId: p.bucketId,
          transactionId: p.transactionId,
          createdAt: at,
          updatedAt: at,
        };
        const earning: OrderEarning = {
          projectId: order.projectId,
          orderId: order.id,
          voucherId: card.id,
          code: card.code,
          campaignId: p.rule.campaignId,
          ruleId: p.rule.id,
          banner: p.rule.banner ?? '',
          points: p.points,
          bucketId: p.bucketId,
          transactionId: p.transactionId,
          status: 'PENDING',
          takenBackPoints: null,
          takeBackTransactionId: null,
          pendingPointsId: p.id,
          createdAt: at,
          updatedAt: at,
        };
        items.push(...holdItems(deps, entry, earning));
      }
      const outcome = await transact(deps, items);
      if ('failed' in outcome && outcome.failed.includes(0)) return { left: 0, wrote: 0, superseded: true };
      if (!outcome.ok) return RETRY;
      return { left: todo.length - batch.length, wrote: batch.length, superseded: false };
    });
    written += step.wrote;
    if (step.superseded || step.left === 0) return { entries: written, superseded: step.superseded };
  }
}

/** The card's counters after an activation, as the activate reply and the worker report them. */
export interface Activation {
  voucherId: string;
  points: number;
  total: number;
  balance: number;
}

/** The bucket an activation puts on the card: the entry's points, expiring by its rules counted from the activation. */
function activationBucket(entry: PendingPoints, now: Date): PointsBucket {
  const at = now.toISOString();
  return {
    id: entry.bucketId,
    projectId: entry.projectId,
    campaignId: entry.campaignId,
    voucherId: entry.voucherId,
    voucherCode: entry.code,
    points: entry.points,
    status: 'ACTIVE',
    expiresAt: expiryOf(entry.expirationRules, now),
    createdAt: at,
    updatedAt: at,
  };
}

/** The entry as stored now. @throws NotFoundError (pending_points), or the reference's 400 when it is no longer PENDING. */
async function pendingEntryFor(deps: Deps, projectId: string, voucherId: string, id: string, action: PendingPointsAction): Promise<PendingPoints> {
  const entry = await getPendingEntry(deps, projectId, voucherId, id);
  if (!entry) throw new NotFoundError('pending_points', id);
  if (entry.status !== 'PENDING') throw invalidPendingPointsState(action, entry.status);
  return entry;
}

/**
 * Activates a PENDING entry: one transaction moves it to ACTIVATED (conditioned on it being
 * PENDING with the points read), turns its order earning PENDING → EARNED (so the order's
 * cancellation takes the points back from then on), adds its points to the card in a new bucket
 * (expiring by the entry's rules from today), lowers the card's `pending_points` (conditioned on
 * the card's revision) and records a PENDING_POINTS_ACTIVATION card transaction. Parallel
 * activations of one entry: one commits, the others read it again and are refused.
 * @throws NotFoundError (pending_points, voucher), BadRequestError `invalid_pending_points_state`,
 *   IdempotencyKeyReusedError, ConflictRetryError.
 */
export async function activatePendingEntry(
  deps: Deps,
  ref: { projectId: string; voucherId: string; id: string },
  idempotency: IdempotencyScope | null = null,
  /**
   * The entry as the caller read it already (the worker: the due index, which projects every
   * attribute), used on the first try instead of reading it again: the transaction holds only
   * while the entry is PENDING with these points, and a failed try reads the table.
   */
  read: PendingPoints | null = null,
): Promise<Committed<Activation>> {
  const now = deps.clock.now();
  const at = now.toISOString();
  return retryOnConflict(`Too many concurrent changes to pending points ${ref.id}`, async (attempt) => {
    const entry =
      attempt === 0 && read?.status === 'PENDING' && read.id === ref.id ? read : await pendingEntryFor(deps, ref.projectId, ref.voucherId, ref.id, 'activated');
    const prepared = await prepareCardChange(
      deps,
      entry.projectId,
      entry.code,
      { kind: 'add', buckets: [activationBucket(entry, now)], pending: -entry.points },
      now,
      MAX_TRANSACTION_ITEMS - 6,
    );
    if (!prepared) return RETRY;
    if (prepared.voucher.id !== entry.voucherId) throw new NotFoundError('voucher', entry.code);
    const { card } = prepared.plan;
    const record: CardTransaction = {
      id: entry.transactionId,
      projectId: entry.projectId,
      campaignId: entry.campaignId,
      voucherId: entry.voucherId,
      type: 'PENDING_POINTS_ACTIVATION',
      source: null,
      sourceId: null,
      reason: null,
      points: entry.points,
      total: card.points,
      balance: card.balance,
      details: {
        event: { id: entry.details.event.id, type: entry.details.event.type },
        earningRule: entry.details.earningRule,
        order: entry.details.order,
      },
      createdAt: at,
    };
    const items = [
      ...prepared.items,
      ...endItems(deps, entry, 'ACTIVATED', at),
      orderEarningItem(deps, entry, 'EARNED', entry.points, at),
      putCardTransactionItem(deps, record),
    ];
    const reply: Activation = { voucherId: entry.voucherId, points: entry.points, total: card.points, balance: card.balance };
    const outcome = await commitOnce(deps, idempotency, items, reply, now);
    if (outcome.ok) return { value: outcome.reply, replayed: outcome.replayed };
    return RETRY;
  });
}

/**
 * Cancels a PENDING entry: one transaction moves it to CANCELED (conditioned as an activation
 * is), its order earning PENDING → CANCELED, and lowers the card's `pending_points`; no card
 * transaction (the balance does not change).
 * @throws NotFoundError (pending_points), BadRequestError `invalid_pending_points_state`, ConflictRetryError.
 */
export async function cancelPendingEntry(deps: Deps, ref: { projectId: string; voucherId: string; id: string }): Promise<void> {
  const now = deps.clock.now();
  const at = now.toISOString();
  await retryOnConflict(`Too many concurrent changes to pending points ${ref.id}`, async () => {
    const entry = await pendingEntryFor(deps, ref.projectId, ref.voucherId, ref.id, 'canceled');
    const prepared = await prepareCardChange(deps, entry.projectId, entry.code, { kind: 'none', pending: -entry.points }, now, MAX_TRANSACTION_ITEMS - 4);
    if (!prepared) return RETRY;
    const items = [
      ...(prepared.voucher.id === entry.voucherId ? prepared.items : []),
      ...endItems(deps, entry, 'CANCELED', at),
      orderEarningItem(deps, entry, 'CANCELED', entry.points, at),
    ];
    return (await transact(deps, items)).ok ? true : RETRY;
  });
}

/**
 * Cancels the PENDING entries of a cancelled order (docs/decisions.md "Pending points"): per card,
 * one transaction (at most MAX_EARNINGS_PER_COMMIT entries) that holds only while the order is
 * still CANCELED. Runs before the take-back of the order's EARNED points, so an entry activated
 * meanwhile (its earning now EARNED, this transaction's condition failed) is taken back by it.
 * @throws ConflictRetryError when a card stays too busy.
 */
export async function cancelOrderPendingPoints(deps: Deps, order: Order): Promise<PendingRun> {
  const codes = [...new Set((await orderEarnings(deps, order.projectId, order.id)).filter((e) => e.status === 'PENDING').map((e) => e.code))];
  let entries = 0;
  for (const code of codes) {
    for (;;) {
      const step = await retryOnConflict(`Too many concurrent changes to loyalty card ${code}`, async () => {
        const now = deps.clock.now();
        const at = now.toISOString();
        const todo = (await orderEarnings(deps, order.projectId, order.id)).filter((e) => e.status === 'PENDING' && e.code === code && e.pendingPointsId);
        if (todo.length === 0) return { left: 0, done: 0, superseded: false };
        const batch = todo.slice(0, MAX_EARNINGS_PER_COMMIT);
        const found = await Promise.all(batch.map((e) => getPendingEntry(deps, e.projectId, e.voucherId, e.pendingPointsId ?? '')));
        const live = found.filter((p): p is PendingPoints => p !== null && p.status === 'PENDING');
        // An earning still PENDING whose entry is not: a commit in flight read stale; read again.
        if (live.length !== batch.length) return RETRY;
        const pending = live.reduce((s, p) => s + p.points, 0);
        const prepared = await prepareCardChange(
          deps,
          order.projectId,
          code,
          { kind: 'none', pending: -pending },
          now,
          MAX_TRANSACTION_ITEMS - 1 - 3 * live.length,
        );
        if (!prepared) return RETRY;
        // Index 0: its failure means the order is no longer CANCELED.
        const items: TransactItem[] = [
          orderStatusIs(deps, order.projectId, order.id, 'CANCELED'),
          ...(live.every((p) => p.voucherId === prepared.voucher.id) ? prepared.items : []),
        ];
        for (const p of live) items.push(...endItems(deps, p, 'CANCELED', at), orderEarningItem(deps, p, 'CANCELED', p.points, at));
        const outcome = await transact(deps, items);
        if ('failed' in outcome && outcome.failed.includes(0)) return { left: 0, done: 0, superseded: true };
        if (!outcome.ok) return RETRY;
        return { left: todo.length - batch.length, done: batch.length, superseded: false };
      });
      entries += step.done;
      if (step.superseded) return { entries, superseded: true };
      if (step.left === 0) break;
    }
  }
  return { entries, superseded: false };
}

/** The reply of an adjustment: the change and the card's pending points after it. */
export interface PendingAdjustment {
  voucherId: string;
  points: number;
  total: number;
}

async function memberCard(deps: Deps, projectId: string, memberId: string): Promise<Voucher> {
  return (await findProgramMember(deps, projectId, null, memberId)).member;
}

/**
 * POST /v1/loyalties/members/{memberId}/pending-points/{pendingPointsId}/activate: activates the
 * entry now, whatever its date (see activatePendingEntry).
 * @throws NotFoundError (voucher, pending_points), BadRequestError `invalid_pending_points_state`, ConflictRetryError.
 */
export async function activateMemberPendingPoints(
  deps: Deps,
  projectId: string,
  memberId: string,
  pendingPointsId: string,
  idempotency: IdempotencyScope | null = null,
): Promise<Committed<Activation>> {
  if (idempotency) {
    const first = await recordedReply<Activation>(deps, idempotency, deps.clock.now());
    if (first !== undefined) return { value: first, replayed: true };
  }
  const card = await memberCard(deps, projectId, memberId);
  return activatePendingEntry(deps, { projectId, voucherId: card.id, id: pendingPointsId }, idempotency);
}

/**
 * POST /v1/loyalties/members/{memberId}/pending-points/{pendingPointsId}/cancel.
 * @throws NotFoundError (voucher, pending_points), BadRequestError `invalid_pending_points_state`, ConflictRetryError.
 */
export async function cancelMemberPendingPoints(deps: Deps, projectId: string, memberId: string, pendingPointsId: string): Promise<void> {
  const card = await memberCard(deps, projectId, memberId);
  await cancelPendingEntry(deps, { projectId, voucherId: card.id, id: pendingPointsId });
}

/**
 * POST /v1/loyalties/members/{memberId}/pending-points/{pendingPointsId}/balance: adds `points`
 * (negative: removes) to a PENDING entry, its order earning (so a take-back after activation
 * removes what was activated) and the card's `pending_points`, in one transaction conditioned on
 * the entry's status and points and the card's revision. An entry never goes to 0 or below.
 * @throws NotFoundError (voucher, pending_points), BadRequestError `invalid_pending_points_state`
 *   or `invalid_amount`, IdempotencyKeyReusedError, ConflictRetryError.
 */
export async function adjustMemberPendingPoints(
  deps: Deps,
  projectId: string,
  memberId: string,
  pendingPointsId: string,
  body: PendingPointsAdjustBody,
  idempotency: IdempotencyScope | null = null,
): Promise<Committed<PendingAdjustment>> {
  const now = deps.clock.now();
  const at = now.toISOString();
  if (idempotency) {
    const first = await recordedReply<PendingAdjustment>(deps, idempotency, now);
    if (first !== undefined) return { value: first, replayed: true };
  }
  const card = await memberCard(deps, projectId, memberId);
  return retryOnConflict(`Too many concurrent changes to pending points ${pendingPointsId}`, async () => {
    const entry = await pendingEntryFor(deps, projectId, card.id, pendingPointsId, 'updated');
    const points = entry.points + body.points;
    if (points <= 0) throw invalidPendingAmount();
    const prepared = await prepareCardChange(deps, projectId, entry.code, { kind: 'none', pending: body.points }, now, MAX_TRANSACTION_ITEMS - 4);
    if (!prepared) return RETRY;
    const items = [...prepared.items, adjustItem(deps, entry, points, at), orderEarningItem(deps, entry, 'PENDING', points, at)];
    const reply: PendingAdjustment = { voucherId: entry.voucherId, points: body.points, total: prepared.plan.card.pendingPoints };
    const outcome = await commitOnce(deps, idempotency, items, reply, now);
    if (outcome.ok) return { value: outcome.reply, replayed: outcome.replayed };
    return RETRY;
  });
}

export interface PendingPointsPage {
  entries: PendingPoints[];
  hasMore: boolean;
}

/**
 * GET /v1/loyalties/members/{memberId}/pending-points and GET
 * /v1/loyalties/{campaignId}/members/{memberId}/pending-points: the card's PENDING entries by id.
 * @throws NotFoundError (campaign, voucher).
 */
export async function listMemberPendingPoints(
  deps: Deps,
  projectId: string,
  campaignRef: string | null,
  memberId: string,
  query: PendingPointsQuery,
): Promise<PendingPointsPage> {
  const { member } = await findProgramMember(deps, projectId, campaignRef, memberId);
  return pendingEntryPage(deps, { card: [projectId, member.id] }, query.limit, query.order !== '-id', query.starting_after_id);
}

/**
 * GET /v1/loyalties/{campaignId}/pending-points: the PENDING entries of every card of the program by id (GSI1: a moment behind).
 * @throws NotFoundError (campaign).
 */
export async function listCampaignPendingPoints(deps: Deps, projectId: string, campaignRef: string, query: PendingPointsQuery): Promise<PendingPointsPage> {
  const campaign: Campaign = await findLoyaltyCampaign(deps, projectId, campaignRef);
  return pendingEntryPage(deps, { campaign: [projectId, campaign.id] }, query.limit, query.order !== '-id', query.starting_after_id);
}
