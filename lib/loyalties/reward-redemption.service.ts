import type { Campaign } from '../campaigns/campaign.js';
import { loadCampaign } from '../campaigns/campaign.service.js';
import { getCustomer } from '../customers/customer.repo.js';
import { campaign as campaignEntity, redemption as redemptionEntity } from '../db/entities.js';
import { RETRY, retryOnConflict, type TransactItem, transact } from '../db/transact.js';
import { BadRequestError, InvalidPayloadError, NotEnoughPointsError, NotFoundError, RedemptionRefusedError, RewardOutOfStockError } from '../errors.js';
import type { IdempotencyScope } from '../idempotency/idempotency-scope.js';
import { commitOnce, type Committed, recordedReply } from '../idempotency/idempotency.service.js';
import { publishUnderSourceId } from '../publications/publication.service.js';
import type { Order, OrderRedemption } from '../orders/order.js';
import { itemsAmount, orderItemOf } from '../orders/order-lines.js';
import { calculate, type OrderCalculation } from '../redemptions/calculator.js';
import type { Redemption, RedemptionOrder } from '../redemptions/redemption.js';
import { newOrderItems } from '../orders/order.repo.js';
import { customerSummaryAdd } from '../redemptions/redemption.repo.js';
import { rollbackRedemption } from '../redemptions/redemption.service.js';
import type { CampaignRewardParameters, Reward, RewardAssignment } from '../rewards/reward.js';
import { getReward, getRewardAssignmentOfPair } from '../rewards/reward.repo.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from '../vouchers/voucher.js';
import { getHeldVoucher } from '../vouchers/voucher-holder.repo.js';
import { creditGiftItem, getVoucherByCode, getVoucherCodeById } from '../vouchers/voucher.repo.js';
import type { CardTransaction } from './card-transaction.js';
import { putCardTransactionItem } from './card-transaction.repo.js';
import { expiryOf } from './expiration.js';
import { listCardBuckets } from './loyalty-card.repo.js';
import { findLoyaltyCampaign, MAX_BUCKET_WRITES, prepareCardChange } from './loyalty.service.js';
import { newBucket } from './points-bucket.js';
import { coinPayment, outOfStock, type RewardGiven, rewardPrice, spentPointsOf } from './reward-redemption.js';
import { assignmentStillThereItem, campaignRewardAssignments, getRewards, programStillActiveItem, takeStockItem } from './reward-redemption.repo.js';
import type { MemberRewardsQuery, RedeemRewardBody } from './reward-redemption.schema.js';
import { tierRewardPrice } from './tier.js';
import { cardTier } from './tier-period.js';
import { programTiers } from './tier.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/** What an Idempotency-Key records of a reward redemption: its id (a replay reads the redemption as it is now). */
interface RecordedRewardRedemption {
  redemptionId: string;
}

/** A voucher by code, or by id (`v_…`) when no code matches: one consistent GetItem (two for an id). */
async function cardByCodeOrId(deps: Deps, projectId: string, memberId: string): Promise<Voucher | null> {
  const byCode = await getVoucherByCode(deps, projectId, memberId);
  if (byCode) return byCode;
  const code = await getVoucherCodeById(deps, projectId, memberId);
  return code === null ? null : getVoucherByCode(deps, projectId, code);
}

/**
 * The loyalty card a member id names (code or id), of the program `campaignRef` when given.
 * @throws NotFoundError (campaign, voucher).
 */
async function findCard(deps: Deps, projectId: string, campaignRef: string | null, memberId: string): Promise<{ card: Voucher; campaign: Campaign | null }> {
  const [campaign, card] = await Promise.all([
    campaignRef === null ? Promise.resolve(null) : findLoyaltyCampaign(deps, projectId, campaignRef),
    cardByCodeOrId(deps, projectId, memberId),
  ]);
  if (!card?.loyaltyCard || card.campaignId === null) throw new NotFoundError('voucher', memberId);
  if (campaign && campaign.id !== card.campaignId) throw new NotFoundError('voucher', memberId);
  return { card, campaign };
}

