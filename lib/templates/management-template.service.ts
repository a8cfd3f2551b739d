import { DuplicateError, NotFoundError } from '../errors.js';
import { requireProject } from '../projects/require-project.js';
import type { Runtime } from '../runtime.js';
import type { CampaignTemplate } from './campaign-template.js';
import * as repo from './campaign-template.repo.js';
import type { ListCampaignTemplatesQuery } from './campaign-template.schema.js';
import { type CampaignTemplatePage, listCampaignTemplates } from './campaign-template.service.js';
import type { CopyCampaignTemplateBody } from './management-template.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/**
 * management-list-campaign-templates: GET /v1/templates/campaigns for the project the path names.
 * @throws NotFoundError (project), InvalidQueryParamsError (as the project's own list).
 */
export async function managementListCampaignTemplates(deps: Deps, projectId: string, query: ListCampaignTemplatesQuery): Promise<CampaignTemplatePage> {
  await requireProject(deps, projectId);
  return listCampaignTemplates(deps, projectId, query);
}

/**
 * management-copy-campaign-template: a new template (new id) in the destination project, with the
 * source's campaign configuration and the name and description sent. The source's category is not
 * carried over: it names a category of the source project (the reference: resources are made in
 * the destination when the template is used).
 * @throws NotFoundError (project: source or destination; campaign_template), DuplicateError (the
 *   name is taken in the destination project).
 */
export async function managementCopyCampaignTemplate(
  deps: Deps & Pick<Runtime, 'clock' | 'ids'>,
  projectId: string,
  templateId: string,
  body: CopyCampaignTemplateBody,
): Promise<CampaignTemplate> {
  await Promise.all([requireProject(deps, projectId), requireProject(deps, body.destination_project_id)]);
  const source = await repo.getCampaignTemplate(deps, projectId, templateId);
  if (!source) throw new NotFoundError('campaign_template', templateId);
  const copy: CampaignTemplate = {
    id: deps.ids.id('camp_tpl'),
    projectId: body.destination_project_id,
    name: body.name,
    description: body.description ?? null,
    campaignType: source.campaignType,
    source: source.source,
    snapshot: { ...source.snapshot, category: null },
    createdAt: deps.clock.now().toISOString(),
    updatedAt: null,
  };
  if (!(await repo.insertCampaignTemplate(deps, copy))) {
    throw new DuplicateError('campaign_template', `Duplicated campaign_template exists with name ${copy.name}`, copy.name);
  }
  return copy;
}
