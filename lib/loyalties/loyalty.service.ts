import type { Campaign } from '../campaigns/campaign.js';
import { loadCampaign } from '../campaigns/campaign.service.js';
import { MAX_TRANSACTION_ITEMS, RETRY, retryOnConflict, transact, type TransactItem } from '../db/transact.js';
import { BadRequestError, InvalidExpirationDateError, NotEnoughPointsError, NotFoundError } from '../errors.js';
import type { IdempotencyScope } from '../idempotency/idempotency-scope.js';
import { commitOnce, type Committed, recordedReply } from '../idempotency/idempotency.service.js';
import type { Runtime } from '../runtime.js';
import type { LoyaltyCard, Voucher } from '../vouchers/voucher.js';
import { getVoucherByCode } from '../vouchers/voucher.repo.js';
import { loadVoucher } from '../vouchers/voucher.service.js';
import { expiryOf, todayOf, type ExpirationRules } from './expiration.js';
import { activeBucketPoints, type CardPlan, InsufficientPointsError, planChange, type PointsChange } from './loyalty-card.js';
import type { CardTransaction } from './card-transaction.js';
import { putCardTransactionItem } from './card-transaction.repo.js';
import { cardPlanItems, listCardBuckets } from './loyalty-card.repo.js';
import { newBucket, type PointsBucket } from './points-bucket.js';
import { expirationTransaction } from './points-expiry.js';
import { tieredChange } from './tier.js';
import { cardTier, type TierRules, withTier } from './tier-period.js';
import { programTiers } from './tier.repo.js';
import type { BalanceBody, PointsExpirationQuery } from './loyalty.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/** Bucket writes one points change may carry, leaving room for the card and a caller's items (event, idempotency record). */
export const MAX_BUCKET_WRITES = MAX_TRANSACTION_ITEMS - 10;

/** A loyalty program by id or name. @throws NotFoundError when there is none, or the campaign is another type. */
export async function findLoyaltyCampaign(deps: Deps, projectId: string, ref: string): Promise<Campaign> {
  const campaign = await loadCampaign(deps, projectId, ref);
  if (campaign.campaignType !== 'LOYALTY_PROGRAM') throw new NotFoundError('campaign', ref);
  return campaign;
}

/** A voucher by code or id, or null when there is none. */
export async function voucherOrNull(deps: Deps, projectId: string, ref: string): Promise<Voucher | null> {
  return loadVoucher(deps, projectId, ref).catch((error: unknown) => {
    if (error instanceof NotFoundError) return null;
    throw error;
  });
}

/** A card of the campaign by code or id. @throws NotFoundError (voucher) when it is missing or belongs elsewhere. */
export async function findMember(deps: Deps, campaign: Campaign, memberId: string): Promise<Voucher> {
  const voucher = await voucherOrNull(deps, campaign.projectId, memberId);
  if (!voucher || voucher.campaignId !== campaign.id || !voucher.loyaltyCard) throw new NotFoundError('voucher', memberId);
  return voucher;
}

/**
 * A card by code or id and its program: of the program `campaignRef` names, or (null) of whichever
 * program holds it, as the paths without `{campaignId}` address it.
 * @throws NotFoundError (campaign: not a loyalty program; voucher: no such card, not a loyalty card, or of another program).
 */
export async function findProgramMember(
  deps: Deps,
  projectId: string,
  campaignRef: string | null,
  memberId: string,
): Promise<{ campaign: Campaign; member: Voucher }> {
  if (campaignRef !== null) {
    const campaign = await findLoyaltyCampaign(deps, projectId, campaignRef);
    return { campaign, member: await findMember(deps, campaign, memberId) };
  }
  const member = await voucherOrNull(deps, projectId, memberId);
  if (!member?.loyaltyCard || !member.campaignId) throw new NotFoundError('voucher', memberId);
  return { campaign: await findLoyaltyCampaign(deps, projectId, member.campaignId), member };
}

/** A card's current state and the plan of a change, ready to commit (items[0] is the card). */
export interface PreparedChange {
  voucher: Voucher;
  plan: CardPlan;
  /** The change as planned: earned points and a reward's price as the card's tier maps them. */
  change: PointsChange;
  items: TransactItem[];
}

/**
 * Reads a card and its buckets and plans `change`. Returns null when the bucket index has not
 * caught up with the card yet (the caller backs off and calls again). When the card holds more
 * expired buckets than one transaction can move, some are moved first in a transaction of their
 * own (a complete change by itself) and null is returned.
 * @throws NotFoundError (voucher), NotEnoughPointsError, BadRequestError `too_many_points_buckets`.
 */