const pointsExceeded = (code: string, wanted: number, available: number): BadRequestError =>
  new BadRequestError(
    'loyalty_card_points_exceeded',
    'loyalty card points exceeded',
    `Loyalty card ${code} has ${available} points; the reward costs ${wanted}`,
  );

/** A pay-with-points reward's order: new, with the points' worth taken off its total. */
interface CoinOrder {
  points: number;
  order: Order & { calculation: OrderCalculation };
}

/**
 * The order a COIN reward pays part of: a new order from the request's lines and amount, the points
 * (at most `reward.points`, else at most the card's balance; only as many as the discount needs)
 * taken off as credits are.
 * @throws BadRequestError `missing_order`, `invalid_amount` (an order of 0), `loyalty_card_points_exceeded` (no points to pay with);
 *   InvalidPayloadError for an order named by id (a stored order is not paid here) or inconsistent lines.
 */
function coinOrder(
  deps: Deps,
  projectId: string,
  card: Voucher,
  coin: { exchangeRatio: number; pointsRatio: number },
  body: RedeemRewardBody,
  customerId: string | null,
  now: Date,
): CoinOrder {
  const sent = body.order;
  if (sent === undefined) throw new BadRequestError('missing_order', 'Missing order', 'An order is required when redeeming a pay with points reward');
  if (sent.id !== undefined) throw new InvalidPayloadError('Property .order.id: pay with points takes a new order (its items and amount), not a stored one');
  const items = sent.items?.map(orderItemOf) ?? [];
  const amount = sent.amount ?? itemsAmount(items);
  if (amount === 0)
    throw new BadRequestError(
      'invalid_amount',
      'Invalid Amount',
      'Amount has to be a valid positive number: the order amounts to 0, nothing to pay with points',
    );
  const balance = card.loyaltyCard?.balance ?? 0;
  const { points, discount } = coinPayment(coin, amount, body.reward?.points, balance);
  if (points < 1 || discount < 1) throw pointsExceeded(card.code, Math.max(points, 1), balance);
  const calculation = calculate(
    { amount, items: items.map((i) => ({ productId: i.productId, skuId: i.skuId, quantity: i.quantity ?? 0, price: i.price ?? 0, amount: i.amount ?? 0 })) },
    [{ kind: 'gift', id: card.code, balance: discount, credits: discount }],
  ).order;
  const date = now.toISOString();
  return {
    points,
    order: {
      id: deps.ids.id('ord'),
      projectId,
      sourceId: sent.source_id ?? null,
      status: sent.status ?? 'PAID',
      amount,
      items,
      metadata: sent.metadata ?? {},
      customerId,
      referrerId: sent.referrer_id ?? null,
      createdAt: date,
      updatedAt: null,
      revision: 0,
      calculation,
    },
  };
}

const orderEntry = (redemptionId: string, date: string): OrderRedemption => ({
  date,
  relatedObjectType: 'redemption',
  relatedObjectId: redemptionId,
  stacked: [redemptionId],
  rollbackId: null,
  rollbackDate: null,
});

const redemptionOrderOf = (o: CoinOrder['order']): RedemptionOrder => ({
  id: o.id,
  sourceId: o.sourceId,
  status: o.status,
  metadata: o.metadata,
  customerId: o.customerId,
  referrerId: o.referrerId,
  calculation: o.calculation,
});

/**
 * POST /v1/loyalties/{campaignId}/members/{memberId}/redemption and POST
 * /v1/loyalties/members/{memberId}/redemption: the member's loyalty card pays the reward's price in
 * points, in ONE transaction with conditions: the card and the buckets it spends (soonest-expiring
 * first, conditioned on what was read, so concurrent redemptions never take the card below zero),
 * a unit of the reward's stock when it has one (conditioned on `redeemed` as read: the stock runs out
 * exactly), the assignment still on the program (a deleted one cannot be redeemed), the redemption
 * (listed by GET /v1/redemptions), the POINTS_REDEMPTION card transaction, the holder's redemption
 * counters and the Idempotency-Key's record. A lost race is read again and retried. Then the reward
 * is delivered: a CAMPAIGN reward publishes a voucher of its campaign to the card's holder (with the
 * redemption's id as the publication's `source_id`, so a retry or replay never publishes twice; when
 * that fails the redemption is rolled back, refunding the points), a MATERIAL reward is recorded.
 * @throws BadRequestError (`missing_reward`, `missing_order`, `loyalty_card_points_exceeded`,
 *   `invalid_customer` for a CAMPAIGN reward on a card without a holder), NotFoundError (campaign,
 *   voucher, reward, reward assignment), RedemptionRefusedError (`quantity_exceeded`: out of stock;
 *   `voucher_disabled`), IdempotencyKeyReusedError, ConflictRetryError, and the publication's errors.
 */
