import { type AsyncAction, newAsyncAction } from '../async-actions/async-action.js';
import { asyncActionPuts } from '../async-actions/async-action.repo.js';
import { binEntryPut } from '../bin/bin.repo.js';
import { binEntryId } from '../bin/bin-entry.js';
import { camelize } from '../case.js';
import { withCategory, withCurrentCategory } from '../categories/category.service.js';
import { ExtraItemsConflictError, RETRY, retryOnConflict, type TransactItem } from '../db/transact.js';
import { InvalidPayloadError, ResourceProtectedError } from '../errors.js';
import type { JobQueue } from '../jobs/job.js';
import { MAX_METADATA_BYTES } from '../metadata.schema.js';
import { resolveReferralProgram } from '../referrals/referral.service.js';
import type { Runtime } from '../runtime.js';
import { cachedMetadataSchema } from '../metadata-schemas/metadata-enforcement.js';
import { checkMetadata } from '../metadata-schemas/metadata-check.js';
import type { Campaign } from './campaign.js';
import { type TiersExpiration, tierRuleOf } from '../loyalties/tier-period.js';
import { setTierExpirationItem } from '../loyalties/tier.repo.js';
import type { TiersExpirationBody } from '../loyalties/tier.schema.js';
import { failCampaignVouchersDeletion } from './campaign-deletion.js';
import { failCampaignVouchersUpdate } from './campaign-vouchers-update.js';
import { type CampaignChange, changeCampaign, removeCampaign } from './campaign-lifecycle.repo.js';
import { VOUCHER_CHANGING_FIELDS, type UpdateCampaignBody } from './campaign-lifecycle.schema.js';
import { loadCampaign } from './campaign.service.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/** @throws ResourceProtectedError for a `protected` campaign (the reference's 400 `resource_protected`). */
function assertChangeable(campaign: Campaign): void {
  if (campaign.protected) throw new ResourceProtectedError('campaign', campaign.id);
}

/** Fields of the update bodies that only some campaign types have (the reference's five bodies). */
const NOT_FOR_PROMOTION = ['activity_duration_after_publishing', 'join_once', 'auto_join', 'type'] as const;

/**
 * What the request may change on this campaign, checked before anything is read again.
 * @throws InvalidPayloadError naming the field.
 */
function assertFieldsFit(campaign: Campaign, body: UpdateCampaignBody): void {
  for (const field of VOUCHER_CHANGING_FIELDS) {
    if (body[field] !== undefined) {
      throw new InvalidPayloadError(
        `Property .${field} cannot be changed by this service: it would change the campaign's vouchers (docs/decisions.md "Changing and deleting campaigns")`,
      );
    }
  }
  if (campaign.campaignType === 'PROMOTION') {
    const field = NOT_FOR_PROMOTION.find((f) => body[f] !== undefined);
    if (field) throw new InvalidPayloadError(`Property .${field} does not apply to a PROMOTION campaign`);
  }
  if (body.loyalty_tiers_expiration !== undefined && campaign.campaignType !== 'LOYALTY_PROGRAM') {
    throw new InvalidPayloadError(`Property .loyalty_tiers_expiration applies to a LOYALTY_PROGRAM campaign only, not to ${campaign.campaignType}`);
  }
  if (body.referral_program !== undefined && campaign.campaignType !== 'REFERRAL_PROGRAM') {
    throw new InvalidPayloadError(`Property .referral_program applies to a REFERRAL_PROGRAM campaign only, not to ${campaign.campaignType}`);
  }
  if (body.discount !== undefined && campaign.voucher?.type !== 'DISCOUNT_VOUCHER') {
    throw new InvalidPayloadError(`Property .discount applies to a campaign of discount vouchers only, not to ${campaign.campaignType}`);
  }
  if (body.gift !== undefined && campaign.voucher?.type !== 'GIFT_VOUCHER') {
    throw new InvalidPayloadError(`Property .gift applies to a GIFT_VOUCHERS campaign only, not to ${campaign.campaignType}`);
  }
  if (body.type !== undefined && campaign.type === 'STANDALONE') {
    throw new InvalidPayloadError(`Property .type cannot change a STANDALONE campaign (a generic code) into ${body.type}`);
  }
}

