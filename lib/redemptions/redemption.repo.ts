import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import {
  order as orderEntity,
  redemption as redemptionEntity,
  redemptionByCampaign,
  redemptionByProject,
  voucherRedemptionCount,
  voucher as voucherEntity,
  customerRedemptionSummary,
  customerRedemptionCount,
  campaignRedemptionCount,
  campaign as campaignEntity,
  voucherSessionHold,
} from '../db/entities.js';
import type { Item, ItemKeys } from '../db/entity.js';
import { transactionOversize } from '../db/item-size.js';
import { backoff, MAX_CONFLICT_ATTEMPTS, MAX_TRANSACTION_ITEMS, type TransactItem, transact } from '../db/transact.js';
import { tableDesign } from '../db/table.js';
import { ConflictRetryError, InvalidPayloadError, RedemptionRefusedError, type RedemptionRefusalKey } from '../errors.js';
import type { IdempotencyScope } from '../idempotency/idempotency-scope.js';
import { recordReplyItem } from '../idempotency/idempotency.repo.js';
import { recordedReply } from '../idempotency/idempotency.service.js';
import { markLoyaltyDue, type Order, type OrderRedemption } from '../orders/order.js';
import { listEntryPut, newOrderItems } from '../orders/order.repo.js';
import { countAdd } from '../db/counters.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from '../vouchers/voucher.js';
import { pickShard, type Redemption, type RedemptionOrder, transactionBudget, type UseCounter, voucherSnapshot } from './redemption.js';
import { bothBounds, CAMPAIGN_COUNT_SHARDS, type CampaignBound, EXACT_CAMPAIGN_SHARD } from '../validations/redeemable-rules.js';
import { redemptionSummaryDeltas } from '../campaigns/campaign-summary.js';
import { summaryCounterUpdates } from '../campaigns/campaign-summary.repo.js';
import type { PlannedRedeemable, RedemptionPlan } from './redemption-plan.js';
import { creditsLeft, heldBySessions, usesLeft } from './session-lock.js';
import { withSessionHolds } from './session-lock.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock'>;
type Reads = Pick<Runtime, 'ddb' | 'tableName'>;

/** What a committed redemption wrote. */
export interface CommittedRedemption {
  parent: Redemption;
  children: Redemption[];
  order: Order;
}

/** A commit's outcome: written now (with the reply recorded for its key, if any), or the first reply of an earlier request with the same key. */
export type CommitRedemptionOutcome<R> = { replayed: false; value: CommittedRedemption } | { replayed: true; reply: R };

export interface CommitOptions<R> {
  /** The request's `Idempotency-Key` scope and the reply to record with the write (transactional idempotency). */
  idempotency?: { scope: IdempotencyScope; reply: (committed: CommittedRedemption) => R };
  /** The shard picker (tests pin it); random by default. */
  random?: () => number;
}

/** What one item of a transaction stands for, so a failed condition maps back to its meaning. */
type Role =
  | { kind: 'voucher'; index: number }
  | { kind: 'order' }
  | { kind: 'order_source' }
  | { kind: 'other' }
  | { kind: 'idempotency' }
  | { kind: 'counts' };

/** Shared by most items (one object: a smaller bundle). */
const OTHER: Role = { kind: 'other' };

const voucherRef = (r: PlannedRedeemable) => ({ object: r.object, id: r.id });

/** Whether this redeemable's commit writes the voucher item (a limit, gift credits, or a session hold to consume). */
const touchesVoucherItem = (r: PlannedRedeemable, state: Voucher): boolean =>
  state.redemptionQuantity !== null || r.giftCredits > 0 || (r.sessionKey !== null && state.sessions?.[r.sessionKey] !== undefined);

/**
 * The voucher item's Update for one redeemable, from the voucher as last read (`state`): takes a use
 * (limited: `redeemedQuantity + 1`, held to the uses other live sessions leave), the gift credits
 * (held to what other sessions leave of the balance), and removes the request's own session hold.
 * Conditions: the same voucher, active, the same limit, and its sessions unchanged (their holds
 * were counted from `state`).
 */
