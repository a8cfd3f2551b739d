import type { AsyncAction } from '../async-actions/async-action.js';
import { binEntryId, type BinEntry } from '../bin/bin-entry.js';
import { camelize } from '../case.js';
import { assertGeneratesVouchers } from '../campaigns/campaign.js';
import { getCampaign } from '../campaigns/campaign.service.js';
import { withCategory, withCurrentCategory } from '../categories/category.service.js';
import { RETRY, retryOnConflict } from '../db/transact.js';
import { InvalidQueryParamsError, NotFoundError } from '../errors.js';
import type { JobQueue } from '../jobs/job.js';
import type { Runtime } from '../runtime.js';
import { enqueueVoucherGeneration } from './bulk-generation.js';
import { resolveCodeConfig } from './code-generator.js';
import type { Voucher } from './voucher.js';
import { addVoucherWithCode, generateVouchers } from './voucher-generation.js';
import * as repo from './voucher.repo.js';
import type { AddVouchersBody } from './voucher.schema.js';
import { codeSchema } from './voucher-params.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/** Voucher ids as this service makes them; only such strings are looked up as ids. */
const VOUCHER_ID = /^v_[0-9A-Za-z]{1,64}$/;

/** What adding vouchers came to: the one voucher, or the async action generating many. */
export type AddVouchersOutcome = { kind: 'voucher'; voucher: Voucher } | { kind: 'async'; action: AsyncAction };

/**
 * POST /v1/campaigns/{campaignId}/vouchers. With a count of 1 (or none): one voucher, with the
 * caller's code or a generated one. With more: an async action whose job is on the queue; the
 * code space is checked before anything is enqueued.
 * @throws InvalidQueryParamsError (a code with a count above 1), NotFoundError (campaign, category),
 *   InvalidCampaignError, DuplicateError, CodeSpaceExhaustedError.
 */
export async function addVouchersToCampaign(
  deps: Deps & { jobs: JobQueue },
  projectId: string,
  campaignRef: string,
  vouchersCount: number | undefined,
  body: AddVouchersBody,
  requestId: string,
): Promise<AddVouchersOutcome> {
  const count = vouchersCount ?? 1;
  if (count > 1 && body.code !== undefined) throw new InvalidQueryParamsError('A code can be given only with vouchers_count 1');
  const campaign = await getCampaign(deps, projectId, campaignRef);
  assertGeneratesVouchers(campaign);
  const codeConfig = body.code_config ? resolveCodeConfig(camelize(body.code_config), campaign.voucher.codeConfig) : undefined;
  // A new category is written in the same transaction as the voucher (or the async action), so a refused request leaves none.
  return withCategory(deps, projectId, { name: body.category, id: body.category_id }, async ({ category, items }): Promise<AddVouchersOutcome> => {
    const overrides = {
      category,
      metadata: body.metadata,
      redemptionQuantity: body.redemption ? body.redemption.quantity : undefined,
      additionalInfo: body.additional_info,
      startDate: body.start_date,
      expirationDate: body.expiration_date,
      codeConfig,
    };
    if (count > 1) {
      return { kind: 'async', action: await enqueueVoucherGeneration(deps, campaign, count, overrides, { requestId, campaignCreation: false }, items) };
    }
    if (body.code !== undefined) return { kind: 'voucher', voucher: await addVoucherWithCode(deps, campaign, body.code, overrides, items) };
    const [voucher] = await generateVouchers(deps, campaign, 1, overrides, undefined, items);
    if (!voucher) throw new Error('Generating one voucher produced none');
    return { kind: 'voucher', voucher };
  });
}

/** A voucher by code, else by id; null when neither exists. */
async function findVoucher(deps: Deps, projectId: string, codeOrId: string): Promise<Voucher | null> {
  if (codeSchema.safeParse(codeOrId).success) {
    const byCode = await repo.getVoucherByCode(deps, projectId, codeOrId);
    if (byCode) return byCode;
  }
  if (!VOUCHER_ID.test(codeOrId)) return null;
  const code = await repo.getVoucherCodeById(deps, projectId, codeOrId);
  if (!code) return null;
  const voucher = await repo.getVoucherByCode(deps, projectId, code);
  return voucher?.id === codeOrId ? voucher : null;
}

/**
 * GET /v1/vouchers/{code}: by code or id, with its category as it is now (renamed, or null once deleted).
 * @throws NotFoundError (resource_id = the given code or id).
 */
export async function getVoucher(deps: Deps, projectId: string, codeOrId: string): Promise<Voucher> {
  const voucher = await findVoucher(deps, projectId, codeOrId);
  if (!voucher) throw new NotFoundError('voucher', codeOrId);
  return withCurrentCategory(deps, projectId, voucher);
}

/**
 * DELETE /v1/vouchers/{code}: without `force` the voucher goes to the bin, with `force` it is
 * gone for good; either way its code is free at once and its campaign's count drops by one in
 * the same transaction. Of concurrent deletes of one voucher exactly one succeeds; the others
 * find nothing. (Redemptions would be removed here too; none can exist yet.)
 * @throws NotFoundError (resource_id = the given code), ConflictRetryError.
 */
export function deleteVoucher(deps: Deps, projectId: string, codeOrId: string, force: boolean): Promise<void> {
  return retryOnConflict(`Too many concurrent changes to voucher ${codeOrId}`, async () => {
    const voucher = await findVoucher(deps, projectId, codeOrId);
    if (!voucher) throw new NotFoundError('voucher', codeOrId);
    const outcome = await repo.removeVoucher(deps, voucher, force ? null : binEntryOf(deps, voucher));
    return outcome === 'ok' ? undefined : RETRY;
  });
}

function binEntryOf(deps: Pick<Runtime, 'clock'>, voucher: Voucher): BinEntry {
  const now = deps.clock.now();
  return {
    id: binEntryId(now),
    createdAt: now.toISOString(),
    deletedByUserId: null,
    resourceId: voucher.id,
    resourceType: 'voucher',
    resourceName: voucher.code,
    resourceParentId: voucher.campaignId,
    snapshot: { ...voucher },
  };
}
