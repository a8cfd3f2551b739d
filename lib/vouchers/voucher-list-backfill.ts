import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { voucher as voucherEntity, voucherListKeys } from '../db/entities.js';
import { ENTITY_ATTR, tableDesign } from '../db/table.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from './voucher.js';

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
 * request path scans), of one project with `projectId`. Each write is an UpdateItem conditioned
 * on the voucher being the one read (same id, creation time and holder), so a voucher deleted or
 * re-created meanwhile is left alone; the keys come from fields that never change once set, so a
 * rerun, or a publication racing it, writes the same values. Idempotent: a rerun finds nothing.
 */
export async function backfillVoucherLists(deps: Deps, projectId?: string): Promise<VoucherListBackfill> {
  const report: VoucherListBackfill = { found: 0, updated: 0, gone: 0 };
  const prefix = projectId === undefined ? null : voucherEntity.key.partition(projectId, '');
  let start: Record<string, unknown> | undefined;
  do {
    const res = await deps.ddb.send(
      new ScanCommand({
        TableName: deps.tableName,
        FilterExpression: `#entity = :entity AND (attribute_not_exists(#l) OR (attribute_type(holderId, :S) AND attribute_not_exists(#h)))${prefix ? ' AND begins_with(PK, :prefix)' : ''}`,
        ExpressionAttributeNames: { '#entity': ENTITY_ATTR, '#l': gsi3.partitionKey, '#h': gsi2.partitionKey },
        ExpressionAttributeValues: { ':entity': voucherEntity.name, ':S': 'S', ...(prefix ? { ':prefix': prefix } : {}) },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of res.Items ?? []) {
      report.found += 1;
      const v = voucherEntity.fromItem(item);
      if ((await setListKeys(deps, v)) === 'ok') report.updated += 1;
      else report.gone += 1;
    }
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