/**
 * The change a PUT body makes to the campaign as read (dates and metadata depend on it).
 * @throws InvalidPayloadError when the resulting dates or metadata are invalid.
 */
function changeOf(read: Campaign, body: UpdateCampaignBody): CampaignChange {
  const change: CampaignChange = {};
  if (body.description !== undefined) change.description = body.description;
  if (body.start_date !== undefined) change.startDate = body.start_date;
  if (body.expiration_date !== undefined) change.expirationDate = body.expiration_date;
  if (body.validity_timeframe !== undefined) change.validityTimeframe = body.validity_timeframe;
  if (body.validity_day_of_week !== undefined) change.validityDayOfWeek = body.validity_day_of_week;
  if (body.validity_hours !== undefined) change.validityHours = body.validity_hours ? camelize(body.validity_hours) : null;
  if (body.activity_duration_after_publishing !== undefined) change.activityDurationAfterPublishing = body.activity_duration_after_publishing;
  if (body.join_once !== undefined) change.joinOnce = body.join_once;
  if (body.auto_join !== undefined) change.autoJoin = body.auto_join;
  if (body.type !== undefined) change.type = body.type;
  if (body.loyalty_tiers_expiration !== undefined) change.loyaltyTiersExpiration = tiersExpirationOf(body.loyalty_tiers_expiration);
  const startDate = change.startDate !== undefined ? change.startDate : read.startDate;
  const expirationDate = change.expirationDate !== undefined ? change.expirationDate : read.expirationDate;
  if (startDate && expirationDate && expirationDate < startDate) throw new InvalidPayloadError('Property .expiration_date must not be before start_date');
  const timeframe = change.validityTimeframe !== undefined ? change.validityTimeframe : read.validityTimeframe;
  if (timeframe && !startDate) throw new InvalidPayloadError('Property .start_date is required when validity_timeframe is given');
  if (body.metadata !== undefined || (body.unset_metadata_fields ?? []).length > 0) {
    const metadata: Record<string, unknown> = { ...read.metadata, ...body.metadata };
    for (const field of body.unset_metadata_fields ?? []) delete metadata[field];
    if (Buffer.byteLength(JSON.stringify(metadata)) > MAX_METADATA_BYTES) {
      throw new InvalidPayloadError(`Property .metadata would exceed ${MAX_METADATA_BYTES} bytes once merged with the campaign's`);
    }
    change.metadata = metadata;
  }
  if (read.voucher && (body.discount !== undefined || body.gift !== undefined)) {
    change.voucher = {
      ...read.voucher,
      ...(body.discount !== undefined ? { discount: camelize(body.discount) } : {}),
      ...(body.gift !== undefined ? { gift: camelize(body.gift) } : {}),
    };
  }
  return change;
}

/** A `loyalty_tiers_expiration` as stored: the validated body without its nulls (null: none). */
function tiersExpirationOf(body: TiersExpirationBody | null): TiersExpiration | null {
  if (!body) return null;
  const { rounding, ...rule } = body.expiration_date;
  return {
    qualification_type: body.qualification_type,
    ...(body.qualification_period ? { qualification_period: body.qualification_period } : {}),
    start_date: body.start_date,
    expiration_date: {
      ...rule,
      ...(rounding
        ? {
            rounding: {
              type: rounding.type,
              ...(rounding.strategy ? { strategy: rounding.strategy } : {}),
              ...(rounding.unit ? { unit: rounding.unit } : {}),
              ...(rounding.value != null ? { value: rounding.value } : {}),
            },
          }
        : {}),
    },
  };
}

/** What PUT /v1/campaigns/{campaignId} answers: the campaign as changed and, when its vouchers follow, the CAMPAIGN.VOUCHERS_UPDATE action. */
export interface CampaignUpdate {
  campaign: Campaign;
  asyncAction: AsyncAction | null;
}

/**
 * Runs `write` on the campaign as read now, again from a fresh read whenever it reports that the
 * campaign changed meanwhile (another write committed a new revision first).
 * @throws NotFoundError (resource_id = the reference given), ResourceProtectedError, ConflictRetryError.
 */
