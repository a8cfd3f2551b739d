import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../db/keys.js';
import { queryAll } from '../db/query.js';
import type { TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { ReferralConversion } from './referral-conversion.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

const SCHEMA_VERSION = 1;

const toDomain = (item: Record<string, unknown>): ReferralConversion => {
  const { PK: _pk, SK: _sk, GSI1PK: _g1, GSI1SK: _g2, entity: _e, v: _v, ...rest } = item;
  return rest as unknown as ReferralConversion;
};

/** Whether the referred customer already converted the code (consistent read). */
export async function conversionExists(deps: Deps, projectId: string, campaignId: string, code: string, refereeId: string): Promise<boolean> {
  const res = await deps.ddb.send(
    new GetCommand({
      TableName: deps.tableName,
      Key: keys.referralConversion(projectId, campaignId, code, refereeId),
      ConsistentRead: true,
      ProjectionExpression: 'PK',
    }),
  );
  return res.Item !== undefined;
}

/** The transaction item recording a conversion; its condition fails when the referee already converted the code. */
export const putConversionItem = (deps: Deps, c: ReferralConversion): TransactItem => ({
  Put: {
    TableName: deps.tableName,
    Item: {
      ...keys.referralConversion(c.projectId, c.campaignId, c.code, c.refereeId),
      ...keys.referralConversionByReferrer(c.projectId, c.referrerId, c.createdAt, c.id),
      entity: 'referral_conversion',
      v: SCHEMA_VERSION,
      ...c,
    },
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});

/**
 * The transaction item raising the code's `referralConversions` counter; its condition fails when
 * the voucher is gone or was re-created under the same code since it was read.
 */
export const countConversionItem = (deps: Deps, projectId: string, code: string, voucherId: string): TransactItem => ({
  Update: {
    TableName: deps.tableName,
    Key: keys.voucher(projectId, code),
    UpdateExpression: 'ADD referralConversions :one',
    ConditionExpression: 'id = :id',
    ExpressionAttributeValues: { ':one': 1, ':id': voucherId },
  },
});

/** A code's conversions, in referee id order (one Query on the code's partition; consistent). */
export async function listConversionsOfCode(deps: Deps, projectId: string, campaignId: string, code: string): Promise<ReferralConversion[]> {
  const items = await queryAll(deps.ddb, {
    TableName: deps.tableName,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :c)',
    ExpressionAttributeValues: { ':pk': keys.referralConversionsOfCodePartition(projectId, campaignId, code), ':c': 'CONVERSION#' },
    ConsistentRead: true,
  });
  return items.map(toDomain);
}