function voucherUpdate(deps: Deps, r: PlannedRedeemable, state: Voucher, nowMs: number): TransactItem {
  const others = heldBySessions(state.sessions, nowMs, r.sessionKey);
  const sets: string[] = [];
  const removes: string[] = [];
  const conditions = ['id = :vid', 'active = :true'];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':vid': state.id, ':true': true };
  if (state.redemptionQuantity !== null) {
    sets.push('redeemedQuantity = redeemedQuantity + :one');
    conditions.push('redemptionQuantity = :limit', 'redeemedQuantity <= :maxBefore');
    Object.assign(values, { ':one': 1, ':limit': state.redemptionQuantity, ':maxBefore': state.redemptionQuantity - others.uses - 1 });
  } else {
    conditions.push('attribute_type(redemptionQuantity, :nullType)');
    values[':nullType'] = 'NULL';
  }
  if (r.giftCredits > 0) {
    sets.push('gift.balance = gift.balance - :credits', 'gift.subtractedAmount = gift.subtractedAmount + :credits');
    conditions.push('gift.balance >= :need');
    Object.assign(values, { ':credits': r.giftCredits, ':need': r.giftCredits + others.credits });
  }
  if (state.sessionsRevision === undefined) conditions.push('attribute_not_exists(sessionsRevision)');
  else {
    conditions.push('sessionsRevision = :srev');
    values[':srev'] = state.sessionsRevision;
  }
  if (r.sessionKey !== null && state.sessions?.[r.sessionKey] !== undefined) {
    // A hold in its own item is deleted beside this Update (holdDelete); one in the old map is removed here.
    if (state.sessions[r.sessionKey]?.item === undefined) {
      removes.push('sessions.#sk');
      names['#sk'] = r.sessionKey;
    }
    sets.push('sessionsRevision = if_not_exists(sessionsRevision, :zero) + :bump');
    Object.assign(values, { ':zero': 0, ':bump': 1 });
  }
  return {
    Update: {
      TableName: deps.tableName,
      Key: voucherEntity.key(state.projectId, state.code),
      UpdateExpression: [sets.length > 0 ? `SET ${sets.join(', ')}` : '', removes.length > 0 ? `REMOVE ${removes.join(', ')}` : ''].join(' ').trim(),
      ConditionExpression: conditions.join(' AND '),
      ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: values,
    },
  };
}

/** The Delete of the request's own session hold item, when its hold lives in one (consumed by the redemption). */
const holdDelete = (deps: Reads, r: PlannedRedeemable, state: Voucher): TransactItem | null =>
  r.sessionKey !== null && state.sessions?.[r.sessionKey]?.item
    ? { Delete: { TableName: deps.tableName, Key: voucherSessionHold.key(state.projectId, state.id, r.sessionKey) } }
    : null;

/** A count shard's ADD (`delta` +1 for a use, −1 for a use given back). */
export const shardAdd = (deps: Reads, projectId: string, voucherId: string, shard: number, delta: number): TransactItem =>
  countAdd(deps, voucherRedemptionCount, voucherRedemptionCount.key(projectId, voucherId, shard), delta);

/** What a redemption or rollback adds to its customer's counters (negative amounts take back). */
export interface SummaryDelta {
  redeemed?: number;
  succeeded?: number;
  rolledBack?: number;
  rollbackSucceeded?: number;
  giftRedeemedAmount?: number;
}

