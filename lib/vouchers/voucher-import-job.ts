import type { JobRunner } from '../jobs/job-worker.js';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { type AsyncAction, type ImportFailure, newAsyncAction } from '../async-actions/async-action.js';
import { failAsyncAction, finishImport, getAsyncAction, importProgressItem, insertAsyncAction, startAsyncAction } from '../async-actions/async-action.repo.js';
import { assertGeneratesVouchers, type VoucherCampaign } from '../campaigns/campaign.js';
import { getCampaign } from '../campaigns/campaign.repo.js';
import { withCategory } from '../categories/category.service.js';
import { importChunk } from '../db/entities.js';
import { ExtraItemsConflictError, RETRY, retryOnConflict, transact } from '../db/transact.js';
import { AppError, ConflictRetryError, NotFoundError } from '../errors.js';
import type { JobQueue } from '../jobs/job.js';
import { stopIfAsked } from '../jobs/job-stop.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from './voucher.js';
import { buildVoucher, campaignSource, type VoucherSource } from './voucher-generation.js';
import { chunkImport } from './voucher-import-chunks.js';
import { voucherOverridesOf } from './voucher-overrides.js';
import type { ImportVoucherItem } from './voucher-import.schema.js';
import { newCodeSchema } from './voucher-params.schema.js';
import { insertStandaloneVouchers, insertVouchers, MAX_VOUCHERS_PER_TRANSACTION } from './voucher.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/** JSON bytes of one chunk item: well under DynamoDB's 400 KB item limit. */
const MAX_CHUNK_BYTES = 300_000;

/** The benefit field each voucher type carries. */
const BENEFIT_OF = { DISCOUNT_VOUCHER: 'discount', GIFT_VOUCHER: 'gift', LOYALTY_CARD: 'loyalty_card' } as const;

/** A voucher the import cannot write; its reason goes into the action's result. */
class ImportItemError extends Error {
  override readonly name = 'ImportItemError';
}

/**
 * Starts an import: stores the list as chunk items (before the action exists, so nothing reads a
 * partial list), then the async action (ENQUEUED) with its open-job marker in one transaction, then
 * puts the job on the queue. When the queue refuses, the action is marked FAILED before the error goes on.
 * @throws Error (queue or table unavailable).
 */
export async function enqueueVoucherImport(
  deps: Deps & { jobs: JobQueue },
  projectId: string,
  type: 'CAMPAIGN.VOUCHERS_IMPORT' | 'VOUCHERS.IMPORT' | 'CAMPAIGN.VOUCHERS_IMPORT_CSV' | 'VOUCHERS.IMPORT_CSV',
  campaignId: string,
  items: readonly ImportVoucherItem[],
  requestId: string,
  /** Rows refused before the job (a CSV row that does not map): the action's result lists them first. */
  failedAlready: readonly ImportFailure[] = [],
): Promise<AsyncAction> {
  const chunks = chunkImport(items, MAX_VOUCHERS_PER_TRANSACTION, MAX_CHUNK_BYTES);
  const now = deps.clock.now().toISOString();
  const action = newAsyncAction(
    {
      id: deps.ids.id('aa'),
      projectId,
      type,
      requestId,
      campaignId,
      requested: items.length + failedAlready.length,
      import: { chunks: chunks.length, chunksDone: 0, failed: [...failedAlready] },
    },
    now,
  );
  await Promise.all(
    chunks.map((vouchers, index) =>
      deps.ddb.send(new PutCommand({ TableName: deps.tableName, Item: importChunk.toItem({ vouchers }, projectId, action.id, index) })),
    ),
  );
  await insertAsyncAction(deps, action);
  try {
    await deps.jobs.send({ type: 'voucher-import', projectId, asyncActionId: action.id });
  } catch (error) {
    await failImport(deps, projectId, action.id, 'The import job could not be enqueued');
    throw error;
  }
  return action;
}

/**
 * Marks an import FAILED with a reason, unless it is final already.
 * @returns true when this call moved it to FAILED.
 */
export async function failImport(deps: Deps, projectId: string, asyncActionId: string, reason: string): Promise<boolean> {
  return (await failAsyncAction(deps, projectId, asyncActionId, reason, deps.clock.now().toISOString())) !== null;
}