export async function prepareCardChange(
  deps: Deps,
  projectId: string,
  code: string,
  change: PointsChange,
  now: Date,
  /** Bucket writes this change may use: less than MAX_BUCKET_WRITES when another card changes in the same transaction. */
  maxBucketWrites = MAX_BUCKET_WRITES,
  /** The card (read consistently) and its buckets when the caller read them already (saves two round trips). */
  preread?: { voucher: Voucher; buckets: PointsBucket[] },
): Promise<PreparedChange | null> {
  const voucher = preread ? preread.voucher : await getVoucherByCode(deps, projectId, code);
  if (!voucher?.loyaltyCard) throw new NotFoundError('voucher', code);
  const [buckets, tiers] = await Promise.all([
    preread ? preread.buckets : listCardBuckets(deps, projectId, voucher.id),
    voucher.campaignId ? programTiers(deps, projectId, voucher.campaignId) : { tiers: [] },
  ]);
  if (activeBucketPoints(buckets) !== (voucher.loyaltyCard.bucketedPoints ?? 0)) return null;
  const state = { card: voucher.loyaltyCard, buckets };
  const today = todayOf(now);
  // Each bucket expired on the way costs two items (its update and its POINTS_EXPIRATION record).
  const maxExpiries = Math.max(1, Math.floor(maxBucketWrites / 2));
  // The tier the card is in as read decides what this change earns or costs; the commit holds only at that read.
  const tiered = tieredChange(change, cardTier(state.card, tiers, now.toISOString()));
  let plan: CardPlan;
  try {
    plan = tierPlan(planChange(state, tiered, today, maxExpiries), state.card, tiers, now);
  } catch (error) {
    if (error instanceof InsufficientPointsError) throw new NotEnoughPointsError(code, tiered.kind === 'spend' ? tiered.points : 0, error.available, error);
    throw error;
  }
  if (plan.updates.length + plan.inserts.length + expiriesOf(plan) > maxBucketWrites) {
    const settle = tierPlan(planChange(state, { kind: 'none' }, today, maxExpiries), state.card, tiers, now);
    if (settle.updates.length === 0) {
      throw new BadRequestError(
        'too_many_points_buckets',
        'Too many points buckets',
        `Spending these points would touch more than ${maxBucketWrites} points buckets of card ${code}; spend fewer points at a time`,
      );
    }
    await transact(deps, [...cardPlanItems(deps, voucher, settle, now.toISOString()), ...expirationItems(deps, voucher, settle, now)]);
    return null;
  }
  return { voucher, plan, change: tiered, items: [...cardPlanItems(deps, voucher, plan, now.toISOString()), ...expirationItems(deps, voucher, plan, now)] };
}

/** The plan with the card's period counter and tier field following the change (lib/loyalties/tier-period.ts withTier). */
const tierPlan = (plan: CardPlan, before: LoyaltyCard, rules: TierRules, now: Date): CardPlan => ({
  ...plan,
  card: withTier(before, plan.card, rules, now.toISOString()),
});

const expiriesOf = (plan: CardPlan): number => plan.updates.filter((u) => u.status === 'EXPIRED').length;

/**
 * The POINTS_EXPIRATION records of the buckets a plan expires on the way (planned before the change
 * itself, soonest first), dated a millisecond before the change so that a card's history lists them
 * first: the same records the expiry worker writes, so a card's transactions always add up to its balance.
 */
function expirationItems(deps: Pick<Runtime, 'ddb' | 'tableName' | 'ids'>, voucher: Voucher, plan: CardPlan, now: Date): TransactItem[] {
  const before = voucher.loyaltyCard;
  if (!before) return [];
  const at = new Date(now.getTime() - 1).toISOString();
  let balance = before.balance;
  return plan.updates
    .filter((u) => u.status === 'EXPIRED')
    .map((u) => {
      balance -= u.bucket.points;
      return putCardTransactionItem(deps, expirationTransaction(deps.ids.id('vtx'), u.bucket, { ...before, balance }, at));
    });
}

/** The outcome of a manual points change; also the reply an Idempotency-Key replays, so it stays small. */
export interface BalanceChange {
  voucherId: string;
  points: number;
  total: number;
  balance: number;
}

function addedExpiry(body: BalanceBody, rules: ExpirationRules | null | undefined, now: Date): string | null {
  const type = body.expiration_type ?? (body.expiration_date !== undefined ? 'CUSTOM_DATE' : 'PROGRAM_RULES');
  if (type === 'NON_EXPIRING') return null;
  if (type === 'PROGRAM_RULES') return expiryOf(rules, now);
  if (body.expiration_date === undefined) throw new InvalidExpirationDateError('expiration_date is required when expiration_type is CUSTOM_DATE');
  const date = body.expiration_date.slice(0, 10);
  if (date < todayOf(now)) throw new InvalidExpirationDateError('Expiration date cannot be set in the past');
  return date;
}