/** ADDs `delta` to a customer's redemption totals (the item is made by the first ADD): bounded, no condition. */
export const customerSummaryAdd = (deps: Reads, projectId: string, customerId: string, delta: SummaryDelta): TransactItem => {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':entity': customerRedemptionSummary.name, ':v': customerRedemptionSummary.version };
  const adds = Object.entries(delta).map(([field, n], i) => {
    names[`#c${i}`] = field;
    values[`:c${i}`] = n;
    return `#c${i} :c${i}`;
  });
  return {
    Update: {
      TableName: deps.tableName,
      Key: customerRedemptionSummary.key(projectId, customerId),
      UpdateExpression: `SET entity = :entity, v = :v ADD ${adds.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
};

/**
 * ADDs to a customer's count of each object (`counts`: object id → ±n), one item per object
 * (customerRedemptionCount), each on condition that it holds what a rule compared (`expected`,
 * the item's own part: a summary's old `n:<id>` base is never written again).
 */
export const customerCountAdds = (
  deps: Reads,
  projectId: string,
  customerId: string,
  counts: Readonly<Record<string, number>>,
  expected: Readonly<Record<string, number>> = {},
): TransactItem[] =>
  Object.entries(counts).map(([objectId, n]) => {
    const item = countAdd(deps, customerRedemptionCount, customerRedemptionCount.key(projectId, customerId, objectId), n);
    const e = expected[objectId];
    if (e === undefined) return item;
    const update = item.Update as NonNullable<TransactItem['Update']>;
    return {
      Update: {
        ...update,
        ConditionExpression: e === 0 ? '(attribute_not_exists(#count) OR #count = :e)' : '#count = :e',
        ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':e': e },
      },
    };
  });

/** A campaign count shard's ADD (+1 for a redemption, −1 for a rollback). */
export const campaignShardAdd = (deps: Reads, projectId: string, campaignId: string, shard: number, delta: number): TransactItem =>
  countAdd(deps, campaignRedemptionCount, campaignRedemptionCount.key(projectId, campaignId, shard), delta);

export const campaignShard = (random: () => number): number => Math.min(CAMPAIGN_COUNT_SHARDS - 1, Math.floor(random() * CAMPAIGN_COUNT_SHARDS));

/**
 * The ADD of 1 to a campaign's exact count shard, on condition that the shard holds, before it, a
 * count within `bound` (a missing shard holds 0): the rules that bounded the campaign's count still
 * pass at commit, whatever other redemptions committed meanwhile. Exact because every redemption
 * those rules apply to writes this one item; a failed condition means: evaluate again.
 */
export function boundedCampaignAdd(deps: Pick<Runtime, 'tableName'>, projectId: string, bound: CampaignBound): TransactItem {
  const item = countAdd(deps, campaignRedemptionCount, campaignRedemptionCount.key(projectId, bound.campaignId, EXACT_CAMPAIGN_SHARD), 1);
  const update = item.Update as NonNullable<TransactItem['Update']>;
  const conditions: string[] = [];
  const values: Record<string, unknown> = {};
  // A shard not written yet holds 0: it satisfies a side of the bound that 0 satisfies.
  const side = (op: '<=' | '>=', n: number, name: string, zeroIn: boolean) => {
    values[name] = n;
    conditions.push(zeroIn ? `(attribute_not_exists(#count) OR #count ${op} ${name})` : `#count ${op} ${name}`);
  };
  if (bound.max !== null) side('<=', bound.max, ':max', bound.max >= 0);
  if (bound.min !== null) side('>=', bound.min, ':min', bound.min <= 0);
  return {
    Update: {
      ...update,
      ...(conditions.length > 0 ? { ConditionExpression: conditions.join(' AND ') } : {}),
      ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ...values },
    },
  };
}

/** Each campaign's bound, from the planned redeemables' (a campaign two of them share holds both). */
function campaignBounds(plan: RedemptionPlan): Map<string, CampaignBound> {
  const bounds = new Map<string, CampaignBound>();
  for (const r of plan.redeemables) {
    const b = r.campaignBound;
    if (!b) continue;
    const seen = bounds.get(b.campaignId);
    bounds.set(b.campaignId, seen ? bothBounds(seen, b) : b);
  }
  return bounds;
}

/** The counts a redemption (`sign` +1) or rollback (−1) of these redeemables moves: each one's own, and its campaign's (a standalone voucher has only its own). */
export function countsOf(redeemables: readonly { objectId: string | null; campaignId: string | null }[], sign: number): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of redeemables) {
    for (const id of new Set([r.objectId, r.campaignId])) if (id !== null) counts[id] = (counts[id] ?? 0) + sign;
  }
  return counts;
}

/** The count items' values the plan's rules compared (less an old summary's base), which the commit holds unchanged. */
function expectedOf(plan: RedemptionPlan): Record<string, number> {
  const expected: Record<string, number> = {};
  for (const r of plan.redeemables) {
    const c = r.countedAs;
    if (!c) continue;
    expected[c.objectId] = c.own - (c.base?.own ?? 0);
    if (c.campaignId !== null) expected[c.campaignId] = c.inCampaign - (c.base?.inCampaign ?? 0);
  }
  return expected;
}

/**
 * The customer's redemption counts moved between the validation that compared them with a rule and
 * the commit, or a redeemable's campaign was deleted or disabled meanwhile: nothing was written;
 * evaluate the request again (its rules then see the new counts, or it finds the campaign gone).
 */
export class CountsMovedError extends Error {
  override readonly name = 'CountsMovedError';
}

/**
 * Why a voucher's condition failed, from the voucher read again: null when it still has room (its
 * sessions or limit moved: plan the write again from `fresh`).
 */
function refusalOf(r: PlannedRedeemable, fresh: Voucher | null, nowMs: number): RedemptionRefusalKey | null {
  if (!fresh || fresh.id !== r.voucher?.id) return 'resource_not_found';
  if (!fresh.active) return 'voucher_disabled';
  const left = usesLeft(fresh, nowMs, r.sessionKey);
  if (left !== null && left < 1) return 'quantity_exceeded';
  if (r.giftCredits > 0 && (!fresh.gift || creditsLeft(fresh.gift.balance, fresh.sessions, nowMs, r.sessionKey) < r.giftCredits)) return 'gift_amount_exceeded';
  return null;
}