export async function redeemReward(
  deps: Deps,
  projectId: string,
  campaignRef: string | null,
  memberId: string,
  body: RedeemRewardBody,
  idempotency: IdempotencyScope | null = null,
): Promise<Committed<Redemption>> {
  const now = deps.clock.now();
  if (idempotency) {
    const first = await recordedReply<RecordedRewardRedemption>(deps, idempotency, now);
    if (first !== undefined) {
      const stored = await redemptionEntity.get(deps, redemptionEntity.key(projectId, first.redemptionId));
      if (!stored) throw new Error(`Idempotency record names redemption ${first.redemptionId}, which is missing`);
      return { value: await deliver(deps, projectId, stored), replayed: true };
    }
  }
  const rewardId = body.reward?.id;
  if (rewardId === undefined) throw new BadRequestError('missing_reward', 'Missing reward', 'A reward is required when redeeming a LOYALTY_CARD');
  const found = await findCard(deps, projectId, campaignRef, memberId);
  const card = found.card;
  const campaignId = card.campaignId as string;
  // The program's id and name are on the card; everything else is read at once: the reward, its price here, the holder, the buckets.
  const campaign = { id: campaignId, name: found.campaign?.name ?? card.campaignName };
  const [reward, assignment, holder, buckets] = await Promise.all([
    getReward(deps, projectId, rewardId),
    getRewardAssignmentOfPair(deps, projectId, rewardId, campaignId),
    card.holderId ? getCustomer(deps, projectId, card.holderId) : null,
    listCardBuckets(deps, projectId, card.id),
  ]);
  if (!reward) throw new NotFoundError('reward', rewardId);
  if (!assignment) throw new NotFoundError('reward', rewardId, `Reward ${rewardId} is not assigned to campaign ${campaign.id}`);
  const coin = reward.type === 'COIN' ? coinOrder(deps, projectId, card, reward.coin, body, holder?.id ?? null, now) : null;
  if (reward.type === 'CAMPAIGN' && !holder) {
    throw new BadRequestError('invalid_customer', 'Invalid customer', `Loyalty card ${card.code} has no holder to give the reward's voucher to`);
  }
  if (!card.active) throw new RedemptionRefusedError('voucher_disabled', { object: 'voucher', id: card.code });
  const redemptionId = deps.ids.id('r');
  const transactionId = deps.ids.id('vtx');
  const date = now.toISOString();
  let current: Reward = reward;
  let currentAssignment: RewardAssignment = assignment;

  const committed = await retryOnConflict(`Too many concurrent redemptions of loyalty card ${card.code}`, async (attempt) => {
    if (attempt > 0 && current.stock !== null) {
      const fresh = await getReward(deps, projectId, rewardId);
      if (!fresh) throw new NotFoundError('reward', rewardId);
      current = fresh;
    }
    if (outOfStock(current)) throw new RewardOutOfStockError(current.id);
    const listed = coin ? coin.points : rewardPrice(currentAssignment);
    // A reward's price may be mapped by the card's tier; a COIN payment's points are the order's.
    const reward = coin ? undefined : { id: current.id, assignmentId: currentAssignment.id };
    let prepared: Awaited<ReturnType<typeof prepareCardChange>>;
    try {
      // The payment's other writes are at most 11 (stock, assignment, program, redemption, card transaction, counters, a COIN order's 4, key record).
      prepared = await prepareCardChange(
        deps,
        projectId,
        card.code,
        { kind: 'spend', points: listed, ...(reward ? { reward } : {}) },
        now,
        MAX_BUCKET_WRITES - 2,
        attempt === 0 ? { voucher: card, buckets } : undefined,
      );
    } catch (error) {
      if (error instanceof NotEnoughPointsError) throw pointsExceeded(card.code, error.wanted, error.available);
      throw error;
    }
    if (!prepared) return RETRY;
    const points = prepared.change.kind === 'spend' ? prepared.change.points : listed;
    // The reference refuses points named beyond the card's balance, even when the order needs fewer:
    // checked against the balance this transaction is conditioned on (after the spend, plus the spend).
    const named = coin ? body.reward?.points : undefined;
    if (named !== undefined && named > prepared.plan.card.balance + points) throw pointsExceeded(card.code, named, prepared.plan.card.balance + points);
    const after = { ...prepared.voucher, loyaltyCard: prepared.plan.card, updatedAt: date };
    const given: RewardGiven = { reward: current, assignmentId: currentAssignment.id, points, spent: spentPointsOf(prepared.plan, points), voucher: null };
    const redemption: Redemption = {
      id: redemptionId,
      projectId,
      object: 'redemption',
      date,
      customerId: holder?.id ?? null,
      customerSourceId: holder?.sourceId ?? null,
      trackingId: null,
      metadata: body.metadata ?? {},
      amount: points,
      redemption: null,
      result: 'SUCCESS',
      status: 'SUCCEEDED',
      relatedObjectType: 'voucher',
      relatedObjectId: card.id,
      voucher: after,
      promotionTierId: null,
      campaignId: campaign.id,
      campaignName: campaign.name,
      giftCredits: 0,
      loyaltyPoints: points,
      counter: { kind: 'none' },
      order: coin ? redemptionOrderOf(coin.order) : null,
      childIds: [],
      rollbackId: null,
      reason: null,
      sessionKey: null,
      reward: given,
    };
    const record: CardTransaction = {
      id: transactionId,
      projectId,
      campaignId: campaign.id,
      voucherId: card.id,
      type: 'POINTS_REDEMPTION',
      source: 'API',
      sourceId: null,
      reason: null,
      points: -points,
      total: prepared.plan.card.points,
      balance: prepared.plan.card.balance,
      createdAt: date,
    };
    const items: TransactItem[] = [...prepared.items];
    const stockAt = current.stock !== null ? items.push(takeStockItem(deps, current, date)) - 1 : -1;
    const assignmentAt = items.push(assignmentStillThereItem(deps, currentAssignment)) - 1;
    // A card of a program deleted or disabled before this commits pays nothing (issue 41 item 3).
    const programAt = items.push(programStillActiveItem(deps, projectId, campaign.id)) - 1;
    items.push(redemptionEntity.putIfAbsent(deps, redemption), putCardTransactionItem(deps, record));
    if (holder) items.push(customerSummaryAdd(deps, projectId, holder.id, { redeemed: 1, succeeded: 1 }));
    const orderAt = items.length;
    if (coin) items.push(...newOrderItems(deps, { ...coin.order, redemptions: { [redemptionId]: orderEntry(redemptionId, date) } }));
    const outcome = await commitOnce<RecordedRewardRedemption>(deps, idempotency, items, { redemptionId }, now);
    if (outcome.ok) {
      if (!outcome.replayed) return { value: redemption, replayed: false };
      const id = outcome.reply.redemptionId;
      const stored = await redemptionEntity.get(deps, redemptionEntity.key(projectId, id));
      if (!stored) throw new Error(`Idempotency record names redemption ${id}, which is missing`);
      return { value: stored, replayed: true };
    }
    if (coin && 'failed' in outcome && outcome.failed.some((i) => i >= orderAt && i < orderAt + 2)) {
      throw new RedemptionRefusedError('order_changed', { object: 'order', id: coin.order.sourceId ?? coin.order.id });
    }
    if ('failed' in outcome && outcome.failed.includes(programAt)) await refuseInactiveProgram(deps, projectId, campaign.id, card.code);
    if ('failed' in outcome && outcome.failed.includes(assignmentAt)) {
      const again = await getRewardAssignmentOfPair(deps, projectId, rewardId, campaign.id);
      if (!again) throw new NotFoundError('reward', rewardId, `Reward ${rewardId} is not assigned to campaign ${campaign.id}`);
      currentAssignment = again;
    }
    if ('failed' in outcome && outcome.failed.includes(stockAt)) {
      const fresh = await getReward(deps, projectId, rewardId);
      if (!fresh) throw new NotFoundError('reward', rewardId);
      current = fresh;
    }
    return RETRY;
  });
  return { value: await deliver(deps, projectId, committed.value), replayed: committed.replayed };
}