function onCurrentCampaign<T>(deps: Deps, projectId: string, idOrName: string, write: (read: Campaign) => Promise<T | typeof RETRY>): Promise<T> {
  return retryOnConflict(`Too many concurrent writes: campaign ${idOrName}`, async () => {
    const read = await loadCampaign(deps, projectId, idOrName);
    assertChangeable(read);
    return write(read);
  });
}

/**
 * PUT /v1/campaigns/{campaignId}: changes the campaign fields the reference's update bodies name
 * (dates, validity, description, category, metadata merged with `unset_metadata_fields` removed,
 * publication settings, AUTO_UPDATE ↔ STATIC, a referral program's settings, the vouchers'
 * `discount` or `gift`), with its list entry, in one transaction at the revision read
 * (campaign-lifecycle.repo.ts changeCampaign). Fields of another campaign type are refused (400),
 * as is a loyalty program's `options`; its `loyalty_tiers_expiration` is also set on its tier item in the same transaction.
 * A `discount` or `gift` on a campaign that has vouchers also writes, in that transaction (which
 * then holds only at the `vouchersCount` read), a CAMPAIGN.VOUCHERS_UPDATE async action with its
 * open-job marker, and puts its job on the queue (campaign-vouchers-update.ts): the campaign's
 * unpublished, unredeemed vouchers take the new benefit. Without vouchers there is no action.
 * @throws NotFoundError (campaign, category_id, custom event), InvalidPayloadError, ResourceProtectedError,
 *   ConflictRetryError; Error when the queue refuses the job (the action is marked FAILED first; the campaign stays changed).
 */
export async function updateCampaign(
  deps: Deps & Partial<Pick<Runtime, 'metadataSchemaCache'>> & { jobs: JobQueue },
  projectId: string,
  idOrName: string,
  body: UpdateCampaignBody,
  requestId: string,
): Promise<CampaignUpdate> {
  const first = await loadCampaign(deps, projectId, idOrName);
  assertChangeable(first);
  assertFieldsFit(first, body);
  const touchesMetadata = body.metadata !== undefined || (body.unset_metadata_fields ?? []).length > 0;
  const metadataSchema = touchesMetadata ? await cachedMetadataSchema(deps, projectId, 'campaign') : null;
  const referralProgram = body.referral_program !== undefined ? await resolveReferralProgram(deps, projectId, camelize(body.referral_program)) : undefined;
  const categoryRef = body.category !== undefined || body.category_id !== undefined ? { name: body.category, id: body.category_id } : null;
  const now = deps.clock.now().toISOString();
  const written = await withCategory(deps, projectId, categoryRef ?? {}, ({ category, items }) =>
    onCurrentCampaign(deps, projectId, idOrName, async (read) => {
      const change: CampaignChange = {
        ...changeOf(read, body),
        lastChange: 'update',
        ...(categoryRef ? { category } : {}),
        ...(referralProgram !== undefined ? { referralProgram } : {}),
      };
      // The metadata as merged with the campaign's is what the schema must accept.
      if (change.metadata !== undefined) checkMetadata(metadataSchema, change.metadata);
      const action = change.voucher && read.vouchersCount > 0 ? plannedVouchersUpdate(deps, read, requestId, now) : null;
      const extra = action ? [...items, ...asyncActionPuts(deps, action)] : [...items];
      // The points changes read the setting from the program's tier item: both change in this transaction.
      if (change.loyaltyTiersExpiration !== undefined) extra.push(setTierExpirationItem(deps, projectId, read.id, tierRuleOf(change.loyaltyTiersExpiration)));
      const { outcome, campaign } = await changeCampaign(deps, read, change, now, extra, { pinVouchersCount: change.voucher !== undefined });
      if (outcome === 'extra_failed') throw new ExtraItemsConflictError();
      return campaign ? { campaign, asyncAction: action } : RETRY;
    }),
  );
  if (written.asyncAction) {
    try {
      await deps.jobs.send({ type: 'update-campaign-vouchers', projectId, asyncActionId: written.asyncAction.id });
    } catch (error) {
      await failCampaignVouchersUpdate(deps, projectId, written.asyncAction.id, 'The vouchers update job could not be enqueued');
      throw error;
    }
  }
  return { campaign: await withCurrentCategory(deps, projectId, written.campaign), asyncAction: written.asyncAction };
}

