import { binEntryPut } from '../bin/bin.repo.js';
import type { BinEntry } from '../bin/bin-entry.js';
import { campaign, voucher as voucherEntity, voucherId as voucherIdRef } from '../db/entities.js';
import { queryAll } from '../db/query.js';
import { tableDesign } from '../db/table.js';
import { ExtraItemsConflictError, MAX_TRANSACTION_ITEMS, transact, type TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from './voucher.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/**
 * Vouchers per insert transaction: two items each (voucher, id pointer) plus the campaign counter
 * and one slot for a caller's guard (a bulk job's progress checkpoint).
 */
export const MAX_VOUCHERS_PER_TRANSACTION = Math.floor((MAX_TRANSACTION_ITEMS - 2) / 2);

/** A voucher by its code (case-sensitive), read consistently. */
export function getVoucherByCode(deps: Deps, projectId: string, code: string): Promise<Voucher | null> {
  return voucherEntity.get(deps, voucherEntity.key(projectId, code));
}

export async function getVoucherCodeById(deps: Deps, projectId: string, voucherId: string): Promise<string | null> {
  return (await voucherIdRef.get(deps, voucherIdRef.key(projectId, voucherId)))?.code ?? null;
}

/**
 * The two writes storing a new voucher of a campaign: the voucher (index 0; its condition fails
 * when the code is taken) and its id pointer (index 1). Neither overwrites anything.
 */
export function voucherPutItems(deps: Deps, campaignId: string, voucher: Voucher): TransactItem[] {
  return [voucherEntity.putIfAbsent(deps, voucher, campaignId), voucherIdRef.putIfAbsent(deps, { code: voucher.code }, voucher.projectId, voucher.id)];
}

/** Raises a campaign's `vouchersCount` by `n`; its condition fails when the campaign is gone. */
export const countVouchersItem = (deps: Deps, projectId: string, campaignId: string, n: number): TransactItem => ({
  Update: {
    TableName: deps.tableName,
    Key: campaign.key(projectId, campaignId),
    UpdateExpression: 'ADD vouchersCount :n',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeValues: { ':n': n },
  },
});

/**
 * Adds `amount` credits to a gift voucher: its `amount` (credits ever given) and `balance` both
 * rise, as Voucherify's balance top-up does. Commutative, so it needs no read lock; the condition
 * fails when the voucher is gone or was re-created under its code.
 */
export const creditGiftItem = (deps: Deps, voucher: Voucher, amount: number, now: string): TransactItem => ({
  Update: {
    TableName: deps.tableName,
    Key: voucherEntity.key(voucher.projectId, voucher.code),
    UpdateExpression: 'SET gift.amount = gift.amount + :a, gift.balance = gift.balance + :a, updatedAt = :now',
    ConditionExpression: 'id = :id AND attribute_exists(gift.balance)',
    ExpressionAttributeValues: { ':a': amount, ':now': now, ':id': voucher.id },
  },
});

/**
 * What an insert came to: written; some codes already taken (nothing written); the campaign is
 * gone; the caller's guard failed (nothing written); or a race lost on the campaign counter (retry as is).
 */
export type InsertOutcome =
  | { kind: 'ok' }
  | { kind: 'codes_taken'; codes: string[] }
  | { kind: 'campaign_missing' }
  | { kind: 'guard_failed' }
  | { kind: 'conflict' };

/**
 * Inserts vouchers of one campaign and raises its `vouchersCount` by their number in one
 * transaction. Every code and id must be free (conditional puts): a voucher is never overwritten.
 * A `guard` item (a conditional write of the caller's) joins the transaction: all or nothing;
 * so do `extra` items (a new category's), whose failed condition throws ExtraItemsConflictError.
 */
export async function insertVouchers(
  deps: Deps,
  projectId: string,
  campaignId: string,
  vouchers: Voucher[],
  guard?: TransactItem,
  extra: readonly TransactItem[] = [],
): Promise<InsertOutcome> {
  if (vouchers.length === 0 || vouchers.length > MAX_VOUCHERS_PER_TRANSACTION) {
    throw new Error(`insertVouchers takes 1..${MAX_VOUCHERS_PER_TRANSACTION} vouchers`);
  }
  const items: TransactItem[] = vouchers.flatMap((voucher) => voucherPutItems(deps, campaignId, voucher));
  const guardIndex = guard ? items.push(guard) - 1 : -1;
  const extraFrom = items.push(...extra) - extra.length;
  items.push(countVouchersItem(deps, projectId, campaignId, vouchers.length));
  const outcome = await transact(deps, items);
  if (outcome.ok) return { kind: 'ok' };
  if (!('failed' in outcome)) return { kind: 'conflict' };
  if (outcome.failed.includes(items.length - 1)) return { kind: 'campaign_missing' };
  if (outcome.failed.includes(guardIndex)) return { kind: 'guard_failed' };
  if (outcome.failed.some((i) => i >= extraFrom && i < items.length - 1)) throw new ExtraItemsConflictError();
  const codes = outcome.failed.filter((i) => i % 2 === 0 && i < 2 * vouchers.length).map((i) => vouchers[i / 2]?.code ?? '');
  if (codes.length === 0) throw new Error('A random voucher id collided');
  return { kind: 'codes_taken', codes };
}

/** What a removal came to: done; the voucher changed or went meanwhile (re-read); or a lost race (retry). */
export type RemoveOutcome = 'ok' | 'changed' | 'conflict';

/**
 * Removes a voucher, its id pointer and one from its campaign's `vouchersCount` together, and
 * with `binEntry` also puts it in the bin, all in one transaction. The voucher item must still be
 * the one read (same id), so a concurrent delete or a re-created code is never removed by mistake.
 */
export async function removeVoucher(deps: Deps, voucher: Voucher, binEntry: BinEntry | null): Promise<RemoveOutcome> {
  const p = voucher.projectId;
  const items: TransactItem[] = [
    {
      Delete: {
        TableName: deps.tableName,
        Key: voucherEntity.key(p, voucher.code),
        ConditionExpression: 'id = :id',
        ExpressionAttributeValues: { ':id': voucher.id },
      },
    },
    { Delete: { TableName: deps.tableName, Key: voucherIdRef.key(p, voucher.id) } },
  ];
  if (voucher.campaignId) {
    items.push({
      Update: {
        TableName: deps.tableName,
        Key: campaign.key(p, voucher.campaignId),
        UpdateExpression: 'ADD vouchersCount :minusOne',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':minusOne': -1 },
      },
    });
  }
  if (binEntry) items.push(binEntryPut(deps, p, binEntry));
  const outcome = await transact(deps, items);
  if (outcome.ok) return 'ok';
  if (!('failed' in outcome)) return 'conflict';
  if (outcome.failed.includes(0)) return 'changed';
  throw new Error(`Voucher ${voucher.id} could not be removed: its campaign or bin entry id is in an unexpected state`);
}

/** Codes of a campaign's vouchers in creation order (GSI1; eventually consistent, like any index read). */
export async function listCampaignVoucherCodes(deps: Deps, projectId: string, campaignId: string): Promise<string[]> {
  const items = await queryAll(deps.ddb, {
    TableName: deps.tableName,
    IndexName: tableDesign.indexes.gsi1.name,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': voucherEntity.index.partition(projectId, campaignId) },
    ProjectionExpression: 'code',
  });
  return items.map((item) => item.code as string);
}