/**
 * The program's condition failed: a deleted program's card is gone (404, as a code of a deleted
 * campaign is on POST /v1/redemptions), a disabled one's refused; if it is active again, the caller retries.
 */
async function refuseInactiveProgram(deps: Deps, projectId: string, campaignId: string, code: string): Promise<void> {
  const program = await campaignEntity.get(deps, campaignEntity.key(projectId, campaignId), { consistent: true });
  if (!program) throw new RedemptionRefusedError('resource_not_found', { object: 'voucher', id: code });
  if (!program.active) throw new RedemptionRefusedError('campaign_not_active', { object: 'voucher', id: code });
}

/** Records on the redemption what its reward gave, once (the condition makes a second delivery fail). */
function deliveredItem(deps: Deps, r: Redemption, voucher: Voucher): TransactItem {
  return {
    Update: {
      TableName: deps.tableName,
      Key: redemptionEntity.key(r.projectId, r.id),
      UpdateExpression: 'SET #reward.voucher = :v',
      ConditionExpression: 'attribute_type(#reward.voucher, :nullType)',
      ExpressionAttributeNames: { '#reward': 'reward' },
      ExpressionAttributeValues: { ':v': voucher, ':nullType': 'NULL' },
    },
  };
}

/**
 * The voucher a CAMPAIGN reward goes to: for a gift or loyalty campaign the card the holder already
 * holds there, if any; otherwise one published to the holder with the redemption's id as the
 * publication's `source_id` (a second call gets the same publication, so a retry never publishes twice).
 */