const orderRedemptionEntry = (plan: RedemptionPlan): OrderRedemption => ({
  date: plan.date,
  relatedObjectType: 'redemption',
  relatedObjectId: plan.parentRedemptionId,
  stacked: plan.redeemables.map((r) => r.redemptionId),
  rollbackId: null,
  rollbackDate: null,
});

/** The order as the redemption writes it: the stored one (`stored`) or a new one, with the final figures and this redemption in its map. */
function orderOf(plan: RedemptionPlan, stored: Order | null): Order {
  const o = plan.order;
  const base = {
    status: o.status,
    amount: o.calculation.amount,
    items: o.items,
    metadata: o.metadata,
    customerId: o.customerId,
    referrerId: o.referrerId,
    calculation: o.calculation,
  };
  // A redemption that makes its order PAID marks the earning it runs after the commit as due (lib/orders/order.ts).
  if (stored) {
    return markLoyaltyDue(
      stored,
      {
        ...stored,
        ...base,
        updatedAt: plan.date,
        revision: stored.revision + 1,
        redemptions: { ...stored.redemptions, [plan.parentRedemptionId]: orderRedemptionEntry(plan) },
      },
      plan.date,
    );
  }
  return markLoyaltyDue(
    null,
    {
      id: o.id,
      projectId: plan.projectId,
      sourceId: o.sourceId,
      ...base,
      createdAt: plan.date,
      updatedAt: null,
      revision: 0,
      redemptions: { [plan.parentRedemptionId]: orderRedemptionEntry(plan) },
    },
    plan.date,
  );
}

const redemptionOrderOf = (order: Order, calculation = order.calculation): RedemptionOrder | null =>
  calculation
    ? {
        id: order.id,
        sourceId: order.sourceId,
        status: order.status,
        metadata: order.metadata,
        customerId: order.customerId,
        referrerId: order.referrerId,
        calculation,
      }
    : null;

function childOf(plan: RedemptionPlan, r: PlannedRedeemable, order: Order, counter: UseCounter): Redemption {
  return {
    id: r.redemptionId,
    projectId: plan.projectId,
    object: 'redemption',
    date: plan.date,
    customerId: plan.customer?.id ?? null,
    customerSourceId: plan.customer?.sourceId ?? null,
    trackingId: plan.trackingId,
    metadata: plan.metadata,
    amount: r.giftCredits > 0 ? r.giftCredits : r.step.appliedAmount,
    redemption: plan.parentRedemptionId,
    result: 'SUCCESS',
    status: 'SUCCEEDED',
    relatedObjectType: r.object,
    relatedObjectId: r.object === 'voucher' && r.voucher ? r.voucher.id : r.id,
    voucher: r.voucher ? voucherSnapshot(r.voucher) : null,
    promotionTierId: r.object === 'promotion_tier' ? r.id : null,
    campaignId: r.campaignId,
    campaignName: r.campaignName,
    giftCredits: r.giftCredits,
    loyaltyPoints: r.loyaltyPoints,
    counter,
    order: redemptionOrderOf(order, r.step.order),
    childIds: [],
    rollbackId: null,
    reason: null,
    sessionKey: r.sessionKey,
  };
}

function parentOf(plan: RedemptionPlan, children: Redemption[], order: Order): Redemption {
  return {
    ...children[0],
    id: plan.parentRedemptionId,
    projectId: plan.projectId,
    object: 'redemption',
    date: plan.date,
    customerId: plan.customer?.id ?? null,
    customerSourceId: plan.customer?.sourceId ?? null,
    trackingId: plan.trackingId,
    metadata: plan.metadata,
    amount: children.reduce((sum, c) => sum + c.amount, 0),
    redemption: null,
    result: 'SUCCESS',
    status: 'SUCCEEDED',
    relatedObjectType: 'redemption',
    relatedObjectId: plan.parentRedemptionId,
    voucher: null,
    promotionTierId: null,
    campaignId: null,
    campaignName: null,
    giftCredits: children.reduce((sum, c) => sum + c.giftCredits, 0),
    loyaltyPoints: children.reduce((sum, c) => sum + c.loyaltyPoints, 0),
    counter: { kind: 'none' },
    order: redemptionOrderOf(order),
    childIds: children.map((c) => c.id),
    rollbackId: null,
    reason: null,
    sessionKey: null,
  };
}

