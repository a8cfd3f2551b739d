import { camelize } from '../case.js';
import { assertGeneratesVouchers, assertTakesCreatedVouchers, type VoucherCampaign } from '../campaigns/campaign.js';
import { loadCampaign } from '../campaigns/campaign.service.js';
import { withCategory } from '../categories/category.service.js';
import { RETRY, retryOnConflict, type TransactItem } from '../db/transact.js';
import { CodeSpaceExhaustedError, DuplicateError, InvalidPayloadError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { enforceMetadata } from '../metadata-schemas/metadata-enforcement.js';
import { type CodeConfig, CodeSampler, resolveCodeConfig } from './code-generator.js';
import type { Voucher } from './voucher.js';
import { addVoucherWithCode, assertCodesFit, buildVoucher, generateVouchers, type VoucherOverrides, type VoucherSource } from './voucher-generation.js';
import { voucherOverridesOf } from './voucher-overrides.js';
import { insertStandaloneVoucher } from './voucher.repo.js';
import { type AddVoucherWithCodeBody, type CreateVoucherBody, type GenerateRandomCodeBody, standaloneTypeOf } from './voucher-create.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/** A standalone voucher's defaults: its type from the request (given or implied), everything else empty (the request's overrides fill it). */
function standaloneSource(projectId: string, body: CreateVoucherBody | GenerateRandomCodeBody): VoucherSource {
  const type = standaloneTypeOf(body);
  if (type === undefined) throw new Error('A voucher of no campaign always has a type (standaloneTypeOf)');
  return {
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
}

/** The campaign a request names, checked to make vouchers of the request's type; null when it names none. */
async function namedCampaign(deps: Deps, projectId: string, body: CreateVoucherBody | GenerateRandomCodeBody): Promise<VoucherCampaign | null> {
  const ref = body.campaign_id ?? body.campaign;
  if (ref === undefined) return null;
  const campaign = await loadCampaign(deps, projectId, ref);
  assertTakesCreatedVouchers(campaign);
  if (body.type !== undefined && body.type !== campaign.voucher.type) {
    throw new InvalidPayloadError(`type ${body.type} does not match campaign ${campaign.name}, whose vouchers are ${campaign.voucher.type}`);
  }
  return campaign;
}

/** Writes one standalone voucher with `code`; a taken code is a DuplicateError. */
function insertStandalone(deps: Deps, voucher: Voucher, extra: readonly TransactItem[]): Promise<Voucher> {
  return retryOnConflict(`Too many concurrent creations of voucher ${voucher.code}`, async () => {
    const outcome = await insertStandaloneVoucher(deps, voucher, extra);
    if (outcome === 'ok') return voucher;
    if (outcome === 'taken') throw new DuplicateError('voucher', `Duplicated voucher exists with code ${voucher.code}`, voucher.code);
    return RETRY;
  });
}

/**
 * Writes one standalone voucher with a code drawn from `config`; a taken code is replaced by a fresh
 * candidate (conditional puts: nothing is overwritten) until the pattern's space counts as full.
 * @throws CodeSpaceExhaustedError, InvalidPayloadError (codes too long), ConflictRetryError.
 */
async function insertStandaloneWithRandomCode(
  deps: Deps,
  source: VoucherSource,
  config: CodeConfig,
  o: VoucherOverrides,
  extra: readonly TransactItem[],
): Promise<Voucher> {
  assertCodesFit(config, 1, 0);
  const sampler = new CodeSampler(config, 1);
  for (;;) {
    const code = sampler.next();
    if (code === null) throw new CodeSpaceExhaustedError(`No free code left for pattern ${config.pattern} after ${sampler.offered} candidates`);
    const voucher = buildVoucher(deps, source, code, o);
    const outcome = await retryOnConflict(`Too many concurrent creations of voucher ${code}`, async () => {
      const result = await insertStandaloneVoucher(deps, voucher, extra);
      return result === 'conflict' ? RETRY : result;
    });
    if (outcome === 'ok') return voucher;
  }
}

/**
 * POST /v1/vouchers/{code}: one voucher with the caller's code. With `campaign`/`campaign_id` it
 * joins that campaign (its `vouchers_count` rises in the same transaction); without, it is a
 * standalone voucher of the request's type and benefit. A code is unique in the project: of
 * concurrent creations with one code exactly one succeeds.
 * @throws DuplicateError (409 duplicate_found), InvalidPayloadError (body code differs from the path's,
 *   type mismatch), NotFoundError (campaign, category_id), InvalidCampaignError, TooManyCategoriesError, ConflictRetryError.
 */
export async function createVoucher(
  deps: Deps & Pick<Runtime, 'metadataSchemaCache'>,
  projectId: string,
  code: string,
  body: CreateVoucherBody,
): Promise<Voucher> {
  if (body.code !== undefined && body.code !== code) throw new InvalidPayloadError(`code ${body.code} in the body differs from ${code} in the path`);
  // A new voucher: no metadata sent is checked as none (a required property is missing).
  await enforceMetadata(deps, projectId, 'voucher', body.metadata ?? {});
  return createVoucherWith(deps, projectId, body, code);
}

/**
 * POST /v1/vouchers: as createVoucher, with the body's code, else one generated from `code_config`
 * (completed from the campaign's configuration, or the default: 8 alphanumeric characters).
 * @throws as createVoucher, and CodeSpaceExhaustedError.
 */
export async function generateRandomCode(deps: Deps & Pick<Runtime, 'metadataSchemaCache'>, projectId: string, body: GenerateRandomCodeBody): Promise<Voucher> {
  await enforceMetadata(deps, projectId, 'voucher', body.metadata ?? {});
  return createVoucherWith(deps, projectId, body, body.code);
}

async function createVoucherWith(deps: Deps, projectId: string, body: CreateVoucherBody | GenerateRandomCodeBody, code: string | undefined): Promise<Voucher> {
  const campaign = await namedCampaign(deps, projectId, body);
  const codeConfigInput = 'code_config' in body && body.code_config ? camelize(body.code_config) : undefined;
  return withCategory(deps, projectId, { name: body.category, id: body.category_id }, async ({ category, items }) => {
    const o = voucherOverridesOf(body, category);
    if (campaign) {
      // A voucher made in a campaign is an addition to it (campaign.vouchers.aded), as through the campaign's own routes.
      const addition = { id: deps.ids.id('vadd'), count: 1 };
      if (code !== undefined) return addVoucherWithCode(deps, campaign, code, o, items, addition);
      const config = resolveCodeConfig(codeConfigInput, campaign.voucher.codeConfig);
      const [made] = await generateVouchers(deps, campaign, 1, { ...o, codeConfig: codeConfigInput ? config : undefined }, undefined, items, { addition });
      if (!made) throw new Error('Generating one voucher produced none');
      return made;
    }
    const source = standaloneSource(projectId, body);
    if (code !== undefined) return insertStandalone(deps, buildVoucher(deps, source, code, o), items);
    return insertStandaloneWithRandomCode(deps, source, resolveCodeConfig(codeConfigInput), o, items);
  });
}

/**
 * POST /v1/campaigns/{campaignId}/vouchers/{code}: one voucher of the campaign with the caller's
 * code, in one transaction with the campaign's `vouchers_count` (exact under concurrency).
 * @throws DuplicateError (409), NotFoundError (campaign, category_id), InvalidCampaignError, ConflictRetryError.
 */
export async function addVoucherWithSpecificCodeToCampaign(
  deps: Deps,
  projectId: string,
  campaignRef: string,
  code: string,
  body: AddVoucherWithCodeBody,
): Promise<Voucher> {
  const campaign = await loadCampaign(deps, projectId, campaignRef);
  assertGeneratesVouchers(campaign);
  return withCategory(deps, projectId, { name: body.category, id: body.category_id }, ({ category, items }) =>
    addVoucherWithCode(
      deps,
      campaign,
      code,
      {
        category,
        metadata: body.metadata,
        redemptionQuantity: body.redemption ? body.redemption.quantity : undefined,
        additionalInfo: body.additional_info,
        startDate: body.start_date,
        expirationDate: body.expiration_date,
        active: body.active,
      },
      items,
      { id: deps.ids.id('vadd'), count: 1 },
    ),
  );
}
