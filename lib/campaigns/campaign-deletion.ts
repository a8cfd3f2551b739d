import type { AsyncAction } from '../async-actions/async-action.js';
import { failAsyncAction, finishRemoval, getAsyncAction, removalProgressItem, startAsyncAction } from '../async-actions/async-action.repo.js';
import { binEntryPut } from '../bin/bin.repo.js';
import { type BinEntry, binEntryId } from '../bin/bin-entry.js';
import * as entities from '../db/entities.js';
import { backoff, MAX_CONFLICT_ATTEMPTS, MAX_TRANSACTION_ITEMS, transact, type TransactItem } from '../db/transact.js';
import { stopIfAsked } from '../jobs/job-stop.js';
import type { JobRunner } from '../jobs/job-worker.js';
import type { Runtime } from '../runtime.js';
import { campaignVoucherCodesPage } from './campaign-voucher-codes.repo.js';
import type { Voucher } from '../vouchers/voucher.js';

/**
 * The worker's side of DELETE /v1/campaigns/{campaignId} (CAMPAIGN.VOUCHERS_DELETE): the campaign
 * itself is gone already (campaign-lifecycle.service.ts deleteCampaign); this removes its vouchers
 * in batches, each batch one transaction with the action's progress checkpoint.
 */

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock'>;

/** Vouchers per transaction: the voucher, its id pointer and its bin entry each, plus the checkpoint. */
export const VOUCHERS_PER_REMOVAL = Math.floor((MAX_TRANSACTION_ITEMS - 1) / 3);

/** Passes over the campaign's index that found vouchers before the job gives up for a retry (the index kept showing new ones). */
const MAX_PASSES = 20;

function voucherBinEntry(voucher: Voucher, at: Date): BinEntry {
  return {
    id: binEntryId(at),
    createdAt: at.toISOString(),
    deletedByUserId: null,
    resourceId: voucher.id,
    resourceType: 'voucher',
    resourceName: voucher.code,
    resourceParentId: voucher.campaignId,
    snapshot: { ...voucher },
  };
}

/**
 * Removes `vouchers` (each only if still the one read: same id) with their id pointers and, unless
 * `force`, a bin entry each, together with the checkpoint. No campaign count moves: the campaign is gone.
 * @returns 'ok'; 'guard' when the checkpoint failed (another run moved the action); 'changed' when a voucher changed or went (re-read).
 */
async function removeBatch(deps: Deps, action: AsyncAction, vouchers: Voucher[]): Promise<'ok' | 'guard' | 'changed' | 'conflict'> {
  const now = deps.clock.now();
  const items: TransactItem[] = [removalProgressItem(deps, action, action.doneCount, vouchers.length, now.toISOString())];
  for (const v of vouchers) {
    items.push(
      {
        Delete: {
          TableName: deps.tableName,
          Key: entities.voucher.key(v.projectId, v.code),
          ConditionExpression: 'id = :id',
          ExpressionAttributeValues: { ':id': v.id },
        },
      },
      { Delete: { TableName: deps.tableName, Key: entities.voucherId.key(v.projectId, v.id) } },
    );
    if (!action.force) items.push(binEntryPut(deps, v.projectId, voucherBinEntry(v, now)));
  }
  const outcome = await transact(deps, items);
  if (outcome.ok) return 'ok';
  if (!('failed' in outcome)) return 'conflict';
  return outcome.failed.includes(0) ? 'guard' : 'changed';
}

/**
 * Runs a VOUCHERS_DELETE action; safe to run any number of times for one action, even at once:
 * it works from what is left in the campaign's voucher index, and each batch holds only at the
 * `doneCount` its run read (removalProgressItem), so a voucher is removed and counted once. It
 * pages through the index, then passes over it again until a pass finds nothing (a voucher whose
 * creation committed just before the campaign's delete may reach the index a moment later).
 * `signal`: stops before the next batch (every batch written is checkpointed), leaving the action
 * IN_PROGRESS for the next run. A final action is left as it is.
 * @returns the action as it ends; null when it does not exist.
 * @throws Error (transient: the message is retried), JobStoppedError.
 */
export async function runCampaignVouchersDeletion(
  deps: Deps & { signal?: AbortSignal },
  projectId: string,
  asyncActionId: string,
): Promise<AsyncAction | null> {
  let action = await startAsyncAction(deps, projectId, asyncActionId, deps.clock.now().toISOString());
  if (!action) return getAsyncAction(deps, projectId, asyncActionId);
  for (let pass = 0; pass < MAX_PASSES; pass += 1) {
    let found = false;
    let startAfter: Record<string, unknown> | undefined;
    let retries = 0;
    for (;;) {
      stopIfAsked(deps.signal, `Deletion ${asyncActionId}`);
      const page = await campaignVoucherCodesPage(deps, projectId, action.campaignId, VOUCHERS_PER_REMOVAL, startAfter);
      const campaignId = action.campaignId;
      const keys = page.codes.map((code) => entities.voucher.key(projectId, code));
      const vouchers =
        keys.length > 0
          ? (await entities.voucher.getMany(deps, keys, 'Vouchers could not be read: the table is throttling')).filter((v) => v.campaignId === campaignId)
          : [];
      if (vouchers.length > 0) {
        found = true;
        const outcome = await removeBatch(deps, action, vouchers);
        if (outcome !== 'ok') {
          const fresh = await getAsyncAction(deps, projectId, asyncActionId);
          if (fresh?.status !== 'IN_PROGRESS') return fresh;
          action = fresh;
          retries += 1;
          if (retries >= MAX_CONFLICT_ATTEMPTS) throw new Error(`Deletion ${asyncActionId}: too many lost races on one page`);
          await backoff(retries);
          // Read the same page again: some of it was removed by another run, or changed.
          continue;
        }
        retries = 0;
        const done: number = action.doneCount + vouchers.length;
        action = { ...action, doneCount: done, requested: Math.max(action.requested, done) };
      }
      if (!page.next) break;
      startAfter = page.next;
    }
    if (!found) {
      await finishRemoval(deps, action, deps.clock.now().toISOString());
      return getAsyncAction(deps, projectId, asyncActionId);
    }
  }
  throw new Error(`Deletion ${asyncActionId}: the campaign's voucher index still lists vouchers after ${MAX_PASSES} passes`);
}

/**
 * Marks a VOUCHERS_DELETE action FAILED with a reason, unless it is final already. The campaign
 * stays deleted; its remaining vouchers stay readable until the action is run again by hand.
 * @returns true when this call moved the action.
 */
export async function failCampaignVouchersDeletion(deps: Deps, projectId: string, asyncActionId: string, reason: string): Promise<boolean> {
  return (await failAsyncAction(deps, projectId, asyncActionId, reason, deps.clock.now().toISOString())) !== null;
}

/** The `delete-campaign-vouchers` job's runner on the jobs queue (lib/api/workers.ts). */
export const runDeleteCampaignVouchersJob: JobRunner<'delete-campaign-vouchers'> = async (deps, job) =>
  (await runCampaignVouchersDeletion(deps, job.projectId, job.asyncActionId)) !== null;