/**
 * POST /v1/loyalties/{campaignId}/members/{memberId}/balance, and POST
 * /v1/loyalties/members/{memberId}/balance (`campaignRef` null: the card's own program). Adding puts the points in a new
 * bucket expiring by the request (`expiration_type`/`expiration_date`) or the program's rules;
 * subtracting takes them from the soonest-expiring unexpired buckets. The card and its buckets
 * change in one transaction conditioned on what was read, retried on a lost race: concurrent
 * spends can never take a card below zero. The same transaction records a card transaction
 * (POINTS_ADDITION / POINTS_REMOVAL) keeping the request's `reason` and `source_id`, and, with an
 * Idempotency-Key, the record of the reply: a retry after a lost reply (a timeout once the write
 * committed) replays it instead of changing the card again, so points move exactly once.
 * @throws NotFoundError (campaign, voucher), NotEnoughPointsError, InvalidExpirationDateError,
 *   IdempotencyKeyReusedError, ConflictRetryError.
 */
export async function updateLoyaltyCardBalance(
  deps: Deps,
  projectId: string,
  campaignRef: string | null,
  memberId: string,
  body: BalanceBody,
  idempotency: IdempotencyScope | null = null,
): Promise<Committed<BalanceChange>> {
  const now = deps.clock.now();
  if (idempotency) {
    const first = await recordedReply<BalanceChange>(deps, idempotency, now);
    if (first !== undefined) return { value: first, replayed: true };
  }
  const { campaign, member } = await findProgramMember(deps, projectId, campaignRef, memberId);
  const change: PointsChange =
    body.points > 0
      ? {
          kind: 'add',
          buckets: [newBucket(deps, member, body.points, addedExpiry(body, campaign.voucher?.loyaltyCard?.expirationRules, now), now.toISOString())],
        }
      : { kind: 'spend', points: -body.points };
  const transactionId = deps.ids.id('vtx');
  return retryOnConflict(`Too many concurrent changes to loyalty card ${memberId}`, async () => {
    const prepared = await prepareCardChange(deps, projectId, member.code, change, now);
    if (prepared) {
      const { card } = prepared.plan;
      const record: CardTransaction = {
        id: transactionId,
        projectId,
        campaignId: campaign.id,
        voucherId: prepared.voucher.id,
        type: body.points > 0 ? 'POINTS_ADDITION' : 'POINTS_REMOVAL',
        source: 'API',
        sourceId: body.source_id ?? null,
        reason: body.reason ?? null,
        points: body.points,
        total: card.points,
        balance: card.balance,
        createdAt: now.toISOString(),
      };
      const reply: BalanceChange = { voucherId: prepared.voucher.id, points: body.points, total: card.points, balance: card.balance };
      const outcome = await commitOnce(deps, idempotency, [...prepared.items, putCardTransactionItem(deps, record)], reply, now);
      if (outcome.ok) return { value: outcome.reply, replayed: outcome.replayed };
    }
    return RETRY;
  });
}

export interface BucketPage {
  buckets: PointsBucket[];
  total: number;
}

/**
 * GET /v1/loyalties/{campaignId}/members/{memberId}/points-expiration: the card's buckets that
 * still hold unexpired points, soonest expiry first (an ACTIVE bucket past its date counts as gone
 * even before a write moves it to EXPIRED).
 * @throws NotFoundError (campaign, voucher).
 */
export async function listPointsExpiration(
  deps: Deps,
  projectId: string,
  campaignRef: string,
  memberId: string,
  query: PointsExpirationQuery,
): Promise<BucketPage> {
  const campaign = await findLoyaltyCampaign(deps, projectId, campaignRef);
  const member = await findMember(deps, campaign, memberId);
  const today = todayOf(deps.clock.now());
  const live = (await listCardBuckets(deps, projectId, member.id)).filter(
    (b) => b.status === 'ACTIVE' && b.points > 0 && (b.expiresAt === null || b.expiresAt >= today),
  );
  const start = (query.page - 1) * query.limit;
  return { buckets: live.slice(start, start + query.limit), total: live.length };
}

/**
 * A loyalty card as of now: points whose bucket's last day has passed no longer count, even before
 * the expiry worker (or the card's next change) writes them off. Costs nothing unless the card's
 * next expiration date is past; then one Query of its buckets, whose past-due points are moved to
 * `expired_points` in the copy returned (nothing is written). When the bucket index lags behind
 * the card the card is returned as stored.
 */
export async function cardAsOf(deps: Pick<Runtime, 'ddb' | 'tableName'>, voucher: Voucher, now: Date): Promise<Voucher> {
  const card = voucher.loyaltyCard;
  const today = todayOf(now);
  if (!card || card.nextExpirationDate === null || card.nextExpirationDate >= today) return voucher;
  const buckets = await listCardBuckets(deps, voucher.projectId, voucher.id);
  if (activeBucketPoints(buckets) !== (card.bucketedPoints ?? 0)) return voucher;
  const settled = planChange({ card, buckets }, { kind: 'none' }, today).card;
  return { ...voucher, loyaltyCard: { ...settled, revision: card.revision } };
}
