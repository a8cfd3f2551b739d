import type { AsyncAction } from '../async-actions/async-action.js';
import { binEntryId, type BinEntry } from '../bin/bin-entry.js';
import { camelize } from '../case.js';
import { assertGeneratesVouchers } from '../campaigns/campaign.js';
import { loadCampaign } from '../campaigns/campaign.service.js';
import { withCategory, withCurrentCategory } from '../categories/category.service.js';
import { RETRY, retryOnConflict } from '../db/transact.js';
import { InvalidPayloadError, InvalidQueryParamsError, InvalidVoucherError, NotEnoughCreditsError, NotFoundError } from '../errors.js';
import type { JobQueue } from '../jobs/job.js';
import { removeVoucherRedemptions, shardedUses } from '../redemptions/redemption.repo.js';
import type { ValidationRuleAssignment } from '../validation-rules/validation-rule.js';
import { getObjectAssignments } from '../validation-rules/validation-rule.repo.js';
import type { Runtime } from '../runtime.js';
import { enforceMetadata } from '../metadata-schemas/metadata-enforcement.js';
import { enqueueVoucherGeneration } from './bulk-generation.js';
import { resolveCodeConfig } from './code-generator.js';
import type { Voucher } from './voucher.js';
import { addVoucherWithCode, generateVouchers } from './voucher-generation.js';
import * as repo from './voucher.repo.js';
import type { AddVouchersBody, UpdateVoucherBody } from './voucher.schema.js';
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
  const campaign = await loadCampaign(deps, projectId, campaignRef);
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
    const addition = { id: deps.ids.id('vadd'), count: 1 };
    if (body.code !== undefined) return { kind: 'voucher', voucher: await addVoucherWithCode(deps, campaign, body.code, overrides, items, addition) };
    const [voucher] = await generateVouchers(deps, campaign, 1, overrides, undefined, items, { addition });
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
 * GET /v1/vouchers/{code}: by code or id, with its category as it is now (renamed, or null once deleted)
 * and, for a voucher with no redemption limit, the uses counted on its shards added to `redeemedQuantity`.
 * @throws NotFoundError (resource_id = the given code or id).
 */
export async function loadVoucher(deps: Deps, projectId: string, codeOrId: string): Promise<Voucher> {
  const found = await findVoucher(deps, projectId, codeOrId);
  if (!found) throw new NotFoundError('voucher', codeOrId);
  return asItIsNow(deps, projectId, found);
}

/**
 * GET /v1/vouchers/{code}'s reply: the voucher as loadVoucher gives it, with its validation rule
 * assignments. Its shards and assignments are keyed by the voucher's id: when the id is known
 * before the voucher is read (given as the reference, or learnt by this container for the code:
 * ReadHints.voucherIdOfCode) they are read in the same round as the voucher, and a wrong guess
 * costs the round it would have saved, never a wrong reply. Otherwise they are read in one round
 * after it, beside its category.
 * @throws NotFoundError (resource_id = the given code or id).
 */
export async function getVoucher(
  deps: Deps & Pick<Runtime, 'readHints'>,
  projectId: string,
  codeOrId: string,
): Promise<{ voucher: Voucher; assignments: ValidationRuleAssignment[] }> {
  const guess = VOUCHER_ID.test(codeOrId) ? codeOrId : deps.readHints.voucherIdOfCode(projectId, codeOrId);
  const [found, early] = await Promise.all([
    findVoucher(deps, projectId, codeOrId),
    guess === undefined ? Promise.resolve(undefined) : Promise.all([shardedUses(deps, projectId, guess), getObjectAssignments(deps, projectId, guess)]),
  ]);
  if (!found) throw new NotFoundError('voucher', codeOrId);
  deps.readHints.learnVoucherId(projectId, found.code, found.id);
  if (early && guess === found.id) {
    const [sharded, held] = early;
    return { voucher: withShardedUses(await withCurrentCategory(deps, projectId, found), sharded), assignments: held.assignments };
  }
  const [voucher, held] = await Promise.all([asItIsNow(deps, projectId, found), getObjectAssignments(deps, projectId, found.id)]);
  return { voucher, assignments: held.assignments };
}

