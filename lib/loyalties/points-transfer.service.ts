import { MAX_TRANSACTION_ITEMS, RETRY, retryOnConflict, type TransactItem } from '../db/transact.js';
import { BadRequestError, InvalidPayloadError, NotFoundError } from '../errors.js';
import type { IdempotencyScope } from '../idempotency/idempotency-scope.js';
import { commitOnce, type Committed, recordedReply } from '../idempotency/idempotency.service.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from '../vouchers/voucher.js';
import { getVoucherByCode } from '../vouchers/voucher.repo.js';
import { type CardTransaction, runningCounters } from './card-transaction.js';
import { putCardTransactionItem } from './card-transaction.repo.js';
import { cardAsOf, findLoyaltyCampaign, findMember, prepareCardChange } from './loyalty.service.js';
import type { TransferPointsBody } from './loyalty.schema.js';
import { newBucket } from './points-bucket.js';
import { mergeTaken, type TakenPoints, takenByExpiry } from './points-transfer.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/** What an Idempotency-Key records of a transfer: the target card (a replay reads it as it is now). */
interface RecordedTransfer {
  code: string;
}

/** The target card and the source cards a transfer names, checked: loyalty cards of one holder, the target not among the sources. */
async function cardsOf(deps: Deps, projectId: string, campaignRef: string, memberId: string, body: TransferPointsBody): Promise<Voucher> {
  const campaign = await findLoyaltyCampaign(deps, projectId, campaignRef);
  const [target, ...sources] = await Promise.all([findMember(deps, campaign, memberId), ...body.map((s) => getVoucherByCode(deps, projectId, s.code))]);
  if (!target.holderId) {
    throw new BadRequestError(
      'invalid_customer',
      'Invalid customer',
      `Loyalty card ${target.code} has no holder: points move only between cards of one holder`,
    );
  }
  body.forEach((s, i) => {
    const source = sources[i];
    if (!source?.loyaltyCard) throw new NotFoundError('voucher', s.code);
    if (source.id === target.id) throw new InvalidPayloadError(`Loyalty card ${s.code} is the target of the transfer: it cannot be one of its sources`);
    if (source.holderId !== target.holderId) {
      throw new BadRequestError(
        'invalid_customer',
        'Invalid customer',
        `Loyalty card ${s.code} is not held by the holder of loyalty card ${target.code}: points move only between cards of one holder`,
      );
    }
  });
  return target;
}

/**
 * POST /v1/loyalties/{campaignId}/members/{memberId}/transfers: moves points to the card `memberId`
 * names (in the program `campaignId`) from each card of the body, all held by the target's holder
 * (any program of the project). From each source the points come out of its soonest-expiring
 * unexpired buckets first, then its bucket-less points; they land on the target in new buckets that
 * keep the expiry they had (one per date; bucket-less points stay non-expiring). Everything is ONE
 * transaction with conditions: every source card and spent bucket as read (so concurrent transfers
 * or spends never take a source below zero), the target card as read, its new buckets, a
 * POINTS_TRANSFER_OUT transaction per source (with its `source_id` and `reason`) and the matching
 * POINTS_TRANSFER_IN on the target (each names the other in `related_transaction_id`), and the
 * Idempotency-Key's record. A lost race is read again and retried. Returns the target card after it.
 * @throws NotFoundError (campaign, voucher), BadRequestError `invalid_customer` (a card without the
 *   target's holder), InvalidPayloadError (the target among the sources), NotEnoughPointsError,
 *   BadRequestError `too_many_points_buckets`, IdempotencyKeyReusedError, ConflictRetryError.
 */
export async function transferPoints(
  deps: Deps,
  projectId: string,
  campaignRef: string,
  memberId: string,
  body: TransferPointsBody,
  idempotency: IdempotencyScope | null = null,
): Promise<Committed<Voucher>> {
  const now = deps.clock.now();
  const replayOf = async (code: string): Promise<Voucher> => {
    const card = await getVoucherByCode(deps, projectId, code);
    if (!card) throw new NotFoundError('voucher', code);
    return cardAsOf(deps, card, now);
  };
  if (idempotency) {
    const first = await recordedReply<RecordedTransfer>(deps, idempotency, now);
    if (first !== undefined) return { value: await replayOf(first.code), replayed: true };
  }
  const target = await cardsOf(deps, projectId, campaignRef, memberId, body);
  const date = now.toISOString();
  const outIds = body.map(() => deps.ids.id('vtx'));
  const inIds = body.map(() => deps.ids.id('vtx'));
  // Items: per source its card, its bucket writes and two card transactions; the target card, its new buckets (at most one per
  // bucket spent, plus one); the key's record. Each source gets an equal share of what the bucket writes may use.
  const perSource = Math.max(1, Math.floor((MAX_TRANSACTION_ITEMS - 2 - 4 * body.length) / (2 * body.length)) - 1);
  return retryOnConflict(`Too many concurrent changes to loyalty card ${target.code}`, async () => {
    const items: TransactItem[] = [];
    const records: CardTransaction[] = [];
    const taken: TakenPoints[][] = [];
    for (const [i, s] of body.entries()) {
      const prepared = await prepareCardChange(deps, projectId, s.code, { kind: 'spend', points: s.points }, now, perSource);
      if (!prepared) return RETRY;
      items.push(...prepared.items);
      taken.push(takenByExpiry(s.points, prepared.plan.updates));
      records.push({
        id: outIds[i] as string,
        projectId,
        campaignId: prepared.voucher.campaignId,
        voucherId: prepared.voucher.id,
        type: 'POINTS_TRANSFER_OUT',
        source: 'API',
        sourceId: s.source_id,
        reason: s.reason ?? null,
        points: -s.points,
        total: prepared.plan.card.points,
        balance: prepared.plan.card.balance,
        relatedTransactionId: inIds[i] as string,
        createdAt: date,
      });
    }
    const buckets = mergeTaken(taken).map((t) => newBucket(deps, target, t.points, t.expiresAt, date));
    const room = MAX_TRANSACTION_ITEMS - items.length - 2 * body.length - 2;
    const landed = await prepareCardChange(deps, projectId, target.code, { kind: 'add', buckets }, now, room);
    if (!landed) return RETRY;
    const counters = runningCounters(
      body.map((s) => s.points),
      { total: landed.plan.card.points, balance: landed.plan.card.balance },
    );
    body.forEach((s, i) => {
      records.push({
        id: inIds[i] as string,
        projectId,
        campaignId: target.campaignId,
        voucherId: target.id,
        type: 'POINTS_TRANSFER_IN',
        source: 'API',
        sourceId: s.source_id,
        reason: s.reason ?? null,
        points: s.points,
        total: counters[i]?.total ?? landed.plan.card.points,
        balance: counters[i]?.balance ?? landed.plan.card.balance,
        relatedTransactionId: outIds[i] as string,
        createdAt: date,
      });
    });
    const all = [...items, ...landed.items, ...records.map((r) => putCardTransactionItem(deps, r))];
    const outcome = await commitOnce<RecordedTransfer>(deps, idempotency, all, { code: target.code }, now);
    if (!outcome.ok) return RETRY;
    if (outcome.replayed) return { value: await replayOf(outcome.reply.code), replayed: true };
    return { value: { ...landed.voucher, loyaltyCard: landed.plan.card, updatedAt: date }, replayed: false };
  });
}