/** The category of an item, found or created on its own (an import that dies later leaves a category, which a rerun finds by name). */
async function categoryOf(deps: Deps, projectId: string, name: string | undefined): Promise<Voucher['category']> {
  if (name === undefined) return null;
  return withCategory(deps, projectId, { name }, async ({ category, items }) => {
    if (items.length > 0) {
      const outcome = await transact(deps, items);
      if (!outcome.ok) throw new ExtraItemsConflictError();
    }
    return category;
  });
}

/** The voucher an item makes, from its campaign or (standalone) from the item itself. @throws ImportItemError, AppError. */
async function voucherOf(deps: Deps, projectId: string, campaign: VoucherCampaign | null, item: ImportVoucherItem): Promise<Voucher> {
  if (!newCodeSchema.safeParse(item.code).success) throw new ImportItemError('Invalid code: printable ASCII without spaces, not "." or ".."');
  const type = item.type ?? campaign?.voucher.type ?? (item.gift ? 'GIFT_VOUCHER' : item.loyalty_card ? 'LOYALTY_CARD' : 'DISCOUNT_VOUCHER');
  if (campaign && type !== campaign.voucher.type) throw new ImportItemError(`Type ${type} differs from the campaign's ${campaign.voucher.type}`);
  for (const field of ['discount', 'gift', 'loyalty_card'] as const) {
    if (item[field] !== undefined && BENEFIT_OF[type] !== field) throw new ImportItemError(`A ${type} carries no ${field}`);
  }
  if (!campaign && item[BENEFIT_OF[type]] === undefined) throw new ImportItemError(`A ${type} of no campaign needs ${BENEFIT_OF[type]}`);
  const source: VoucherSource = campaign
    ? campaignSource(campaign)
    : {
        projectId,
        campaignId: null,
        campaignName: null,
        template: { type, discount: null, gift: null, loyaltyCard: null, redemptionQuantity: null, isReferralCode: false },
        startDate: null,
        expirationDate: null,
        validityTimeframe: null,
        validityDayOfWeek: null,
        validityHours: null,
      };
  return buildVoucher(deps, source, item.code, voucherOverridesOf(item, await categoryOf(deps, projectId, item.category)));
}

const reasonOf = (error: unknown): string => {
  if (error instanceof ImportItemError) return error.message;
  if (error instanceof AppError) return error.details ?? error.message;
  throw error;
};

/**
 * Writes chunk `index`: its vouchers (all codes free) and its checkpoint in one transaction; a
 * code found taken becomes a failure and the rest is written again. Codes repeated within the
 * import fail from their second use on (across chunks: as taken).
 * @returns false when the checkpoint failed (another run moved the action on), true otherwise.
 */
async function importChunkAt(
  deps: Deps,
  action: AsyncAction,
  campaign: VoucherCampaign | null,
  index: number,
  items: readonly ImportVoucherItem[],
): Promise<boolean> {
  const failed: ImportFailure[] = [];
  const seen = new Set<string>();
  let vouchers: Voucher[] = [];
  for (const item of items) {
    if (seen.has(item.code)) {
      failed.push({ code: item.code, reason: 'Duplicated code in this import' });
      continue;
    }
    seen.add(item.code);
    try {
      vouchers.push(await voucherOf(deps, action.projectId, campaign, item));
    } catch (error) {
      if (error instanceof ConflictRetryError) throw error;
      failed.push({ code: item.code, reason: reasonOf(error) });
    }
  }
  return retryOnConflict(`Too many concurrent writes to import ${action.id}`, async () => {
    for (;;) {
      const guard = importProgressItem(deps, action, index, vouchers.length, failed, deps.clock.now().toISOString());
      if (vouchers.length === 0) {
        const outcome = await transact(deps, [guard]);
        return outcome.ok ? true : 'failed' in outcome ? false : RETRY;
      }
      // The last chunk completes the import: its transaction records the addition on the campaign (campaign.vouchers.aded),
      // counting every voucher the import wrote. An import whose last chunk writes none records none.
      const last = index === (action.import?.chunks ?? 0) - 1;
      const addition = last ? { id: action.id, count: action.doneCount + vouchers.length } : undefined;
      const outcome = campaign
        ? await insertVouchers(deps, action.projectId, campaign.id, vouchers, guard, [], undefined, addition)
        : await insertStandaloneVouchers(deps, vouchers, guard);
      if (outcome.kind === 'ok') return true;
      if (outcome.kind === 'conflict') return RETRY;
      if (outcome.kind === 'guard_failed') return false;
      // Unpinned inserts never report a changed campaign; only a missing one.
      if (outcome.kind === 'campaign_missing' || outcome.kind === 'campaign_changed') throw new NotFoundError('campaign', action.campaignId);
      const taken = new Set(outcome.codes);
      for (const code of taken) failed.push({ code, reason: 'Duplicated voucher exists with this code' });
      vouchers = vouchers.filter((v) => !taken.has(v.code));
    }
  });
}

