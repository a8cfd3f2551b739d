import { countAdd } from '../db/counters.js';
import { campaignTemplate, campaignTemplateCounter, campaignTemplateName } from '../db/entities.js';
import type { ItemKeys } from '../db/entity.js';
import { RETRY, retryOnConflict, transact, type TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { CampaignTemplate, TemplateCampaignType } from './campaign-template.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** Adds `n` to the project's template counter (created at its first template). */
function countItem(deps: Pick<Runtime, 'tableName'>, projectId: string, n: number): TransactItem {
  return countAdd(deps, campaignTemplateCounter, campaignTemplateCounter.key(projectId), n);
}

/** Deletes the reservation of the template's name, which must still name this template. */
function releaseName(deps: Pick<Runtime, 'tableName'>, read: CampaignTemplate): TransactItem {
  return {
    Delete: {
      TableName: deps.tableName,
      Key: campaignTemplateName.key(read.projectId, read.name),
      ConditionExpression: 'templateId = :id',
      ExpressionAttributeValues: { ':id': read.id },
    },
  };
}

/**
 * Writes a template, reserves its name and counts it, in one transaction (retried on a lost race).
 * @returns false when the name is taken in the project (nothing is written).
 */
export function insertCampaignTemplate(deps: Deps, template: CampaignTemplate): Promise<boolean> {
  const items: TransactItem[] = [
    campaignTemplateName.putIfAbsent(deps, { templateId: template.id }, template.projectId, template.name),
    campaignTemplate.putIfAbsent(deps, template),
    countItem(deps, template.projectId, 1),
  ];
  return retryOnConflict(`Too many concurrent writes of template ${template.name}`, async () => {
    const outcome = await transact(deps, items);
    if (outcome.ok) return true;
    if (!('failed' in outcome)) return RETRY;
    if (outcome.failed.includes(0)) return false;
    throw new Error(`Template id ${template.id} is already taken`);
  });
}

/** A template by id, read strongly consistently; null if none. */
export function getCampaignTemplate(deps: Deps, projectId: string, templateId: string): Promise<CampaignTemplate | null> {
  return campaignTemplate.get(deps, campaignTemplate.key(projectId, templateId));
}

/** How many templates the project has (0 before its first). */
export async function countCampaignTemplates(deps: Deps, projectId: string): Promise<number> {
  return (await campaignTemplateCounter.get(deps, campaignTemplateCounter.key(projectId)))?.count ?? 0;
}

export interface TemplatePageQuery {
  limit: number;
  ascending: boolean;
  /** Only templates of this type (GSI2), else all (GSI1). */
  campaignType: TemplateCampaignType | null;
  /** The template the page starts after, in the page's order. */
  after: CampaignTemplate | null;
}

/**
 * One page of a project's templates in creation order (or its reverse): one Query of GSI1, or of
 * GSI2 for one campaign type, of `limit + 1` items (the extra one only says whether more follow),
 * starting after `after`'s key. Nothing else of the partition is read. The indexes are eventually
 * consistent: a template created a moment ago may be missing for a moment.
 */
export async function listCampaignTemplatePage(
  deps: Deps,
  projectId: string,
  q: TemplatePageQuery,
): Promise<{ templates: CampaignTemplate[]; hasMore: boolean }> {
  const options = { ascending: q.ascending, pageSize: q.limit + 1, startAfter: q.after ? startKey(q.after, q.campaignType) : undefined };
  const found =
    q.campaignType === null
      ? await campaignTemplate.queryPage(deps, { index: [projectId] }, options)
      : await campaignTemplate.queryPage(deps, { sparse: [projectId, q.campaignType] }, options);
  return { templates: found.slice(0, q.limit), hasMore: found.length > q.limit };
}

/**
 * The ExclusiveStartKey of a Query after `t`: the table key and the queried index's key only. For a
 * type's partition it is `t`'s place in that partition, also when `t` is of the other type (the
 * key need not be an item's: the Query starts after where it would sort).
 */
function startKey(t: CampaignTemplate, campaignType: TemplateCampaignType | null): ItemKeys {
  const { PK, SK, GSI1PK, GSI1SK, GSI2PK, GSI2SK } = campaignTemplate.keysOf(campaignType ? { ...t, campaignType } : t);
  return campaignType ? { PK, SK, GSI2PK, GSI2SK } : { PK, SK, GSI1PK, GSI1SK };
}

/** What a template write came to: written; the new name is taken; the template changed or went since it was read. */
export type TemplateWriteOutcome = 'ok' | 'name_taken' | 'changed';

/**
 * Replaces the template `read` with `next` (same id) if it still has the name and update time it
 * was read with. A new name moves the reservation in the same transaction: the new one is put only
 * if free, the old one deleted.
 */
export async function replaceCampaignTemplate(deps: Deps, read: CampaignTemplate, next: CampaignTemplate): Promise<TemplateWriteOutcome> {
  const items: TransactItem[] = [
    {
      Put: {
        TableName: deps.tableName,
        Item: campaignTemplate.toItem(next),
        ConditionExpression:
          read.updatedAt === null ? '#name = :name AND (attribute_not_exists(updatedAt) OR updatedAt = :null)' : '#name = :name AND updatedAt = :at',
        ExpressionAttributeNames: { '#name': 'name' },
        ExpressionAttributeValues: { ':name': read.name, ...(read.updatedAt === null ? { ':null': null } : { ':at': read.updatedAt }) },
      },
    },
  ];
  const renamed = next.name !== read.name;
  if (renamed) items.push(campaignTemplateName.putIfAbsent(deps, { templateId: read.id }, read.projectId, next.name), releaseName(deps, read));
  return retryOnConflict(`Too many concurrent writes of template ${read.id}`, async () => {
    const outcome = await transact(deps, items);
    if (outcome.ok) return 'ok';
    if (!('failed' in outcome)) return RETRY;
    if (outcome.failed.includes(0) || outcome.failed.includes(2)) return 'changed';
    return 'name_taken';
  });
}

/**
 * Deletes the template `read`, frees its name and uncounts it, in one transaction.
 * @returns 'gone' when the template is gone already, 'changed' when it was renamed since it was read (nothing is written).
 */
export async function removeCampaignTemplate(deps: Deps, read: CampaignTemplate): Promise<'ok' | 'gone' | 'changed'> {
  const items: TransactItem[] = [
    {
      Delete: {
        TableName: deps.tableName,
        Key: campaignTemplate.key(read.projectId, read.id),
        ConditionExpression: 'attribute_exists(PK)',
      },
    },
    releaseName(deps, read),
    countItem(deps, read.projectId, -1),
  ];
  return retryOnConflict(`Too many concurrent writes of template ${read.id}`, async () => {
    const outcome = await transact(deps, items);
    if (outcome.ok) return 'ok';
    if (!('failed' in outcome)) return RETRY;
    return outcome.failed.includes(0) ? 'gone' : 'changed';
  });
}