/** Refuses a plan that one transaction cannot hold, or that names one voucher twice (a transaction writes an item once). */
function checkPlan(plan: RedemptionPlan, withIdempotency: boolean): void {
  if (plan.redeemables.length === 0) throw new InvalidPayloadError('A redemption needs at least one applicable redeemable');
  const budget = transactionBudget(plan, withIdempotency);
  if (budget > MAX_TRANSACTION_ITEMS)
    throw new InvalidPayloadError(`This redemption needs ${budget} writes; one transaction holds ${MAX_TRANSACTION_ITEMS}: send fewer redeemables`);
  const seen = new Set<string>();
  for (const r of plan.redeemables) {
    const key = `${r.object}#${r.id}`;
    if (seen.has(key)) throw new InvalidPayloadError(`The ${r.object} ${r.id} is named twice: a redemption consumes each redeemable once`);
    seen.add(key);
    if (r.object === 'voucher' && !r.voucher) throw new InvalidPayloadError(`The voucher ${r.id} has no voucher read`);
  }
}

/**
 * Commits a redemption plan in ONE TransactWriteItems (docs/architecture.md "The redemption write"):
 * consumes each planned redeemable (a limited voucher's exact counter, held to the uses left; a
 * limitless one's random count shard; gift credits, held to the balance; the request's LOCK session
 * hold instead of a free use), puts the parent and the children, puts the order (a new one on
 * `attribute_not_exists`, a stored one on the revision the plan read) with its figures and its
 * `redemptions` entry, and, with `options.idempotency`, the key's record of the reply; it holds only
 * while each redeemable's campaign exists and is active (a ConditionCheck, no write). All or nothing.
 * A voucher whose sessions or limit moved meanwhile but still has room is written again from a fresh
 * read; a lost transaction race is retried.
 * @throws RedemptionRefusedError (quantity_exceeded, gift_amount_exceeded, voucher_disabled,
 *   resource_not_found, order_changed) naming the redeemable that lost; InvalidPayloadError for a plan
 *   one transaction cannot hold; IdempotencyKeyReusedError; ConflictRetryError.
 */
