import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { listCampaignEntries } from '../campaigns/campaign.repo.js';
import { voucher as voucherEntity } from '../db/entities.js';
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

const { gsi2, gsi3, gsi4, gsi5 } = tableDesign.indexes;

/**
 * Gives vouchers written before GET /v1/vouchers existed the index entries a voucher written now
 * gets from its entity (voucherEntity.keysOf): the project's GSI3 entry, its GSI5 entry at its last
 * change (vouchers written before the change list lack it; set only where still absent, so a change
 * racing the backfill, which sets its own, wins), its category's GSI4 entry
 * when it has a category (vouchers written before GET /v1/vouchers?category= lack it), and, in
 * GSI2, the holder's entry when it has a holder, or its campaign's pool entry while it is
 * publishable (vouchers written before campaign publications existed lack it). Finds them with one filtered Scan of the table (an operator's one-off; no
 * request path scans), or, for one project (`projectId`), with a Query of each of its campaigns'
 * voucher lists and of its standalone vouchers' list. Each write is an UpdateItem conditioned
 * on the voucher being the one read (same id, creation time and holder), so a voucher deleted or
 * re-created meanwhile is left alone; the keys come from fields that never change once set, so a
 * rerun, or a publication racing it, writes the same values. Idempotent: a rerun finds nothing.
 */
export async function backfillVoucherLists(deps: Deps, projectId?: string): Promise<VoucherListBackfill> {
  const report: VoucherListBackfill = { found: 0, updated: 0, gone: 0 };
  // Missing: the GSI3 entry; or the GSI2 entry of a held voucher (holder list) or of a publishable
  // one (its campaign's pool: vouchers written before publications existed lack it, so a campaign
  // publication could never pick them). The pool test is isPublishable's, in DynamoDB's terms.
  const publishable = 'attribute_type(campaignId, :S) AND attribute_type(holderId, :NULL) AND publishCount = :zero AND active = :true';
  const missing = `attribute_not_exists(#l) OR attribute_not_exists(#u) OR (attribute_not_exists(#c) AND attribute_type(#cat, :M)) OR (attribute_not_exists(#h) AND (attribute_type(holderId, :S) OR (${publishable})))`;
  const names = { '#l': gsi3.partitionKey, '#u': gsi5.partitionKey, '#h': gsi2.partitionKey, '#c': gsi4.partitionKey, '#cat': 'category' };
  const missingValues = { ':S': 'S', ':M': 'M', ':NULL': 'NULL', ':zero': 0, ':true': true };
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
            ExpressionAttributeValues: { ':pk': voucherEntity.index.partition(projectId, campaignId), ...missingValues },
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
        ExpressionAttributeValues: { ':entity': voucherEntity.name, ...missingValues },
        ExclusiveStartKey: start,
      }),
    );
    await fix(res.Items);
    start = res.LastEvaluatedKey;
  } while (start);
  return report;
}

async function setListKeys(deps: Deps, v: Voucher): Promise<'ok' | 'gone'> {
  // The keys a Put of this voucher writes today: GSI3, and in GSI2 the holder entry or the pool entry.
  const keys = voucherEntity.keysOf(v, v.campaignId ?? NO_CAMPAIGN);
  const names: Record<string, string> = { '#lpk': gsi3.partitionKey, '#lsk': gsi3.sortKey, '#upk': gsi5.partitionKey, '#usk': gsi5.sortKey };
  const values: Record<string, unknown> = {
    ':lpk': keys.GSI3PK,
    ':lsk': keys.GSI3SK,
    ':upk': keys.GSI5PK,
    ':usk': keys.GSI5SK,
    ':id': v.id,
    ':createdAt': v.createdAt,
  };
  // A change since the read set the GSI5 entry at its own time: if_not_exists keeps that one.
  const sets = ['#lpk = :lpk', '#lsk = :lsk', '#upk = if_not_exists(#upk, :upk)', '#usk = if_not_exists(#usk, :usk)'];
  let condition = 'id = :id AND createdAt = :createdAt';
  if (keys.GSI4PK !== undefined && v.category) {
    // The category entry holds only while the voucher still has that category (a PUT racing the
    // backfill sets its own entry, and this write is left out: 'gone').
    Object.assign(names, { '#cpk': gsi4.partitionKey, '#csk': gsi4.sortKey, '#cat': 'category' });
    Object.assign(values, { ':cpk': keys.GSI4PK, ':csk': keys.GSI4SK, ':category': v.category.id });
    sets.push('#cpk = :cpk', '#csk = :csk');
    condition += ' AND #cat.id = :category';
  }
  if (keys.GSI2PK !== undefined) {
    Object.assign(names, { '#hpk': gsi2.partitionKey, '#hsk': gsi2.sortKey });
    Object.assign(values, { ':hpk': keys.GSI2PK, ':hsk': keys.GSI2SK });
    sets.push('#hpk = :hpk', '#hsk = :hsk');
    if (v.holderId !== null) {
      values[':holder'] = v.holderId;
      condition += ' AND holderId = :holder';
    } else {
      // A pool entry holds only while the voucher is still publishable (a publication or a disable
      // racing the backfill leaves it alone: 'gone', and the writer set the right entry itself).
      Object.assign(values, { ':NULL': 'NULL', ':zero': 0, ':true': true });
      condition += ' AND attribute_type(holderId, :NULL) AND publishCount = :zero AND active = :true';
    }
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