/** The voucher with its sharded uses added and its category as it is now, both read side by side. */
async function asItIsNow(deps: Deps, projectId: string, found: Voucher): Promise<Voucher> {
  const [sharded, categorised] = await Promise.all([
    found.redemptionQuantity === null ? shardedUses(deps, projectId, found.id) : 0,
    withCurrentCategory(deps, projectId, found),
  ]);
  return withShardedUses(categorised, sharded);
}

/**
 * The voucher with its uses made true: one with no redemption limit counts them on shards
 * (docs/architecture.md "The counter design"), summed here (one Query of ≤ 32 small items).
 */
export async function withTrueUses(deps: Pick<Runtime, 'ddb' | 'tableName'>, voucher: Voucher): Promise<Voucher> {
  if (voucher.redemptionQuantity !== null) return voucher;
  return withShardedUses(voucher, await shardedUses(deps, voucher.projectId, voucher.id));
}

/** The voucher with `sharded` uses added when it counts its uses on shards (no redemption limit). */
const withShardedUses = (voucher: Voucher, sharded: number): Voucher =>
  voucher.redemptionQuantity !== null || sharded === 0 ? voucher : { ...voucher, redeemedQuantity: voucher.redeemedQuantity + sharded };

/**
 * DELETE /v1/vouchers/{code}: without `force` the voucher goes to the bin, with `force` it is
 * gone for good; either way its code is free at once and its campaign's count drops by one in
 * the same transaction. Of concurrent deletes of one voucher exactly one succeeds; the others
 * find nothing. Its redemptions and rollbacks (listed under the voucher's id) stay with a bin entry,
 * so a restore finds them again; `force` removes them, and its count shards, after the voucher
 * (paged, at most MAX_INLINE_REDEMPTION_DELETES: docs/decisions.md "Deleting a voucher's redemptions").
 * @throws NotFoundError (resource_id = the given code), ConflictRetryError.
 */