export async function commitRedemption<R = never>(deps: Deps, plan: RedemptionPlan, options: CommitOptions<R> = {}): Promise<CommitRedemptionOutcome<R>> {
  const idem = options.idempotency;
  checkPlan(plan, idem !== undefined);
  const states = new Map<number, Voucher>();
  plan.redeemables.forEach((r, i) => {
    if (r.voucher) states.set(i, r.voucher);
  });
  const nowMs = deps.clock.now().getTime();
  for (let attempt = 0; attempt < MAX_CONFLICT_ATTEMPTS; attempt += 1) {
    if (attempt > 0) await backoff(attempt);
    let stored: Order | null = null;
    if (plan.order.expectedRevision !== null) {
      stored = await orderEntity.get(deps, orderEntity.key(plan.projectId, plan.order.id));
      if (!stored || stored.revision !== plan.order.expectedRevision) throw new RedemptionRefusedError('order_changed', { object: 'order', id: plan.order.id });
    }
    const order = orderOf(plan, stored);
    const items: TransactItem[] = [];
    const roles: Role[] = [];
    const add = (item: TransactItem, role: Role) => {
      items.push(item);
      roles.push(role);
    };
    const children: Redemption[] = [];
    const bounds = campaignBounds(plan);
    plan.redeemables.forEach((r, index) => {
      const state = states.get(index);
      let counter: UseCounter = { kind: 'none' };
      if (r.object === 'voucher' && state) {
        if (touchesVoucherItem(r, state)) add(voucherUpdate(deps, r, state, nowMs), { kind: 'voucher', index });
        const own = holdDelete(deps, r, state);
        if (own) add(own, OTHER);
        if (state.redemptionQuantity === null) {
          counter = { kind: 'shard', shard: pickShard(options.random) };
          add(shardAdd(deps, plan.projectId, state.id, counter.shard, 1), OTHER);
        } else counter = { kind: 'limit' };
      }
      const child = childOf(plan, r, order, counter);
      if (r.campaignId !== null && bounds.has(r.campaignId)) child.campaignCounter = 'exact';
      children.push(child);
      add(redemptionEntity.putIfAbsent(deps, child), OTHER);
    });
    const parent = parentOf(plan, children, order);
    add(redemptionEntity.putIfAbsent(deps, parent), OTHER);
    if (plan.customer) {
      const credits = plan.redeemables.reduce((sum, r) => sum + r.giftCredits, 0);
      const n = children.length;
      add(customerSummaryAdd(deps, plan.projectId, plan.customer.id, { redeemed: n, succeeded: n, giftRedeemedAmount: credits }), OTHER);
      const counts = countsOf(
        plan.redeemables.map((r) => ({ objectId: r.voucher?.id ?? (r.object === 'promotion_tier' ? r.id : null), campaignId: r.campaignId })),
        1,
      );
      for (const item of customerCountAdds(deps, plan.projectId, plan.customer.id, counts, expectedOf(plan))) add(item, { kind: 'counts' });
    }
    const summaries = redemptionSummaryDeltas(
      'redemption',
      plan.redeemables.map((r) => ({
        campaignId: r.campaignId,
        giftCredits: r.giftCredits,
        loyaltyPoints: r.loyaltyPoints,
        discount: r.step.appliedAmount,
        orderAmount: plan.order.calculation.amount,
      })),
    );
    for (const [campaignId, delta] of summaries) {
      // The campaign must still exist and be active when this commits (docs/decisions.md "Changing and deleting campaigns"): a
      // condition, not a write, so a hot campaign item sees no contention. When it fails, the request is evaluated again
      // (as for moved counts), which answers as a validation does: resource_not_found, or campaign_not_active.
      add(
        {
          ConditionCheck: {
            TableName: deps.tableName,
            Key: campaignEntity.key(plan.projectId, campaignId),
            ConditionExpression: 'active = :t',
            ExpressionAttributeValues: { ':t': true },
          },
        },
        { kind: 'counts' },
      );
      // A campaign whose count a rule bounds counts on its exact shard, conditioned (a lost bound: evaluate again, as for
      // moved counts, and the rule then refuses); one no rule bounds keeps a random shard, so a hot campaign does not serialise.
      const bound = bounds.get(campaignId);
      if (bound) add(boundedCampaignAdd(deps, plan.projectId, bound), { kind: 'counts' });
      else add(campaignShardAdd(deps, plan.projectId, campaignId, campaignShard(options.random ?? Math.random), 1), OTHER);
      // The campaign's summary figures (get-campaign-summary), counted in the redemption itself (docs/decisions.md "Campaign summary counters").
      for (const item of summaryCounterUpdates(deps, plan.projectId, campaignId, plan.date, delta, options.random)) add(item, OTHER);
    }
    if (stored) {
      add(
        {
          Put: {
            TableName: deps.tableName,
            Item: orderEntity.toItem(order),
            ConditionExpression: 'revision = :rev',
            ExpressionAttributeValues: { ':rev': stored.revision },
          },
        },
        { kind: 'order' },
      );
      add(listEntryPut(deps, order), OTHER);
    } else {
      // In newOrderItems' order: the source id claim (when there is one), the order, its list entry, its count shard.
      const roles: Role[] = [...(order.sourceId !== null ? [{ kind: 'order_source' } as const] : []), { kind: 'order' }, OTHER, OTHER];
      for (const [i, item] of newOrderItems(deps, order).entries()) add(item, roles[i] ?? OTHER);
    }
    const value: CommittedRedemption = { parent, children, order };
    if (idem) add(recordReplyItem(deps, idem.scope, idem.reply(value), deps.clock.now()), { kind: 'idempotency' });

    // Each redemption keeps the order's figures per line, so a large order times many redeemables can outgrow DynamoDB.
    const oversize = transactionOversize(items);
    if (oversize) throw new InvalidPayloadError(`This redemption cannot be stored: ${oversize}; send fewer redeemables or a smaller order`);
    const outcome = await transact(deps, items);
    if (outcome.ok) return { replayed: false, value };
    if (!('failed' in outcome)) continue;
    const failedRoles = outcome.failed.map((i) => roles[i] as Role);
    if (idem && failedRoles.some((role) => role.kind === 'idempotency')) {
      const first = await recordedReply<R>(deps, idem.scope, deps.clock.now());
      if (first !== undefined) return { replayed: true, reply: first };
      continue;
    }
    // The first redeemable in stacking order that lost decides the error; one that still has room is planned again.
    let replan = false;
    for (const role of failedRoles.filter((x): x is { kind: 'voucher'; index: number } => x.kind === 'voucher').sort((a, b) => a.index - b.index)) {
      const r = plan.redeemables[role.index] as PlannedRedeemable;
      const read = await voucherEntity.get(deps, voucherEntity.key(plan.projectId, (states.get(role.index) as Voucher).code));
      const fresh = read && (await withSessionHolds(deps, read, nowMs));
      const refusal = refusalOf(r, fresh, nowMs);
      if (refusal) throw new RedemptionRefusedError(refusal, voucherRef(r));
      states.set(role.index, fresh as Voucher);
      replan = true;
    }
    if (failedRoles.some((role) => role.kind === 'order' || role.kind === 'order_source'))
      throw new RedemptionRefusedError('order_changed', { object: 'order', id: plan.order.sourceId ?? plan.order.id });
    if (!replan && failedRoles.some((role) => role.kind === 'counts'))
      throw new CountsMovedError(`The counts of customer ${plan.customer?.id} or of a campaign a rule bounds moved`);
    if (!replan) throw new Error(`Redemption ${plan.parentRedemptionId} could not be written: a redemption id is already taken`);
  }
  throw new ConflictRetryError(`Too many concurrent redemptions of ${plan.redeemables.map((r) => r.id).join(', ')}`);
}