/** A new CAMPAIGN.VOUCHERS_UPDATE action (ENQUEUED) for the campaign as read: `requested` = its vouchers. */
function plannedVouchersUpdate(deps: Pick<Runtime, 'ids'>, read: Campaign, requestId: string, now: string): AsyncAction {
  return newAsyncAction(
    { id: deps.ids.id('aa'), projectId: read.projectId, type: 'CAMPAIGN.VOUCHERS_UPDATE', requestId, campaignId: read.id, requested: read.vouchersCount },
    now,
  );
}

/**
 * POST /v1/campaigns/{campaignId}/enable and …/disable: sets `active` on the campaign and its list
 * entry (one transaction at the revision read). The campaign and its vouchers stay readable; its
 * vouchers keep their own `active`. Setting the state it has succeeds (and refreshes `updated_at`).
 * @throws NotFoundError, ResourceProtectedError, ConflictRetryError.
 */
export async function setCampaignActive(deps: Deps, projectId: string, idOrName: string, active: boolean): Promise<Campaign> {
  const now = deps.clock.now().toISOString();
  return onCurrentCampaign(
    deps,
    projectId,
    idOrName,
    async (read) => (await changeCampaign(deps, read, { active, lastChange: active ? 'enable' : 'disable' }, now)).campaign ?? RETRY,
  );
}

/** POST /v1/campaigns/{campaignId}/enable (see setCampaignActive). */
export const enableCampaign = (deps: Deps, projectId: string, idOrName: string): Promise<Campaign> => setCampaignActive(deps, projectId, idOrName, true);

/** POST /v1/campaigns/{campaignId}/disable (see setCampaignActive). */
export const disableCampaign = (deps: Deps, projectId: string, idOrName: string): Promise<Campaign> => setCampaignActive(deps, projectId, idOrName, false);

/**
 * DELETE /v1/campaigns/{campaignId}: in one transaction the campaign, its name (free at once), its
 * list and view entries and tier pointers go, the project's counter records the deletion, and
 * the CAMPAIGN.VOUCHERS_DELETE async action is written with its open-job marker (and, without
 * `force`, the campaign's bin entry); then the job that removes its vouchers (to the bin, or for
 * good with `force`) is put on the queue. A voucher created concurrently either commits before
 * (and the job removes it) or finds the campaign gone (404).
 * @returns the async action (ENQUEUED).
 * @throws NotFoundError, ResourceProtectedError, ConflictRetryError; Error when the queue refuses
 *   (the action is marked FAILED first, as a refused generation is; the campaign stays deleted).
 */
export async function deleteCampaign(
  deps: Deps & { jobs: JobQueue },
  projectId: string,
  idOrName: string,
  force: boolean,
  requestId: string,
): Promise<AsyncAction> {
  const action = await onCurrentCampaign(deps, projectId, idOrName, async (read) => {
    const at = deps.clock.now();
    const now = at.toISOString();
    const planned = newAsyncAction(
      { id: deps.ids.id('aa'), projectId, type: 'CAMPAIGN.VOUCHERS_DELETE', requestId, campaignId: read.id, requested: Math.max(0, read.vouchersCount), force },
      now,
    );
    const extra: TransactItem[] = [...asyncActionPuts(deps, planned)];
    if (!force) {
      extra.push(
        binEntryPut(deps, projectId, {
          id: binEntryId(at),
          createdAt: now,
          deletedByUserId: null,
          resourceId: read.id,
          resourceType: 'campaign',
          resourceName: read.name,
          resourceParentId: null,
          snapshot: { ...read },
        }),
      );
    }
    const outcome = await removeCampaign(deps, read, extra);
    if (outcome === 'extra_failed') throw new Error(`Async action ${planned.id} or its bin entry id is already taken`);
    return outcome === 'ok' ? planned : RETRY;
  });
  try {
    await deps.jobs.send({ type: 'delete-campaign-vouchers', projectId, asyncActionId: action.id });
  } catch (error) {
    await failCampaignVouchersDeletion(deps, projectId, action.id, 'The deletion job could not be enqueued');
    throw error;
  }
  return action;
}