async function rewardVoucher(deps: Deps, projectId: string, r: Redemption, campaign: CampaignRewardParameters, customerId: string): Promise<Voucher> {
  if (campaign.campaignType !== 'DISCOUNT_COUPONS') {
    const held = await getHeldVoucher(deps, projectId, customerId, campaign.campaignId);
    if (held.voucher) return held.voucher;
  }
  const published = await publishUnderSourceId(deps, projectId, campaign.campaignId, customerId, r.id);
  if (!published.value.voucher) throw new Error(`Publication for redemption ${r.id} gave no voucher`);
  return published.value.voucher;
}

/**
 * The writes that put a CAMPAIGN reward's balance on `voucher`: gift credits, or loyalty points in a
 * bucket expiring by that program's rules (with a POINTS_ADDITION card transaction); none for a
 * discount coupon. Null when the card's bucket index lags (try again). `after` is the voucher as the writes leave it.
 */
async function balanceItems(
  deps: Deps,
  r: Redemption,
  campaign: CampaignRewardParameters,
  voucher: Voucher,
  now: Date,
): Promise<{ items: TransactItem[]; after: Voucher } | null> {
  const amount = campaign.balance ?? 0;
  if (amount <= 0 || campaign.campaignType === 'DISCOUNT_COUPONS') return { items: [], after: voucher };
  if (campaign.campaignType === 'GIFT_VOUCHERS') {
    const gift = voucher.gift ? { ...voucher.gift, amount: voucher.gift.amount + amount, balance: voucher.gift.balance + amount } : voucher.gift;
    return { items: [creditGiftItem(deps, voucher, amount, now.toISOString())], after: { ...voucher, gift } };
  }
  const program = await loadCampaign(deps, r.projectId, campaign.campaignId);
  const bucket = newBucket(deps, voucher, amount, expiryOf(program.voucher?.loyaltyCard?.expirationRules, now), now.toISOString());
  const prepared = await prepareCardChange(deps, r.projectId, voucher.code, { kind: 'add', buckets: [bucket] }, now);
  if (!prepared) return null;
  const record: CardTransaction = {
    id: deps.ids.id('vtx'),
    projectId: r.projectId,
    campaignId: campaign.campaignId,
    voucherId: voucher.id,
    type: 'POINTS_ADDITION',
    source: 'API',
    sourceId: r.id,
    reason: `Reward ${r.reward?.reward.name ?? ''} of redemption ${r.id}`,
    points: amount,
    total: prepared.plan.card.points,
    balance: prepared.plan.card.balance,
    createdAt: now.toISOString(),
  };
  return { items: [...prepared.items, putCardTransactionItem(deps, record)], after: { ...prepared.voucher, loyaltyCard: prepared.plan.card } };
}

