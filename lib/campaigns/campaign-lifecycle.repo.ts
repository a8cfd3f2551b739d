import * as entities from '../db/entities.js';
import type { ItemKey } from '../db/entity.js';
import { RETRY, retryOnConflict, transact, type TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { Campaign, CampaignCounter, CampaignListEntry } from './campaign.js';
import { countedStatusMove, getCampaignCounter, viewEntryItems } from './campaign.repo.js';
import { DELETED, MAX_NOT_DONE, notDoneRecord } from './campaign-views.js';

/**
 * Writes that change or delete a campaign after its creation (PUT, enable, disable, DELETE). Each
 * is one transaction over the campaign, its list entry (and view entries) and the project's
 * campaign counter, conditioned on the campaign's `revision` as read: of racing writes of one
 * campaign only one commits per revision, the others re-read (retryOnConflict) and write on top.
 */

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/**
 * The campaign fields a change may set; the rest (type of campaign, tiers, counts, status) are never
 * written here. `voucher` (the template: a new discount or gift) is set whole; its vouchers follow
 * through CAMPAIGN.VOUCHERS_UPDATE (campaign-vouchers-update.ts).
 */
export type CampaignChange = Partial<
  Pick<
    Campaign,
    | 'description'
    | 'startDate'
    | 'expirationDate'
    | 'validityTimeframe'
    | 'validityDayOfWeek'
    | 'validityHours'
    | 'category'
    | 'metadata'
    | 'activityDurationAfterPublishing'
    | 'joinOnce'
    | 'autoJoin'
    | 'type'
    | 'active'
    | 'referralProgram'
    | 'voucher'
    | 'loyaltyTiersExpiration'
    | 'lastChange'
  >
>;

/** The list entry fields that follow a change (campaign.repo.ts listEntryOf), from the campaign as it will be. */
function listEntryChange(next: Campaign): Partial<CampaignListEntry> {
  return {
    type: next.type,
    categoryId: next.category?.id ?? null,
    categoryName: next.category?.name ?? null,
    active: next.active,
    startDate: next.startDate,
    expirationDate: next.expirationDate,
    validityDayOfWeek: next.validityDayOfWeek,
    updatedAt: next.updatedAt,
  };
}

/** `SET a = :a, …` over the given fields, with their names and values (names aliased: some are reserved words). */
function setAll(fields: Record<string, unknown>, prefix: string) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const parts = Object.entries(fields).map(([field, value], i) => {
    names[`#${prefix}${i}`] = field;
    values[`:${prefix}${i}`] = value;
    return `#${prefix}${i} = :${prefix}${i}`;
  });
  return { parts, names, values };
}

/**
 * The condition that the campaign item is still at the revision read (absent = 0: never changed)
 * and, for a promotion, still has the tiers read (a tier added meanwhile does not raise the revision).
 */
export function revisionCondition(read: Campaign): { ConditionExpression: string; values: Record<string, unknown> } {
  const revision = read.revision ?? 0;
  const tiers = read.promotionTiers ? ' AND size(promotionTiers) = :tiers' : '';
  const tierValues = read.promotionTiers ? { ':tiers': read.promotionTiers.length } : {};
  return revision === 0
    ? { ConditionExpression: `attribute_exists(PK) AND attribute_not_exists(revision)${tiers}`, values: tierValues }
    : { ConditionExpression: `attribute_exists(PK) AND revision = :rev${tiers}`, values: { ':rev': revision, ...tierValues } };
}

/**
 * The counter's part of a change: the first change in a project marks `campaignsUpdated`, so
 * listings stop serving `updated_at` orders from creation order. Null once it is marked.
 */
function markUpdatedItem(deps: Deps, projectId: string, counter: CampaignCounter | null): TransactItem | null {
  if (!counter || counter.campaignsUpdated) return null;
  return {
    Update: {
      TableName: deps.tableName,
      Key: entities.campaignCounter.key(projectId),
      UpdateExpression: 'SET campaignsUpdated = :true',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':true': true },
    },
  };
}

/** What a write of a campaign came to: written; the campaign changed or went since it was read (re-read); a condition of `extra` failed. */
export type CampaignWriteOutcome = 'ok' | 'changed' | 'extra_failed';

