import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { listCampaignEntries } from '../campaigns/campaign.repo.js';
import { voucher as voucherEntity, voucherListKeys } from '../db/entities.js';
import { ENTITY_ATTR, tableDesign } from '../db/table.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from './voucher.js';
import { NO_CAMPAIGN } from './voucher.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** What the backfill did. */
export interface VoucherListBackfill {
  /** Vouchers found without their list entries. */
  found: number;
  /** Given their entries now. */
  updated: number;
  /** Deleted between the Scan and the write (nothing to do). */
  gone: number;
}

const { gsi2, gsi3 } = tableDesign.indexes;

/**
 * Gives vouchers written before GET /v1/vouchers existed the list entries a voucher written now
 * gets from its entity (voucherListKeys): the project's GSI3 entry and, when it has a holder, the
 * holder's GSI2 entry. Finds them with one filtered Scan of the table (an operator's one-off; no
 * request path scans), or, for one project (`projectId`), with a Query of each of its campaigns'
 * voucher lists and of its standalone vouchers' list. Each write is an UpdateItem conditioned
 * on the voucher being the one read (same id, creation time and holder), so a voucher deleted or
 * re-created meanwhile is left alone; the keys come from fields that never change once set, so a
 * rerun, or a publication racing it, writes the same values. Idempotent: a rerun finds nothing.
 */
export async function backfillVoucherLists(deps: Deps, projectId?: string): Promise<VoucherListBackfill> {
  const report: VoucherListBackfill = { found: 0, updated: 0, gone: 0 };
  const missing = `attribute_not_exists(#l) OR (attribute_type(holderId, :S) AND attribute_not_exists(#h))`;
  const names = { '#l': gsi3.partitionKey, '#h': gsi2.partitionKey };
  const fix = async (items: Record<string, unknown>[] | undefined): Promise<void> => {
    for (const item of items ?? []) {
      report.found += 1;
      if ((await setListKeys(deps, voucherEntity.fromItem(item))) === 'ok') report.updated += 1;
      else report.gone += 1;
    }
  };
  if (projectId !== undefined) {
    // One project: its campaigns' voucher lists (GSI1, every attribute projected) and the standalone
    // vouchers' list, Queried one by one, so the run reads that project's vouchers only.
    const campaignIds = [...(await listCampaignEntries(deps, projectId)).map((entry) => entry.id), NO_CAMPAIGN];
    for (const campaignId of campaignIds) {
      let start: Record<string, unknown> | undefined;
      do {
        const res = await deps.ddb.send(
          new QueryCommand({
            TableName: deps.tableName,
            IndexName: tableDesign.indexes.gsi1.name,
            KeyConditionExpression: 'GSI1PK = :pk',
            FilterExpression: missing,
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: { ':pk': voucherEntity.index.partition(projectId, campaignId), ':S': 'S' },
            ExclusiveStartKey: start,
          }),
        );
        await fix(res.Items);
        start = res.LastEvaluatedKey;
      } while (start);
    }
    return report;
  }
  let start: Record<string, unknown> | undefined;
  do {
    const res = await deps.ddb.send(
      new ScanCommand({
        TableName: deps.tableName,
        FilterExpression: `#entity = :entity AND (${missing})`,
        ExpressionAttributeNames: { '#entity': ENTITY_ATTR, ...names },
        ExpressionAttributeValues: { ':entity': voucherEntity.name, ':S': 'S' },
        ExclusiveStartKey: start,
      }),
    );
    await fix(res.Items);
    start = res.LastEvaluatedKey;
  } while (start);
  return report;
}

async function setListKeys(deps: Deps, v: Voucher): Promise<'ok' | 'gone'> {
  const keys = voucherListKeys(v);
  const names: Record<string, string> = { '#lpk': gsi3.partitionKey, '#lsk': gsi3.sortKey };
  const values: Record<string, unknown> = { ':lpk': keys.GSI3PK, ':lsk': keys.GSI3SK, ':id': v.id, ':createdAt': v.createdAt };
  const sets = ['#lpk = :lpk', '#lsk = :lsk'];
  let condition = 'id = :id AND createdAt = :createdAt';
  if (keys.GSI2PK !== undefined) {
    Object.assign(names, { '#hpk': gsi2.partitionKey, '#hsk': gsi2.sortKey });
    Object.assign(values, { ':hpk': keys.GSI2PK, ':hsk': keys.GSI2SK, ':holder': v.holderId });
    sets.push('#hpk = :hpk', '#hsk = :hsk');
    condition += ' AND holderId = :holder';
  }
  try {
    await deps.ddb.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: voucherEntity.key(v.projectId, v.code),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
    return 'ok';
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return 'gone';
    throw error;
  }
}