export function deleteVoucher(deps: Deps, projectId: string, codeOrId: string, force: boolean): Promise<void> {
  return retryOnConflict(`Too many concurrent changes to voucher ${codeOrId}`, async () => {
    const voucher = await findVoucher(deps, projectId, codeOrId);
    if (!voucher) throw new NotFoundError('voucher', codeOrId);
    const outcome = await repo.removeVoucher(deps, voucher, force ? null : binEntryOf(deps, voucher), deps.clock.now().toISOString());
    if (outcome !== 'ok') return RETRY;
    if (force) await removeVoucherRedemptions(deps, projectId, voucher.id);
    return undefined;
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

/**
 * POST /v1/vouchers/{code}/enable and …/disable: sets `active`. A voucher of a campaign that is
 * still unpublished and has no holder returns to (enable) or leaves (disable) the campaign's pool
 * of vouchers that publications pick from, in the same write. Setting the state it already has
 * succeeds and changes nothing but `updated_at`.
 * @throws NotFoundError (resource_id = the given code or id), ConflictRetryError.
 */
export async function setVoucherActive(deps: Deps, projectId: string, codeOrId: string, active: boolean): Promise<Voucher> {
  const voucher = await retryOnConflict(`Too many concurrent changes to voucher ${codeOrId}`, async () => {
    const read = await findVoucher(deps, projectId, codeOrId);
    if (!read) throw new NotFoundError('voucher', codeOrId);
    const now = deps.clock.now().toISOString();
    const outcome = await repo.changeVoucher(deps, read, { active }, now);
    return outcome === 'ok' ? { ...read, active, updatedAt: now } : RETRY;
  });
  return withCurrentCategory(deps, projectId, voucher);
}

/** POST /v1/vouchers/{code}/enable (see setVoucherActive). */
export const enableVoucher = (deps: Deps, projectId: string, codeOrId: string): Promise<Voucher> => setVoucherActive(deps, projectId, codeOrId, true);

/** POST /v1/vouchers/{code}/disable (see setVoucherActive). */
export const disableVoucher = (deps: Deps, projectId: string, codeOrId: string): Promise<Voucher> => setVoucherActive(deps, projectId, codeOrId, false);

/**
 * PUT /v1/vouchers/{code}: changes what the request names (dates, validity, active, additional
 * info, metadata, which it replaces, category, a gift card's amount, a discount voucher's discount) in one conditional write,
 * with a new category's items in the same transaction. The counters (redemptions, publications,
 * the holder) are never written, and the campaign's pool follows `active` (see changeVoucherItem).
 * A new gift amount moves the balance by the same difference and must leave it at 0 or more.
 * @throws NotFoundError (voucher, category_id), InvalidVoucherError (gift on a voucher that is no
 *   gift card), NotEnoughCreditsError, TooManyCategoriesError, ConflictRetryError, MetadataValidationError.
 */
export async function updateVoucher(
  deps: Deps & Pick<Runtime, 'metadataSchemaCache'>,
  projectId: string,
  codeOrId: string,
  body: UpdateVoucherBody,
): Promise<Voucher> {
  await enforceMetadata(deps, projectId, 'voucher', body.metadata);
  const found = await findVoucher(deps, projectId, codeOrId);
  if (!found) throw new NotFoundError('voucher', codeOrId);
  if (body.gift && !found.gift) throw new InvalidVoucherError(found.code, `Voucher ${found.code} is a ${found.type}: only a gift card has gift.amount`);
  if (body.code !== undefined && body.code !== found.code)
    throw new InvalidPayloadError(`code ${body.code} is not the code of voucher ${codeOrId}: a code cannot change`);
  if ((body.discount || body.type) && found.type !== 'DISCOUNT_VOUCHER') {
    throw new InvalidVoucherError(found.code, `Voucher ${found.code} is a ${found.type}: only a discount voucher has a discount`);
  }
  const updated = await withCategory(deps, projectId, { name: body.category, id: body.category_id }, ({ category, items }) => {
    const change: repo.VoucherChange = {
      ...(category ? { category } : {}),
      ...(body.start_date !== undefined ? { startDate: body.start_date } : {}),
      ...(body.expiration_date !== undefined ? { expirationDate: body.expiration_date } : {}),
      ...(body.validity_timeframe !== undefined ? { validityTimeframe: body.validity_timeframe } : {}),
      ...(body.validity_day_of_week !== undefined ? { validityDayOfWeek: body.validity_day_of_week } : {}),
      ...(body.validity_hours !== undefined ? { validityHours: body.validity_hours ? camelize(body.validity_hours) : null } : {}),
      ...(body.active !== undefined ? { active: body.active } : {}),
      ...(body.additional_info !== undefined ? { additionalInfo: body.additional_info } : {}),
      ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
      ...(body.discount !== undefined ? { discount: camelize(body.discount) } : {}),
    };
    return retryOnConflict(`Too many concurrent changes to voucher ${codeOrId}`, async () => {
      const read = await repo.getVoucherByCode(deps, projectId, found.code);
      if (!read || read.id !== found.id) throw new NotFoundError('voucher', codeOrId);
      const merged = { ...read, ...change };
      if (merged.startDate && merged.expirationDate && merged.startDate > merged.expirationDate) {
        throw new InvalidPayloadError('expiration_date must not be before start_date');
      }
      let gift = read.gift;
      if (body.gift && read.gift) {
        gift = { ...read.gift, amount: body.gift.amount, balance: read.gift.balance + body.gift.amount - read.gift.amount };
        if (gift.balance < 0) throw new NotEnoughCreditsError(read.code, read.gift.amount - body.gift.amount, read.gift.balance);
      }
      const now = deps.clock.now().toISOString();
      const outcome = await repo.changeVoucher(deps, read, change, now, items, body.gift?.amount);
      return outcome === 'ok' ? { ...merged, gift, updatedAt: now } : RETRY;
    });
  });
  return withCurrentCategory(deps, projectId, updated);
}