/**
 * Delivers a committed reward redemption's CAMPAIGN reward, once however often it is called (a
 * retry, a replay): finds or publishes the voucher (rewardVoucher), then in one transaction puts
 * the reward's credits or points on it and records it on the redemption, on condition that the
 * redemption records none yet. When the publication is refused (no voucher left to publish), the
 * redemption is rolled back (its points refunded) and the refusal thrown.
 */
async function deliver(deps: Deps, projectId: string, r: Redemption): Promise<Redemption> {
  const given = r.reward;
  if (given?.reward.type !== 'CAMPAIGN' || given.voucher !== null || r.status !== 'SUCCEEDED' || r.customerId === null) return r;
  const campaign = given.reward.campaign;
  let voucher: Voucher;
  try {
    voucher = await rewardVoucher(deps, projectId, r, campaign, r.customerId);
  } catch (error) {
    if (error instanceof BadRequestError || error instanceof NotFoundError) {
      await rollbackRedemption(deps, projectId, r.id, {}, { reason: `The reward could not be delivered: ${error.details ?? error.message}` });
    }
    throw error;
  }
  await retryOnConflict(`Too many concurrent deliveries to voucher ${voucher.code}`, async () => {
    const credit = await balanceItems(deps, r, campaign, voucher, deps.clock.now());
    if (credit === null) return RETRY;
    const outcome = await transact(deps, [deliveredItem(deps, r, credit.after), ...credit.items]);
    if (outcome.ok) return true;
    if (!('failed' in outcome)) return RETRY;
    // Delivered meanwhile by a concurrent call: nothing more to do.
    if (outcome.failed.includes(0)) return true;
    return RETRY;
  });
  const stored = await redemptionEntity.get(deps, redemptionEntity.key(projectId, r.id));
  return stored ?? { ...r, reward: { ...given, voucher } };
}

/** A reward the member can get, with its price in the member's program. */
export interface MemberReward {
  reward: Reward;
  assignment: RewardAssignment;
}

/**
 * GET /v1/loyalties/members/{memberId}/rewards: the rewards assigned to the card's program, oldest
 * assignment first; with `affordable_only`, only those whose price the card's balance covers.
 * @throws NotFoundError (voucher).
 */
export async function listMemberRewards(deps: Deps, projectId: string, memberId: string, query: MemberRewardsQuery): Promise<MemberReward[]> {
  const { card } = await findCard(deps, projectId, null, memberId);
  const [assignments, tiers] = await Promise.all([
    campaignRewardAssignments(deps, projectId, card.campaignId as string),
    programTiers(deps, projectId, card.campaignId as string),
  ]);
  const rewards = new Map((await getRewards(deps, projectId, [...new Set(assignments.map((a) => a.rewardId))])).map((r) => [r.id, r]));
  const balance = card.loyaltyCard?.balance ?? 0;
  // The card's tier prices its rewards: each assignment shows, and affordable_only compares, what this card would pay.
  const tier = card.loyaltyCard ? cardTier(card.loyaltyCard, tiers, deps.clock.now().toISOString()) : null;
  return assignments.flatMap((listed) => {
    const reward = rewards.get(listed.rewardId);
    if (!reward) return [];
    const assignment = { ...listed, points: tierRewardPrice(rewardPrice(listed), tier, listed.rewardId, listed.id) };
    if (query.affordable_only === true && assignment.points > balance) return [];
    return [{ reward, assignment }];
  });
}