/**
 * The worker's side of an import, safe to run any number of times for one action, even at once: it
 * resumes at the action's `chunksDone`, and each chunk is written in one transaction with the
 * checkpoint (which holds only at the count this run read), so a voucher is written once and the
 * counts (`done_count`, the failures, the campaign's `vouchers_count`) stay exact. A final action
 * is left as it is. A failure the request could have caused (the campaign deleted) ends it FAILED;
 * anything else throws for a retry. `signal`: the host's stop signal (stops before the next chunk).
 * @throws Error, ConflictRetryError: transient. JobStoppedError when `signal` stopped the run.
 */
export async function runVoucherImport(
  deps: Deps & { signal?: AbortSignal | undefined },
  projectId: string,
  asyncActionId: string,
): Promise<AsyncAction | null> {
  let action = await startAsyncAction(deps, projectId, asyncActionId, deps.clock.now().toISOString());
  if (!action) return getAsyncAction(deps, projectId, asyncActionId);
  try {
    let campaign: VoucherCampaign | null = null;
    if (action.type === 'CAMPAIGN.VOUCHERS_IMPORT' || action.type === 'CAMPAIGN.VOUCHERS_IMPORT_CSV') {
      const found = await getCampaign(deps, projectId, action.campaignId);
      if (!found) {
        await failImport(deps, projectId, asyncActionId, `Campaign ${action.campaignId} was deleted`);
        return getAsyncAction(deps, projectId, asyncActionId);
      }
      assertGeneratesVouchers(found);
      campaign = found;
    }
    const chunkAt = (index: number) => importChunk.get(deps, importChunk.key(projectId, asyncActionId, index));
    // The next chunk is read beside the action's re-read (one round a chunk less); a failed or stale read-ahead is read again.
    let ahead: { index: number; read: ReturnType<typeof chunkAt> } | null = null;
    for (;;) {
      const progress = action.import;
      if (!progress) throw new Error(`Async action ${asyncActionId} is no import`);
      if (progress.chunksDone >= progress.chunks) break;
      stopIfAsked(deps.signal, `Import ${asyncActionId}`);
      const index = progress.chunksDone;
      const chunk = (ahead?.index === index ? await ahead.read : null) ?? (await chunkAt(index));
      if (!chunk) throw new Error(`Chunk ${index} of import ${asyncActionId} is missing`);
      await importChunkAt(deps, action, campaign, index, chunk.vouchers);
      ahead = index + 1 < progress.chunks ? { index: index + 1, read: chunkAt(index + 1).catch(() => null) } : null;
      const fresh = await getAsyncAction(deps, projectId, asyncActionId);
      if (fresh?.status !== 'IN_PROGRESS') return fresh;
      action = fresh;
    }
    await finishImport(deps, action, deps.clock.now().toISOString());
    return getAsyncAction(deps, projectId, asyncActionId);
  } catch (error) {
    if (!(error instanceof AppError) || error instanceof ConflictRetryError) throw error;
    await failImport(deps, projectId, asyncActionId, `${error.message}: ${error.details ?? ''}`.trim());
    return getAsyncAction(deps, projectId, asyncActionId);
  }
}

/** The `import-vouchers` job's runner on the jobs queue (lib/api/workers.ts). */
export const runImportVouchersJob: JobRunner<'voucher-import'> = async (deps, job) => (await runVoucherImport(deps, job.projectId, job.asyncActionId)) !== null;
