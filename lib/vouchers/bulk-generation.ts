import { type AsyncAction, newAsyncAction } from '../async-actions/async-action.js';
import { failAsyncAction, finishAsyncAction, getAsyncAction, insertAsyncAction, progressItem, startAsyncAction } from '../async-actions/async-action.repo.js';
import { assertGeneratesVouchers, type VoucherCampaign } from '../campaigns/campaign.js';
import { getCampaign, setCampaignStatus } from '../campaigns/campaign.repo.js';
import { AppError, ConflictRetryError } from '../errors.js';
import type { TransactItem } from '../db/transact.js';
import type { JobQueue } from '../jobs/job.js';
import { stopIfAsked } from '../jobs/job-stop.js';
import type { Runtime } from '../runtime.js';
import { assertCodesFit, CampaignChangedError, GenerationGuardFailedError, generateVouchers, type VoucherOverrides } from './voucher-generation.js';
import { MAX_VOUCHERS_PER_TRANSACTION } from './voucher.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/**
 * Starts a bulk generation: checks up front that the code space holds `count` more codes, writes
 * the async action (ENQUEUED) and puts its job on the queue. When the queue refuses, the action
 * (and, for a new campaign, the campaign) is marked FAILED before the error goes on.
 * @throws CodeSpaceExhaustedError, InvalidPayloadError (codes too long), Error (queue unavailable).
 */
export async function enqueueVoucherGeneration(
  deps: Deps & { jobs: JobQueue },
  campaign: VoucherCampaign,
  count: number,
  overrides: VoucherOverrides,
  options: { requestId: string; campaignCreation: boolean },
  /** Written with the action (a new category's items); see insertAsyncAction. */
  extra: readonly TransactItem[] = [],
): Promise<AsyncAction> {
  const config = overrides.codeConfig ?? campaign.voucher.codeConfig;
  assertCodesFit(config, count, overrides.codeConfig ? 0 : campaign.vouchersCount);
  const now = deps.clock.now().toISOString();
  const action = newAsyncAction(
    {
      id: deps.ids.id('aa'),
      projectId: campaign.projectId,
      type: 'CAMPAIGN.VOUCHERS_GENERATE',
      requestId: options.requestId,
      campaignId: campaign.id,
      requested: count,
      campaignCreation: options.campaignCreation,
      overrides,
    },
    now,
  );
  await insertAsyncAction(deps, action, extra);
  try {
    await deps.jobs.send({ type: 'generate-vouchers', projectId: action.projectId, asyncActionId: action.id });
  } catch (error) {
    await failGeneration(deps, action.projectId, action.id, 'The generation job could not be enqueued');
    throw error;
  }
  return action;
}

/**
 * Marks a generation FAILED with a reason (and its new campaign's creation status with it).
 * Does nothing to an action that is already final: a status never moves back.
 * @returns true when this call moved the action to FAILED; false when it was final or missing.
 */
export async function failGeneration(deps: Deps, projectId: string, asyncActionId: string, reason: string): Promise<boolean> {
  const failed = await failAsyncAction(deps, projectId, asyncActionId, reason, deps.clock.now().toISOString());
  if (!failed) return false;
  if (!failed.campaignCreation) return true;
  const campaign = await getCampaign(deps, projectId, failed.campaignId);
  if (campaign) await setCampaignStatus(deps, campaign, 'FAILED');
  return true;
}

/** Changes of the campaign (PUT, enable, disable) one run re-reads it for before it leaves the job for a retry. */
const MAX_CAMPAIGN_CHANGES = 50;

/**
 * The generation's campaign as stored now; when it is gone the action is marked FAILED and null returned.
 * @throws InvalidCampaignError when it cannot hold generated vouchers.
 */
async function currentCampaign(deps: Deps, action: AsyncAction): Promise<VoucherCampaign | null> {
  const campaign = await getCampaign(deps, action.projectId, action.campaignId);
  if (!campaign) {
    await failGeneration(deps, action.projectId, action.id, `Campaign ${action.campaignId} was deleted`);
    return null;
  }
  assertGeneratesVouchers(campaign);
  return campaign;
}

/**
 * The worker's side of a bulk generation, safe to run any number of times for one action, even
 * at once: it resumes from the action's `doneCount`, and each batch of vouchers is written in one
 * transaction with the progress checkpoint (which holds only at the count this run read), so a
 * batch is written once and `vouchers_count` stays exact. Each batch also holds only at the
 * campaign revision read: after a PUT changed the template (a new discount or gift) the campaign is
 * read again and the batch built anew, so no voucher of this run keeps the old benefit (the
 * vouchers written before the PUT are changed by its CAMPAIGN.VOUCHERS_UPDATE). A final action is left as it is.
 * A failure the request could have caused (code space full, campaign deleted) ends the action
 * FAILED and returns; anything else (the table unavailable, contention) throws for a retry.
 * `signal`: the host's stop signal; once raised, the run stops before its next batch (every
 * batch written is checkpointed), leaving the action IN_PROGRESS for the next run to resume.
 * @throws Error, ConflictRetryError: transient; the message should be retried.
 * @throws JobStoppedError when `signal` stopped the run.
 */
export async function runVoucherGeneration(deps: Deps & { signal?: AbortSignal }, projectId: string, asyncActionId: string): Promise<AsyncAction | null> {
  let action = await startAsyncAction(deps, projectId, asyncActionId, deps.clock.now().toISOString());
  if (!action) return getAsyncAction(deps, projectId, asyncActionId);
  try {
    let campaign = await currentCampaign(deps, action);
    if (!campaign) return getAsyncAction(deps, projectId, asyncActionId);
    let changes = 0;
    while (action.doneCount < action.requested) {
      stopIfAsked(deps.signal, `Generation ${asyncActionId}`);
      const n = Math.min(MAX_VOUCHERS_PER_TRANSACTION, action.requested - action.doneCount);
      const guard = progressItem(deps, action, action.doneCount, n, deps.clock.now().toISOString());
      try {
        // Pinned to the revision read: a batch built from a template that a PUT changed meanwhile is not written.
        // The last batch of an addition (not of a campaign's creation) records it on the campaign, for its webhook event.
        const completes = !action.campaignCreation && action.doneCount + n === action.requested;
        await generateVouchers(deps, campaign, n, action.overrides, guard, [], {
          pinRevision: true,
          ...(completes ? { addition: { id: action.id, count: action.requested } } : {}),
        });
        action = { ...action, doneCount: action.doneCount + n };
      } catch (error) {
        if (error instanceof CampaignChangedError) {
          changes += 1;
          if (changes > MAX_CAMPAIGN_CHANGES) throw new Error(`Generation ${asyncActionId}: the campaign kept changing`);
          campaign = await currentCampaign(deps, action);
          if (!campaign) return getAsyncAction(deps, projectId, asyncActionId);
          continue;
        }
        if (!(error instanceof GenerationGuardFailedError)) throw error;
        const fresh = await getAsyncAction(deps, projectId, asyncActionId);
        if (fresh?.status !== 'IN_PROGRESS') return fresh;
        action = fresh;
      }
    }
    if (action.campaignCreation) await setCampaignStatus(deps, campaign, 'DONE');
    await finishAsyncAction(deps, action, deps.clock.now().toISOString());
    return getAsyncAction(deps, projectId, asyncActionId);
  } catch (error) {
    if (!(error instanceof AppError) || error instanceof ConflictRetryError) throw error;
    await failGeneration(deps, projectId, asyncActionId, `${error.message}: ${error.details ?? ''}`.trim());
    return getAsyncAction(deps, projectId, asyncActionId);
  }
}
