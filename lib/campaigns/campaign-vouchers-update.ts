import type { AsyncAction } from '../async-actions/async-action.js';
import { failAsyncAction, finishRemoval, getAsyncAction, removalProgressItem, startAsyncAction } from '../async-actions/async-action.repo.js';
import * as entities from '../db/entities.js';
import { backoff, MAX_CONFLICT_ATTEMPTS, transact, type TransactItem } from '../db/transact.js';
import { stopIfAsked } from '../jobs/job-stop.js';
import type { JobRunner } from '../jobs/job-worker.js';
import type { Runtime } from '../runtime.js';
import { campaignVoucherCodesPage } from './campaign-voucher-codes.repo.js';
import type { Voucher } from '../vouchers/voucher.js';
import type { Campaign } from './campaign.js';
import { getCampaign } from './campaign.repo.js';
import { revisionCondition } from './campaign-lifecycle.repo.js';
import { type BenefitChange, benefitChangeOf } from './voucher-benefit-change.js';

/**
 * The worker's side of a PUT /v1/campaigns/{campaignId} that changed the vouchers' benefit
 * (CAMPAIGN.VOUCHERS_UPDATE): brings every voucher of the campaign that still follows its template
 * (voucher-benefit-change.ts) to the campaign's CURRENT template, in batches, each batch one
 * transaction with the action's progress checkpoint and a check that the campaign is still at the
 * revision read. docs/decisions.md "Changing a campaign's vouchers".
 */

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock'>;

/** Vouchers per transaction (plus the checkpoint and the campaign's revision check). */
export const VOUCHERS_PER_UPDATE = 40;

/** Passes over the campaign's index that changed vouchers before the job gives up for a retry. */
const MAX_PASSES = 20;

/**
 * Sets a voucher's new benefit; holds only while it is the voucher read, still unpublished and
 * unredeemed, and (a gift card) with the credits read, so a publication, a redemption or a balance
 * change meanwhile makes the batch fail and the page is read again.
 */
