import { binEntryPut } from '../bin/bin.repo.js';
import type { BinEntry } from '../bin/bin-entry.js';
import {
  campaign,
  standaloneVoucherCounter,
  voucherCategoryKeys,
  voucherChangeSet,
  voucher as voucherEntity,
  voucherId as voucherIdRef,
} from '../db/entities.js';
import type { Gsi2Key } from '../db/entity.js';
import { queryAll } from '../db/query.js';
import { tableDesign } from '../db/table.js';
import { ExtraItemsConflictError, MAX_TRANSACTION_ITEMS, transact, type TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { VoucherAddition } from '../campaigns/campaign.js';
import { createdVouchersDelta } from '../campaigns/campaign-summary.js';
import { summaryCounterUpdates } from '../campaigns/campaign-summary.repo.js';
import type { Voucher } from './voucher.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

const GSI2 = tableDesign.indexes.gsi2;
const GSI4 = tableDesign.indexes.gsi4;

/**
 * Vouchers per insert transaction: two items each (voucher, id pointer) plus the campaign counter,
 * the campaign's summary counter (get-campaign-summary's `vouchers_created`) and one slot for a
 * caller's guard (a bulk job's progress checkpoint).
 */
export const MAX_VOUCHERS_PER_TRANSACTION = Math.floor((MAX_TRANSACTION_ITEMS - 3) / 2);

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

/**
 * Raises a campaign's `vouchersCount` and `vouchersInserted` by `n`; its condition fails when the campaign is gone and,
 * with `pinRevision`, when the campaign is no longer at that revision (absent = 0): the vouchers
 * were built from a template that may have changed since (campaign-lifecycle.repo.ts changeCampaign).
 */
export const countVouchersItem = (
  deps: Deps,
  projectId: string,
  campaignId: string,
  n: number,
  pinRevision?: number,
  /** The record of an addition to the campaign (its webhook event's), set with the count it moves. */
  addition?: VoucherAddition,
): TransactItem => ({
  Update: {
    TableName: deps.tableName,
    Key: campaign.key(projectId, campaignId),
    UpdateExpression: `${addition ? 'SET lastAddition = :add ' : ''}ADD vouchersCount :n, vouchersInserted :n`,
    ConditionExpression:
      pinRevision === undefined
        ? 'attribute_exists(PK)'
        : pinRevision === 0
          ? 'attribute_exists(PK) AND attribute_not_exists(revision)'
          : 'attribute_exists(PK) AND revision = :rev',
    ExpressionAttributeValues: { ':n': n, ...(pinRevision ? { ':rev': pinRevision } : {}), ...(addition ? { ':add': addition } : {}) },
  },
});

/**
 * Adds `amount` credits to a gift voucher: its `amount` (credits ever given) and `balance` both
 * rise, as Voucherify's balance top-up does. Commutative, so it needs no read lock; the condition
 * fails when the voucher is gone or was re-created under its code.
 */
export const creditGiftItem = (deps: Deps, voucher: Voucher, amount: number, now: string): TransactItem => {
  const changed = voucherChangeSet(voucher, now);
  return {
    Update: {
      TableName: deps.tableName,
      Key: voucherEntity.key(voucher.projectId, voucher.code),
      UpdateExpression: `SET gift.amount = gift.amount + :a, gift.balance = gift.balance + :a, updatedAt = :now, ${changed.set}`,
      ConditionExpression: 'id = :id AND attribute_exists(gift.balance)',
      ExpressionAttributeNames: changed.names,
      ExpressionAttributeValues: { ':a': amount, ':now': now, ':id': voucher.id, ...changed.values },
    },
  };
};

/**
 * What an insert came to: written; some codes already taken (nothing written); the campaign is
 * gone; the caller's guard failed (nothing written); or a race lost on the campaign counter (retry as is).
 */
export type InsertOutcome =
  | { kind: 'ok' }
  | { kind: 'codes_taken'; codes: string[] }
  | { kind: 'campaign_missing' }
  /** With `pinRevision`: the campaign is gone or at another revision (re-read it). */
  | { kind: 'campaign_changed' }
  | { kind: 'guard_failed' }
  | { kind: 'conflict' };

/**
 * Inserts vouchers of one campaign and raises its `vouchersCount` (and its summary's
 * `vouchersCreated`) by their number in one transaction. Every code and id must be free (conditional puts): a voucher is never overwritten.
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
  /** Hold only while the campaign is at this revision (countVouchersItem). */
  pinRevision?: number,
  /** These vouchers complete an addition to the campaign: recorded on it, dated as they are (countVouchersItem). */
  addition?: Omit<VoucherAddition, 'at'>,
): Promise<InsertOutcome> {
  if (vouchers.length === 0 || vouchers.length > MAX_VOUCHERS_PER_TRANSACTION) {
    throw new Error(`insertVouchers takes 1..${MAX_VOUCHERS_PER_TRANSACTION} vouchers`);
  }
  const items: TransactItem[] = vouchers.flatMap((voucher) => voucherPutItems(deps, campaignId, voucher));
  const guardIndex = guard ? items.push(guard) - 1 : -1;
  // No condition: it never fails the insert, and counts only when the insert commits.
  items.push(...summaryCounterUpdates(deps, projectId, campaignId, (vouchers[0] as Voucher).createdAt, createdVouchersDelta(vouchers)));
  const extraFrom = items.push(...extra) - extra.length;
  items.push(countVouchersItem(deps, projectId, campaignId, vouchers.length, pinRevision, addition && { ...addition, at: (vouchers[0] as Voucher).createdAt }));
  const outcome = await transact(deps, items);
  if (outcome.ok) return { kind: 'ok' };
  if (!('failed' in outcome)) return { kind: 'conflict' };
  if (outcome.failed.includes(items.length - 1)) return { kind: pinRevision === undefined ? 'campaign_missing' : 'campaign_changed' };
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
 * A campaign's voucher also counts in its summary, on the UTC day of `at`: `vouchersDeleted` 1, and
 * the gift balance or card points it held (`amountDeleted`, `pointsDeleted`).
 */
export function removeVoucher(deps: Deps, voucher: Voucher, binEntry: BinEntry | null, at: string): Promise<RemoveOutcome> {
  return removeVoucherOf(deps, voucher, binEntry, at, true);
}

/** removeVoucher; `countStandalone` false for a voucher whose campaign was deleted (it never counted as one of no campaign). */
async function removeVoucherOf(deps: Deps, voucher: Voucher, binEntry: BinEntry | null, at: string, countStandalone: boolean): Promise<RemoveOutcome> {
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
    const deleted = { vouchersDeleted: 1, amountDeleted: voucher.gift?.balance ?? 0, pointsDeleted: voucher.loyaltyCard?.balance ?? 0 };
    items.push(...summaryCounterUpdates(deps, p, voucher.campaignId, at, deleted));
  } else if (countStandalone) {
    items.push(countStandaloneItem(deps, p, -1));
  }
  if (binEntry) items.push(binEntryPut(deps, p, binEntry));
  const outcome = await transact(deps, items);
  if (outcome.ok) return 'ok';
  if (!('failed' in outcome)) return 'conflict';
  if (outcome.failed.includes(0)) return 'changed';
  // Its campaign was deleted (its vouchers are being removed by a job): there is no count to lower.
  if (voucher.campaignId && outcome.failed.length === 1 && outcome.failed[0] === 2) {
    return removeVoucherOf(deps, { ...voucher, campaignId: null }, binEntry && { ...binEntry, resourceParentId: voucher.campaignId }, at, false);
  }
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

/** Voucher fields a plain change may set: none of them a counter, the holder or the publication count. */
export type VoucherChange = Partial<
  Pick<
    Voucher,
    'active' | 'startDate' | 'expirationDate' | 'metadata' | 'additionalInfo' | 'category' | 'validityTimeframe' | 'validityDayOfWeek' | 'validityHours'
  >
>;

/**
 * Sets `change` (and `updatedAt`) on a voucher as read, and puts it into or takes it out of its
 * campaign's pool of vouchers to publish (the sparse GSI2) as the changed voucher is publishable
 * or not (isPublishable), so a disabled voucher is never published and an enabled one can be; a
 * held voucher keeps its holder's GSI2 entry (set again from voucherListKeys, never removed).
 * Its category's GSI4 entry follows the changed voucher's category in the same write (set, moved
 * to the new category, or removed), so GET /v1/vouchers?category= lists it where it is now.
 * Holds only while the voucher is the one read and its holder and publication count are as read:
 * a publication meanwhile makes the write fail (the caller re-reads), so the pool is never
 * rejoined by a voucher that was just published.
 */
export function changeVoucherItem(deps: Deps, read: Voucher, change: VoucherChange, now: string, giftAmount?: number): TransactItem {
  const next: Voucher = { ...read, ...change, updatedAt: now };
  // The GSI2 entry the changed voucher must have: its campaign's pool entry (publishable) or its
  // holder's (voucherListKeys), or none. The campaign argument only shapes the GSI1 key, unused here.
  const { GSI2PK, GSI2SK }: Partial<Gsi2Key> = voucherEntity.keysOf(next, read.campaignId ?? '');
  const sparse: Partial<Gsi2Key> = { GSI2PK, GSI2SK };
  const fields: Record<string, unknown> = { ...Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)), updatedAt: now };
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = Object.entries(fields).map(([name, value], i) => {
    names[`#f${i}`] = name;
    values[`:v${i}`] = value;
    return `#f${i} = :v${i}`;
  });
  const changed = voucherChangeSet(read, now);
  sets.push(changed.set);
  Object.assign(names, changed.names, { '#gpk': GSI2.partitionKey, '#gsk': GSI2.sortKey });
  Object.assign(values, changed.values);
  let giftCondition = '';
  if (giftAmount !== undefined) {
    // A new gift amount moves the balance by the same difference; conditioned on the credits read.
    if (!read.gift) throw new Error(`Voucher ${read.id} is not a gift card`);
    sets.push('gift.amount = :giftAmount', 'gift.balance = :giftBalance');
    Object.assign(values, {
      ':giftAmount': giftAmount,
      ':giftBalance': read.gift.balance + giftAmount - read.gift.amount,
      ':readAmount': read.gift.amount,
      ':readBalance': read.gift.balance,
    });
    giftCondition = ' AND gift.amount = :readAmount AND gift.balance = :readBalance';
  }
  const removes: string[] = [];
  if (sparse.GSI2PK !== undefined && sparse.GSI2SK !== undefined) {
    values[':gpk'] = sparse.GSI2PK;
    values[':gsk'] = sparse.GSI2SK;
    sets.push('#gpk = :gpk', '#gsk = :gsk');
  } else {
    removes.push('#gpk', '#gsk');
  }
  const { GSI4PK, GSI4SK } = voucherCategoryKeys(next);
  names['#cpk'] = GSI4.partitionKey;
  names['#csk'] = GSI4.sortKey;
  if (GSI4PK !== undefined && GSI4SK !== undefined) {
    values[':cpk'] = GSI4PK;
    values[':csk'] = GSI4SK;
    sets.push('#cpk = :cpk', '#csk = :csk');
  } else {
    removes.push('#cpk', '#csk');
  }
  const update = `SET ${sets.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`;
  const holder = read.holderId === null ? '(attribute_not_exists(holderId) OR attribute_type(holderId, :nullType))' : 'holderId = :holder';
  Object.assign(values, { ':id': read.id, ':pc': read.publishCount }, read.holderId === null ? { ':nullType': 'NULL' } : { ':holder': read.holderId });
  return {
    Update: {
      TableName: deps.tableName,
      Key: voucherEntity.key(read.projectId, read.code),
      UpdateExpression: update,
      ConditionExpression: `id = :id AND publishCount = :pc AND ${holder}${giftCondition}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * Writes changeVoucherItem alone (with `extra` items, e.g. a new category's, in the same transaction).
 * @returns 'changed' when the voucher was published, deleted or re-created meanwhile (re-read), 'conflict' on a lost race (retry).
 */
export async function changeVoucher(
  deps: Deps,
  read: Voucher,
  change: VoucherChange,
  now: string,
  extra: readonly TransactItem[] = [],
  giftAmount?: number,
): Promise<'ok' | 'changed' | 'conflict'> {
  const outcome = await transact(deps, [changeVoucherItem(deps, read, change, now, giftAmount), ...extra]);
  if (outcome.ok) return 'ok';
  if (!('failed' in outcome)) return 'conflict';
  if (outcome.failed.includes(0)) return 'changed';
  throw new ExtraItemsConflictError();
}

/**
 * Adds `amount` (negative: removes) to a gift card's credits: its `amount` (credits given) and
 * `balance` move together, so `balance = amount − subtracted_amount` stays true. Holds only while
 * the voucher is the one read with the credits read (an optimistic lock: a concurrent change makes
 * it fail and the caller re-reads), so the balance after is known exactly and never drops below 0.
 */
export const changeGiftCreditsItem = (deps: Deps, read: Voucher, amount: number, now: string): TransactItem => {
  if (!read.gift) throw new Error(`Voucher ${read.id} is not a gift card`);
  const changed = voucherChangeSet(read, now);
  return {
    Update: {
      TableName: deps.tableName,
      Key: voucherEntity.key(read.projectId, read.code),
      UpdateExpression: `SET gift.amount = :amount, gift.balance = :balance, updatedAt = :now, ${changed.set}`,
      ConditionExpression: 'id = :id AND gift.amount = :readAmount AND gift.balance = :readBalance',
      ExpressionAttributeNames: changed.names,
      ExpressionAttributeValues: {
        ...changed.values,
        ':amount': read.gift.amount + amount,
        ':balance': read.gift.balance + amount,
        ':now': now,
        ':id': read.id,
        ':readAmount': read.gift.amount,
        ':readBalance': read.gift.balance,
      },
    },
  };
};

/**
 * The campaign part of a standalone voucher's keys (its GSI1 list partition): standalone vouchers
 * of a project are listed together there, as a campaign's are in its own. Campaign ids start with
 * `camp_`, so no campaign shares it (docs/decisions.md "Creating vouchers").
 */
export const NO_CAMPAIGN = 'none';

/**
 * Inserts vouchers of no campaign (each code must be free: conditional puts, nothing overwritten),
 * with a caller's `guard` (an import's checkpoint) and `extra` items (a new category's) in the same transaction.
 * @returns as insertVouchers, without `campaign_missing`.
 * @throws ExtraItemsConflictError when an extra item's condition failed.
 */
export async function insertStandaloneVouchers(
  deps: Deps,
  vouchers: Voucher[],
  guard?: TransactItem,
  extra: readonly TransactItem[] = [],
): Promise<Exclude<InsertOutcome, { kind: 'campaign_missing' }>> {
  if (vouchers.length === 0 || vouchers.length > MAX_VOUCHERS_PER_TRANSACTION) {
    throw new Error(`insertStandaloneVouchers takes 1..${MAX_VOUCHERS_PER_TRANSACTION} vouchers`);
  }
  for (const v of vouchers) if (v.campaignId !== null) throw new Error(`Voucher ${v.id} belongs to campaign ${v.campaignId}`);
  const items: TransactItem[] = vouchers.flatMap((voucher) => voucherPutItems(deps, NO_CAMPAIGN, voucher));
  const guardIndex = guard ? items.push(guard) - 1 : -1;
  const extraFrom = items.push(...extra) - extra.length;
  // No condition: it never fails the insert, and moves only when the insert commits.
  items.push(countStandaloneItem(deps, vouchers[0]?.projectId ?? '', vouchers.length));
  const outcome = await transact(deps, items);
  if (outcome.ok) return { kind: 'ok' };
  if (!('failed' in outcome)) return { kind: 'conflict' };
  if (outcome.failed.includes(guardIndex)) return { kind: 'guard_failed' };
  if (outcome.failed.some((i) => i >= extraFrom)) throw new ExtraItemsConflictError();
  const codes = outcome.failed.filter((i) => i % 2 === 0 && i < 2 * vouchers.length).map((i) => vouchers[i / 2]?.code ?? '');
  if (codes.length === 0) throw new Error('A random voucher id collided');
  return { kind: 'codes_taken', codes };
}

/**
 * Moves the project's markers of vouchers of no campaign (entities.standaloneVoucherCounter) by
 * `n`: an insert raises `vouchersCount` and `vouchersInserted`, a delete (n < 0) lowers the count alone.
 */
const countStandaloneItem = (deps: Deps, projectId: string, n: number): TransactItem => ({
  Update: {
    TableName: deps.tableName,
    Key: standaloneVoucherCounter.key(projectId),
    UpdateExpression: n > 0 ? 'ADD vouchersCount :n, vouchersInserted :n' : 'ADD vouchersCount :n',
    ExpressionAttributeValues: { ':n': n },
  },
});

/**
 * Inserts one voucher of no campaign (see insertStandaloneVouchers).
 * @returns 'ok'; 'taken' when the code exists in the project (nothing written); 'conflict' on a lost race (retry as is).
 */
export async function insertStandaloneVoucher(deps: Deps, voucher: Voucher, extra: readonly TransactItem[] = []): Promise<'ok' | 'taken' | 'conflict'> {
  const outcome = await insertStandaloneVouchers(deps, [voucher], undefined, extra);
  return outcome.kind === 'ok' ? 'ok' : outcome.kind === 'codes_taken' ? 'taken' : 'conflict';
}
