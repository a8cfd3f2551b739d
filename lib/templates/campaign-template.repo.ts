import { campaignTemplate, campaignTemplateName } from '../db/entities.js';
import { putUnique } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { CampaignTemplate } from './campaign-template.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/**
 * Writes a template and reserves its name in one transaction.
 * @returns false when the name is taken in the project (nothing is written).
 */
export function insertCampaignTemplate(deps: Deps, template: CampaignTemplate): Promise<boolean> {
  const name = campaignTemplateName.toItem({ templateId: template.id }, template.projectId, template.name);
  return putUnique(deps, name, [campaignTemplate.toItem(template)], {
    busy: `Too many concurrent writes of template ${template.name}`,
    taken: `Template id ${template.id} is already taken`,
  });
}