function voucherChangeItem(deps: Deps, v: Voucher, change: Partial<BenefitChange>, now: string): TransactItem {
  const changed = entities.voucherChangeSet(v, now);
  const sets = ['updatedAt = :now', changed.set];
  const values: Record<string, unknown> = { ':now': now, ':id': v.id, ':zero': 0, ':nullType': 'NULL', ...changed.values };
  let condition = 'id = :id AND publishCount = :zero AND redeemedQuantity = :zero AND (attribute_not_exists(holderId) OR attribute_type(holderId, :nullType))';
  if (change.discount !== undefined) {
    sets.push('discount = :discount');
    values[':discount'] = change.discount;
  }
  if (change.gift !== undefined) {
    sets.push('gift = :gift');
    values[':gift'] = change.gift;
    if (v.gift) {
      condition += ' AND gift.amount = :readAmount AND gift.balance = :readBalance';
      values[':readAmount'] = v.gift.amount;
      values[':readBalance'] = v.gift.balance;
    }
  }
  return {
    Update: {
      TableName: deps.tableName,
      Key: entities.voucher.key(v.projectId, v.code),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: condition,
      ExpressionAttributeNames: changed.names,
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * Writes one batch: the checkpoint (index 0), the campaign's revision check (index 1), the vouchers.
 * @returns 'ok'; 'guard' (another run moved the action); 'campaign' (the campaign changed or went: re-read it);
 *   'changed' (a voucher changed meanwhile: re-read the page); 'conflict' (a lost race: retry).
 */
async function updateBatch(
  deps: Deps,
  action: AsyncAction,
  campaign: Campaign,
  changes: Array<{ voucher: Voucher; change: Partial<BenefitChange> }>,
): Promise<'ok' | 'guard' | 'campaign' | 'changed' | 'conflict'> {
  const now = deps.clock.now().toISOString();
  const revision = revisionCondition(campaign);
  const items: TransactItem[] = [
    removalProgressItem(deps, action, action.doneCount, changes.length, now),
    {
      ConditionCheck: {
        TableName: deps.tableName,
        Key: entities.campaign.key(campaign.projectId, campaign.id),
        ConditionExpression: revision.ConditionExpression,
        ...(Object.keys(revision.values).length > 0 ? { ExpressionAttributeValues: revision.values } : {}),
      },
    },
    ...changes.map(({ voucher, change }) => voucherChangeItem(deps, voucher, change, now)),
  ];
  const outcome = await transact(deps, items);
  if (outcome.ok) return 'ok';
  if (!('failed' in outcome)) return 'conflict';
  if (outcome.failed.includes(0)) return 'guard';
  if (outcome.failed.includes(1)) return 'campaign';
  return 'changed';
}

/**
 * Runs a VOUCHERS_UPDATE action; safe to run any number of times for one action, even at once,
 * and to resume after a crash: it works from what the vouchers hold now (a voucher that has the
 * campaign's current benefit already is skipped, not written or counted again), every batch holds
 * only at the `doneCount` its run read and at the campaign revision it read (so a run that read an
 * older template never overwrites a newer one). It passes over the campaign's voucher index until a
 * pass changes nothing (a voucher generated just before the PUT may reach the index a moment
 * later). `doneCount` = vouchers changed. The campaign deleted meanwhile ends the action FAILED.
 * `signal`: stops before the next batch, leaving the action IN_PROGRESS for the next run.
 * @returns the action as it ends; null when it does not exist.
 * @throws Error (transient: the message is retried), JobStoppedError.
 */
export async function runCampaignVouchersUpdate(deps: Deps & { signal?: AbortSignal }, projectId: string, asyncActionId: string): Promise<AsyncAction | null> {
  let action = await startAsyncAction(deps, projectId, asyncActionId, deps.clock.now().toISOString());
  if (!action) return getAsyncAction(deps, projectId, asyncActionId);
  for (let pass = 0; pass < MAX_PASSES; pass += 1) {
    let changedAny = false;
    let startAfter: Record<string, unknown> | undefined;
    let retries = 0;
    for (;;) {
      stopIfAsked(deps.signal, `Vouchers update ${asyncActionId}`);
      const campaign = await getCampaign(deps, projectId, action.campaignId);
      if (!campaign?.voucher) {
        await failCampaignVouchersUpdate(deps, projectId, asyncActionId, `Campaign ${action.campaignId} was deleted`);
        return getAsyncAction(deps, projectId, asyncActionId);
      }
      const template = campaign.voucher;
      const page = await campaignVoucherCodesPage(deps, projectId, campaign.id, VOUCHERS_PER_UPDATE, startAfter);
      const keys = page.codes.map((code) => entities.voucher.key(projectId, code));
      const vouchers =
        keys.length > 0
          ? (await entities.voucher.getMany(deps, keys, 'Vouchers could not be read: the table is throttling')).filter((v) => v.campaignId === campaign.id)
          : [];
      const changes = vouchers.flatMap((voucher) => {
        const change = benefitChangeOf(voucher, template);
        return change ? [{ voucher, change }] : [];
      });
      if (changes.length > 0) {
        const outcome = await updateBatch(deps, action, campaign, changes);
        if (outcome !== 'ok') {
          const fresh = await getAsyncAction(deps, projectId, asyncActionId);
          if (fresh?.status !== 'IN_PROGRESS') return fresh;
          action = fresh;
          retries += 1;
          if (retries >= MAX_CONFLICT_ATTEMPTS) throw new Error(`Vouchers update ${asyncActionId}: too many lost races on one page`);
          await backoff(retries);
          // The same page again, with the campaign and its vouchers read again.
          continue;
        }
        retries = 0;
        changedAny = true;
        const done: number = action.doneCount + changes.length;
        action = { ...action, doneCount: done, requested: Math.max(action.requested, done) };
      }
      if (!page.next) break;
      startAfter = page.next;
    }
    if (!changedAny) {
      await finishRemoval(deps, action, deps.clock.now().toISOString());
      return getAsyncAction(deps, projectId, asyncActionId);
    }
  }
  throw new Error(`Vouchers update ${asyncActionId}: vouchers kept changing after ${MAX_PASSES} passes`);
}

/**
 * Marks a VOUCHERS_UPDATE action FAILED with a reason, unless it is final already. The vouchers
 * changed so far keep their new benefit; a new PUT of the same value starts it again.
 * @returns true when this call moved the action.
 */
export async function failCampaignVouchersUpdate(deps: Deps, projectId: string, asyncActionId: string, reason: string): Promise<boolean> {
  return (await failAsyncAction(deps, projectId, asyncActionId, reason, deps.clock.now().toISOString())) !== null;
}

/** The `update-campaign-vouchers` job's runner on the jobs queue (lib/api/workers.ts). */
export const runUpdateCampaignVouchersJob: JobRunner<'update-campaign-vouchers'> = async (deps, job) =>
  (await runCampaignVouchersUpdate(deps, job.projectId, job.asyncActionId)) !== null;