/** A redemption or rollback by id (strongly consistent); null if none. */
export const getRedemption = (deps: Reads, projectId: string, id: string): Promise<Redemption | null> =>
  redemptionEntity.get(deps, redemptionEntity.key(projectId, id));

/** Redemptions by id (≤ 100), in the order of `ids`; missing ones left out. */
export async function getRedemptions(deps: Reads, projectId: string, ids: string[]): Promise<Redemption[]> {
  if (ids.length === 0) return [];
  const found = await redemptionEntity.getMany(
    deps,
    ids.map((id) => redemptionEntity.key(projectId, id)),
    `Too many concurrent reads of redemptions of project ${projectId}`,
  );
  const byId = new Map(found.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** A limitless voucher's uses: the sum of its count shards (one Query of at most 32 small items, strongly consistent). */
export async function shardedUses(deps: Reads, projectId: string, voucherId: string): Promise<number> {
  const shards = await voucherRedemptionCount.query(deps, { key: [projectId, voucherId] }, { consistent: true });
  return shards.reduce((sum, s) => sum + s.count, 0);
}

/**
 * Where one list of redemptions is read: a voucher's or a tier's (GSI1), a customer's (GSI2), the project's (GSI3,
 * keys only) or a campaign's (GSI4, keys only).
 */
export type RedemptionPartition = { related: string } | { customer: string } | { project: true } | { campaign: string };

export interface RedemptionListRead {
  partition: RedemptionPartition;
  /** Inclusive bounds on the date (ISO). */
  from?: string;
  to?: string;
  /** Newest first unless true. */
  ascending?: boolean;
  /** Kept only when true (applied after the read). */
  keep?: (r: Redemption) => boolean;
}

/** Sort key bounds on `date#id` that take in every id of the dates `from`…`to`. */
function sortRange(from?: string, to?: string): { from?: string; to?: string } | undefined {
  if (from === undefined && to === undefined) return undefined;
  return { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to: `${to}#\uffff` } : {}) };
}

/**
 * Pages through one list of redemptions in date order, `want` at most, plus whether more match:
 * reads the partition page by page (keys then items for the project's keys-only index) and keeps
 * what `keep` accepts, reading no further than `want` + 1 matches or `maxScanned` entries.
 */
