import { InvalidQueryParamsError, InvalidVoucherError, NotEnoughCreditsError, NotFoundError } from '../errors.js';
import { RETRY, retryOnConflict } from '../db/transact.js';
import type { IdempotencyScope } from '../idempotency/idempotency-scope.js';
import { commitOnce, type Committed, recordedReply } from '../idempotency/idempotency.service.js';
import type { CardTransaction } from '../loyalties/card-transaction.js';
import { cardTransactionPage, findCardTransaction, putCardTransactionItem } from '../loyalties/card-transaction.repo.js';
import { type BalanceChange, updateLoyaltyCardBalance } from '../loyalties/loyalty.service.js';
import type { Runtime } from '../runtime.js';
import type { VoucherBalanceBody, VoucherTransactionsQuery } from './voucher-balance.schema.js';
import { changeGiftCreditsItem, getVoucherByCode } from './voucher.repo.js';
import { loadVoucher } from './voucher.service.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/**
 * A balance after a manual change. `points` is the change (credits of a gift card, points of a
 * loyalty card); `type` is absent on a loyalty card's, so the loyalty route's record of a change is
 * this value as it is (a replay of either route's record reads back the same shape).
 */
export type VoucherBalanceChange = BalanceChange & { type?: 'gift_voucher' };

/**
 * POST /v1/vouchers/{code}/balance: adds (positive `amount`) or removes (negative) a gift card's
 * credits, or a loyalty card's points (as the loyalty balance route does, soonest-expiring first).
 * A gift card's change is one transaction conditioned on the credits read, with the transaction
 * record and, with a key, the idempotency record: the balance never drops below 0 and a change is
 * never applied twice.
 * @throws NotFoundError, InvalidVoucherError (no gift or loyalty card), NotEnoughCreditsError,
 *   NotEnoughPointsError, IdempotencyKeyReusedError, ConflictRetryError.
 */
export async function updateVoucherBalance(
  deps: Deps,
  projectId: string,
  codeOrId: string,
  body: VoucherBalanceBody,
  idempotency: IdempotencyScope | null = null,
): Promise<Committed<VoucherBalanceChange>> {
  const now = deps.clock.now();
  if (idempotency) {
    const first = await recordedReply<VoucherBalanceChange>(deps, idempotency, now);
    if (first !== undefined) return { value: first, replayed: true };
  }
  const voucher = await loadVoucher(deps, projectId, codeOrId);
  if (voucher.loyaltyCard && voucher.campaignId) {
    return updateLoyaltyCardBalance(
      deps,
      projectId,
      voucher.campaignId,
      voucher.code,
      { points: body.amount, reason: body.reason, source_id: body.source_id },
      idempotency,
    );
  }
  if (!voucher.gift)
    throw new InvalidVoucherError(voucher.code, `Voucher ${voucher.code} is a ${voucher.type}: only gift cards and loyalty cards have a balance`);
  const transactionId = deps.ids.id('vtx');
  return retryOnConflict(`Too many concurrent changes to gift card ${voucher.code}`, async () => {
    const read = await getVoucherByCode(deps, projectId, voucher.code);
    if (!read || read.id !== voucher.id || !read.gift) throw new NotFoundError('voucher', codeOrId);
    if (read.gift.balance + body.amount < 0) throw new NotEnoughCreditsError(read.code, -body.amount, read.gift.balance);
    const total = read.gift.amount + body.amount;
    const balance = read.gift.balance + body.amount;
    const record: CardTransaction = {
      id: transactionId,
      projectId,
      campaignId: read.campaignId,
      voucherId: read.id,
      type: body.amount > 0 ? 'CREDITS_ADDITION' : 'CREDITS_REMOVAL',
      source: 'API',
      sourceId: body.source_id ?? null,
      reason: body.reason ?? null,
      points: body.amount,
      total,
      balance,
      createdAt: now.toISOString(),
    };
    const reply: VoucherBalanceChange = { voucherId: read.id, points: body.amount, total, balance, type: 'gift_voucher' };
    const items = [changeGiftCreditsItem(deps, read, body.amount, now.toISOString()), putCardTransactionItem(deps, record)];
    const outcome = await commitOnce(deps, idempotency, items, reply, now);
    return outcome.ok ? { value: outcome.reply, replayed: outcome.replayed } : RETRY;
  });
}

export interface TransactionPage {
  transactions: CardTransaction[];
  hasMore: boolean;
}

/**
 * GET /v1/vouchers/{code}/transactions: one page of the voucher's manual balance changes, newest
 * first (`order=-id`, the default) or oldest first (`id`), after `starting_after_id`. One Query
 * of the voucher's transaction partition (plus one GSI1 read to place the cursor).
 * @throws NotFoundError, InvalidQueryParamsError (a cursor that is no transaction of this voucher).
 */
export async function listVoucherTransactions(deps: Deps, projectId: string, codeOrId: string, query: VoucherTransactionsQuery): Promise<TransactionPage> {
  const voucher = await loadVoucher(deps, projectId, codeOrId);
  let after: CardTransaction | null = null;
  if (query.starting_after_id !== undefined) {
    after = await findCardTransaction(deps, projectId, query.starting_after_id);
    if (!after || after.voucherId !== voucher.id) {
      throw new InvalidQueryParamsError(`starting_after_id ${query.starting_after_id} is not a transaction of voucher ${voucher.code}`);
    }
  }
  return cardTransactionPage(deps, projectId, voucher.id, query.limit, query.order === 'id', after);
}
