import { keys } from '../db/keys.js';
import { backoff, MAX_CONFLICT_ATTEMPTS, transact } from '../db/transact.js';
import { ConflictRetryError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { CampaignTemplate } from './campaign-template.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

const SCHEMA_VERSION = 1;

/**
 * Writes a template and reserves its name in one transaction.
 * @returns false when the name is taken in the project (nothing is written).
 */
export async function insertCampaignTemplate(deps: Deps, template: CampaignTemplate): Promise<boolean> {
  const p = template.projectId;
  for (let attempt = 0; attempt < MAX_CONFLICT_ATTEMPTS; attempt += 1) {
    const outcome = await transact(deps, [
      {
        Put: {
          TableName: deps.tableName,
          Item: { ...keys.campaignTemplateName(p, template.name), entity: 'campaign_template_name', v: SCHEMA_VERSION, templateId: template.id },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      {
        Put: {
          TableName: deps.tableName,
          Item: { ...keys.campaignTemplate(p, template.id), entity: 'campaign_template', v: SCHEMA_VERSION, ...template },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    ]);
    if (outcome.ok) return true;
    if ('failed' in outcome) {
      if (outcome.failed.includes(0)) return false;
      throw new Error(`Template id ${template.id} is already taken`);
    }
    await backoff(attempt);
  }
  throw new ConflictRetryError(`Too many concurrent writes of template ${template.name}`);
}