export async function readRedemptions(
  deps: Reads,
  projectId: string,
  read: RedemptionListRead,
  want: number,
  maxScanned: number,
): Promise<{ redemptions: Redemption[]; hasMore: boolean; scanned: number; exhausted: boolean }> {
  const range = sortRange(read.from, read.to);
  // Pages never pass the bound: `maxScanned` is the most entries read, not a point to stop after.
  const options = { ascending: read.ascending ?? false, pageSize: Math.min(100, maxScanned), ...(range ? { sortRange: range } : {}) };
  const p = read.partition;
  const out: Redemption[] = [];
  let scanned = 0;
  const accept = (page: Redemption[]): boolean => {
    for (const r of page) {
      if (!read.keep || read.keep(r)) out.push(r);
      if (out.length > want) return true;
    }
    return false;
  };
  if ('project' in p || 'campaign' in p) {
    const index = 'project' in p ? tableDesign.indexes.gsi3 : tableDesign.indexes.gsi4;
    const partition = 'project' in p ? redemptionByProject.partition(projectId) : redemptionByCampaign.partition(projectId, p.campaign);
    let start: Record<string, unknown> | undefined;
    do {
      const values: Record<string, unknown> = { ':pk': partition };
      let cond = `${index.partitionKey} = :pk`;
      if (range?.from !== undefined && range.to !== undefined) {
        cond += ` AND ${index.sortKey} BETWEEN :from AND :to`;
        Object.assign(values, { ':from': range.from, ':to': range.to });
      } else if (range?.from !== undefined) {
        cond += ` AND ${index.sortKey} >= :from`;
        values[':from'] = range.from;
      } else if (range?.to !== undefined) {
        cond += ` AND ${index.sortKey} <= :to`;
        values[':to'] = range.to;
      }
      const res = await deps.ddb.send(
        new QueryCommand({
          TableName: deps.tableName,
          IndexName: index.name,
          KeyConditionExpression: cond,
          ExpressionAttributeValues: values,
          ScanIndexForward: options.ascending,
          Limit: Math.min(100, maxScanned - scanned, Math.max(1, want + 1 - out.length + (read.keep ? 50 : 0))),
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      const ids = (res.Items ?? []).map((k) => String(k[tableDesign.partitionKey]).split('#REDEMPTION#')[1] as string);
      scanned += ids.length;
      if (accept(await getRedemptions(deps, projectId, ids))) return { redemptions: out.slice(0, want), hasMore: true, scanned, exhausted: false };
      start = res.LastEvaluatedKey;
    } while (start && scanned < maxScanned);
    return { redemptions: out.slice(0, want), hasMore: out.length > want, scanned, exhausted: start === undefined };
  }
  const pages =
    'related' in p
      ? redemptionEntity.queryPages(deps, { index: [projectId, p.related] }, options)
      : redemptionEntity.queryPages(deps, { sparse: [projectId, p.customer] }, options);
  for await (const page of pages) {
    scanned += page.length;
    if (accept(page)) return { redemptions: out.slice(0, want), hasMore: true, scanned, exhausted: false };
    if (scanned >= maxScanned) return { redemptions: out, hasMore: false, scanned, exhausted: false };
  }
  return { redemptions: out, hasMore: false, scanned, exhausted: true };
}

/** Every redemption and rollback of a voucher (by voucher id), newest first. */
export const voucherRedemptionEntries = (deps: Reads, projectId: string, voucherId: string): Promise<Redemption[]> =>
  redemptionEntity.query(deps, { index: [projectId, voucherId] }, { ascending: false });

/** The entries of one GSI1 partition's keys, page by page (for removal). */
async function* relatedKeys(deps: Reads, projectId: string, relatedId: string): AsyncGenerator<ItemKeys[]> {
  for await (const page of redemptionEntity.queryPages(deps, { index: [projectId, relatedId] }, { pageSize: 100 })) {
    yield page.map((r) => redemptionEntity.key(r.projectId, r.id));
  }
}

/** At most this many redemptions are removed inline with a voucher (docs/decisions.md "Deleting a voucher's redemptions"). */
export const MAX_INLINE_REDEMPTION_DELETES = 5_000;

/**
 * Removes a voucher's redemptions and rollback records and its count shards (a forced delete),
 * 25 per BatchWriteItem, at most MAX_INLINE_REDEMPTION_DELETES records.
 * @returns how many redemption records were removed.
 */
export async function removeVoucherRedemptions(deps: Reads, projectId: string, voucherId: string): Promise<number> {
  let removed = 0;
  const del = async (keys: ItemKeys[]) => {
    for (let i = 0; i < keys.length; i += 25) {
      let pending: Item[] = keys.slice(i, i + 25).map((k) => ({ DeleteRequest: { Key: { PK: k.PK, SK: k.SK } } }));
      for (let attempt = 0; pending.length > 0; attempt += 1) {
        if (attempt > 0) await backoff(attempt);
        const res = await deps.ddb.send(new BatchWriteCommand({ RequestItems: { [deps.tableName]: pending as never } }));
        pending = (res.UnprocessedItems?.[deps.tableName] ?? []) as Item[];
      }
    }
  };
  for await (const keys of relatedKeys(deps, projectId, voucherId)) {
    await del(keys);
    removed += keys.length;
    if (removed >= MAX_INLINE_REDEMPTION_DELETES) break;
  }
  const shards = await deps.ddb.send(
    new QueryCommand({
      TableName: deps.tableName,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': voucherRedemptionCount.key.partition(projectId, voucherId) },
      ProjectionExpression: 'PK, SK',
      ConsistentRead: true,
    }),
  );
  await del((shards.Items ?? []) as ItemKeys[]);
  return removed;
}