/**
 * Writes `change` onto the campaign `read`, its list entry and (on the project's first change) the
 * counter, in one transaction that holds only while the campaign is at the revision read. Only the
 * named fields are SET on the campaign item, so promotion tiers appended meanwhile
 * (promotion-tier.repo.ts) and `vouchersCount` are never overwritten. `extra` items (a new
 * category's) join the transaction. A lost race on the counter is retried here.
 * @returns the outcome and, when written, the campaign as it now is.
 */
export function changeCampaign(
  deps: Deps,
  read: Campaign,
  change: CampaignChange,
  now: string,
  extra: readonly TransactItem[] = [],
  /** Also hold only while the campaign has exactly the `vouchersCount` read (a change of its vouchers' template decides on it). */
  options: { pinVouchersCount?: boolean } = {},
): Promise<{ outcome: CampaignWriteOutcome; campaign?: Campaign }> {
  const p = read.projectId;
  const revision = (read.revision ?? 0) + 1;
  const next: Campaign = { ...read, ...change, updatedAt: now, revision };
  const own = setAll({ ...change, updatedAt: now, revision }, 'c');
  const byRevision = revisionCondition(read);
  const cond = options.pinVouchersCount
    ? {
        ConditionExpression: `${byRevision.ConditionExpression} AND vouchersCount = :vcRead`,
        values: { ...byRevision.values, ':vcRead': read.vouchersCount },
      }
    : byRevision;
  const entry = setAll(listEntryChange(next), 'e');
  const items: TransactItem[] = [
    {
      Update: {
        TableName: deps.tableName,
        Key: entities.campaign.key(p, read.id),
        UpdateExpression: `SET ${own.parts.join(', ')}`,
        ConditionExpression: cond.ConditionExpression,
        ExpressionAttributeNames: own.names,
        ExpressionAttributeValues: { ...own.values, ...cond.values },
      },
    },
    {
      Update: {
        TableName: deps.tableName,
        Key: entities.campaignListEntry.key(p, read.createdAt, read.id),
        UpdateExpression: `SET ${entry.parts.join(', ')}`,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: entry.names,
        ExpressionAttributeValues: entry.values,
      },
    },
  ];
  const extraFrom = items.push(...extra) - extra.length;
  return retryOnConflict(`Too many concurrent writes: campaign ${read.id}`, async () => {
    const mark = markUpdatedItem(deps, p, await getCampaignCounter(deps, p));
    const outcome = await transact(deps, mark ? [...items, mark] : items);
    if (outcome.ok) return { outcome: 'ok' as const, campaign: next };
    if (!('failed' in outcome)) return RETRY;
    if (outcome.failed.includes(0)) return { outcome: 'changed' as const };
    if (outcome.failed.some((i) => i >= extraFrom && i < extraFrom + extra.length)) return { outcome: 'extra_failed' as const };
    if (outcome.failed.includes(1)) throw new Error(`Campaign ${read.id} has no list entry`);
    return RETRY;
  });
}

/**
 * The counter's part of a delete, planned from the counter as read: `deletedCount` + 1, and, where
 * the project's `notDone` set is kept, the campaign's record there becomes DELETED (added from its
 * list entry's numbers when it was DONE), so every page plan skips its numbers. Where the set is
 * not kept (no views yet, or overflow) only the counts move; listings then read the list entries
 * (campaign.service.ts planFromCounter), and `statusMoves` tells a running backfill.
 */
