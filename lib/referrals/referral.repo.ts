import { CONVERSION_SORT_PREFIX, referralConversion, voucher } from '../db/entities.js';
import type { TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { GrantedReward, ReferralConversion } from './referral-conversion.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** Whether the referred customer already converted the code (consistent read). */
export function conversionExists(deps: Deps, projectId: string, campaignId: string, code: string, refereeId: string): Promise<boolean> {
  return referralConversion.exists(deps, referralConversion.key(projectId, campaignId, code, refereeId));
}

/** The transaction item recording a conversion; its condition fails when the referee already converted the code. */
export const putConversionItem = (deps: Deps, c: ReferralConversion): TransactItem => referralConversion.putIfAbsent(deps, c);

/** The conversion's Put (putConversionItem) with the reward it grants in the same transaction. */
export const withGrantedReward = (item: TransactItem, reward: GrantedReward): TransactItem =>
  item.Put ? { Put: { ...item.Put, Item: { ...item.Put.Item, reward } } } : item;

/**
 * The transaction item raising the code's `referralConversions` counter; its condition fails when
 * the voucher is gone or was re-created under the same code since it was read.
 */
export const countConversionItem = (deps: Deps, projectId: string, code: string, voucherId: string): TransactItem => ({
  Update: {
    TableName: deps.tableName,
    Key: voucher.key(projectId, code),
    UpdateExpression: 'ADD referralConversions :one',
    ConditionExpression: 'id = :id',
    ExpressionAttributeValues: { ':one': 1, ':id': voucherId },
  },
});

/** A code's conversions, in referee id order (one Query on the code's partition; consistent). */
export function listConversionsOfCode(deps: Deps, projectId: string, campaignId: string, code: string): Promise<ReferralConversion[]> {
  return referralConversion.query(deps, { key: [projectId, campaignId, code] }, { consistent: true, sortBeginsWith: `${CONVERSION_SORT_PREFIX}#` });
}
