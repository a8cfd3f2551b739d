import type { AsyncAction } from '../async-actions/async-action.js';
import type { Campaign } from '../campaigns/campaign.js';
import { deleteCampaign, updateCampaign } from '../campaigns/campaign-lifecycle.service.js';
import { type CampaignPage, createCampaign, getCampaign, listCampaigns } from '../campaigns/campaign.service.js';
import { NotFoundError } from '../errors.js';
import type { JobQueue } from '../jobs/job.js';
import type { Runtime } from '../runtime.js';
import type { ValidationRuleAssignment } from '../validation-rules/validation-rule.js';
import { assignmentsOf } from '../validation-rules/validation-rule.service.js';
import type { UpdateLoyaltyProgramBody } from './loyalty-program-lifecycle.schema.js';
import type { ListLoyaltyProgramsQuery } from './loyalty-program-list.schema.js';
import type { CreateLoyaltyProgramBody } from './loyalty-program.schema.js';
import { findLoyaltyCampaign } from './loyalty.service.js';

/*
 * The /v1/loyalties doors onto the LOYALTY_PROGRAM campaigns of /v1/campaigns: one store, the
 * campaign services do the work, these only fix the type. A campaign of another type is 404 here
 * (docs/decisions.md "Loyalty programs are campaigns").
 */

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/** A program with its validation rule assignments, as GET /v1/campaigns/{campaignId} answers it. */
export interface ProgramView {
  campaign: Campaign;
  assignments: ValidationRuleAssignment[];
}

/**
 * POST /v1/loyalties: createCampaign with LOYALTY_PROGRAM.
 * @throws what createCampaign throws (DuplicateError for a taken name, NotFoundError for category_id, …).
 */
export function createLoyaltyProgram(deps: Deps & { jobs: JobQueue }, projectId: string, body: CreateLoyaltyProgramBody, requestId: string): Promise<Campaign> {
  return createCampaign(deps, projectId, body, requestId);
}

/** GET /v1/loyalties: listCampaigns of type LOYALTY_PROGRAM (served by the type's view, as GET /v1/campaigns?campaign_type=… is). */
export function listLoyaltyPrograms(deps: Deps, projectId: string, query: ListLoyaltyProgramsQuery): Promise<CampaignPage> {
  return listCampaigns(deps, projectId, { ...query, campaign_type: 'LOYALTY_PROGRAM' });
}

/**
 * GET /v1/loyalties/{campaignId} (id or name).
 * @throws NotFoundError (campaign: missing, or not a loyalty program).
 */
export async function getLoyaltyProgram(deps: Deps, projectId: string, ref: string): Promise<ProgramView> {
  const view = await getCampaign(deps, projectId, ref);
  if (view.campaign.campaignType !== 'LOYALTY_PROGRAM') throw new NotFoundError('campaign', ref);
  return view;
}

/**
 * PUT /v1/loyalties/{campaignId}: updateCampaign on the program (its type never changes, so the
 * check before holds for the write). The body has no `discount` or `gift`, so no async action starts.
 * @throws NotFoundError (campaign: missing, or not a loyalty program), and what updateCampaign throws.
 */
export async function updateLoyaltyProgram(
  deps: Deps & { jobs: JobQueue },
  projectId: string,
  ref: string,
  body: UpdateLoyaltyProgramBody,
  requestId: string,
): Promise<ProgramView> {
  const program = await findLoyaltyCampaign(deps, projectId, ref);
  const { campaign } = await updateCampaign(deps, projectId, program.id, body, requestId);
  return { campaign, assignments: await assignmentsOf(deps, projectId, campaign.id) };
}

/**
 * DELETE /v1/loyalties/{campaignId}: deleteCampaign on the program (to the bin, or for good with
 * `force`); its cards follow through the CAMPAIGN.VOUCHERS_DELETE async action.
 * @throws NotFoundError (campaign: missing, or not a loyalty program), and what deleteCampaign throws.
 */
export async function deleteLoyaltyProgram(
  deps: Deps & { jobs: JobQueue },
  projectId: string,
  ref: string,
  force: boolean,
  requestId: string,
): Promise<AsyncAction> {
  const program = await findLoyaltyCampaign(deps, projectId, ref);
  return deleteCampaign(deps, projectId, program.id, force, requestId);
}