function deleteCounterWrite(deps: Deps, read: Campaign, counter: CampaignCounter, entry: CampaignListEntry | null): TransactItem {
  const Key = entities.campaignCounter.key(read.projectId);
  const TableName = deps.tableName;
  if (!counter.views || counter.notDoneOverflow) return countedStatusMove(deps, read.projectId, counter, ['deletedCount']);
  if (!entry?.viewNumbers) throw new Error(`Campaign ${read.id} has no view numbers on its list entry although its project's views are complete`);
  const current = counter.notDone?.[read.id];
  const names: Record<string, string> = { '#views': 'views', '#notDone': 'notDone', '#id': read.id };
  const values: Record<string, unknown> = { ':one': 1 };
  let condition = 'attribute_exists(#views) AND attribute_not_exists(notDoneOverflow) AND ';
  if (current) {
    names['#s'] = 's';
    Object.assign(values, { ':old': current.s, ':deleted': DELETED });
    condition += '#notDone.#id.#s = :old';
    return {
      Update: {
        TableName,
        Key,
        UpdateExpression: 'SET #notDone.#id.#s = :deleted ADD deletedCount :one',
        ConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    };
  }
  condition += 'attribute_not_exists(#notDone.#id)';
  if (Object.keys(counter.notDone ?? {}).length >= MAX_NOT_DONE) {
    Object.assign(values, { ':true': true, ':empty': {} });
    return {
      Update: {
        TableName,
        Key,
        UpdateExpression: 'SET notDoneOverflow = :true, #notDone = :empty ADD statusMoves :one, deletedCount :one',
        ConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    };
  }
  Object.assign(values, {
    ':record': notDoneRecord(DELETED, entry.campaignType, entry.isReferralCode, entry.sequence, entry.viewNumbers),
    ':cap': MAX_NOT_DONE,
  });
  return {
    Update: {
      TableName,
      Key,
      UpdateExpression: 'SET #notDone.#id = :record ADD deletedCount :one',
      ConditionExpression: `${condition} AND size(#notDone) < :cap`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * Deletes the campaign `read` in one transaction: the campaign item (only at the revision read),
 * its name reservation (the name is free at once), its list entry and view entries, its promotion
 * tier pointers, and its place in the counter (deleteCounterWrite); `extra` items (the async
 * action that deletes its vouchers, its open-job marker, the bin entry) join it. A lost race on the
 * counter is re-read and retried here.
 * @returns 'changed' when the campaign changed or went since it was read (nothing written).
 */
export function removeCampaign(deps: Deps, read: Campaign, extra: readonly TransactItem[]): Promise<CampaignWriteOutcome> {
  const p = read.projectId;
  const del = (Key: ItemKey): TransactItem => ({ Delete: { TableName: deps.tableName, Key } });
  const cond = revisionCondition(read);
  return retryOnConflict(`Too many concurrent writes: campaign ${read.id}`, async () => {
    const [counter, entry] = await Promise.all([
      getCampaignCounter(deps, p),
      entities.campaignListEntry.get(deps, entities.campaignListEntry.key(p, read.createdAt, read.id)),
    ]);
    // Its list entry goes only with the campaign: a concurrent delete won since the campaign was read.
    if (!entry) return 'changed';
    const items: TransactItem[] = [
      {
        Delete: {
          TableName: deps.tableName,
          Key: entities.campaign.key(p, read.id),
          ConditionExpression: cond.ConditionExpression,
          ...(Object.keys(cond.values).length > 0 ? { ExpressionAttributeValues: cond.values } : {}),
        },
      },
      {
        Delete: {
          TableName: deps.tableName,
          Key: entities.campaignName.key(p, read.name),
          ConditionExpression: 'campaignId = :id',
          ExpressionAttributeValues: { ':id': read.id },
        },
      },
      del(entities.campaignListEntry.key(p, read.createdAt, read.id)),
      ...(entry?.viewNumbers ? viewEntryItems(p, entry, entry.viewNumbers).map((item) => del({ PK: item.PK, SK: item.SK } as ItemKey)) : []),
      ...(read.promotionTiers ?? []).map((tier) => del(entities.promotionTierRef.key(p, tier.id))),
      ...(counter ? [deleteCounterWrite(deps, read, counter, entry)] : []),
    ];
    const extraFrom = items.push(...extra) - extra.length;
    const outcome = await transact(deps, items);
    if (outcome.ok) return 'ok';
    if (!('failed' in outcome)) return RETRY;
    if (outcome.failed.includes(0)) return 'changed';
    if (outcome.failed.some((i) => i >= extraFrom)) return 'extra_failed';
    if (outcome.failed.includes(1)) throw new Error(`Campaign ${read.id} does not hold its name reservation`);
    // The counter moved since it was read (a creation, a status change): plan it again.
    return RETRY;
  });
}
