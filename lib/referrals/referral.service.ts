import type { Campaign } from '../campaigns/campaign.js';
import { getCampaign } from '../campaigns/campaign.repo.js';
import { getCustomer, getCustomerIdBySourceId } from '../customers/customer.repo.js';
import type { CustomerInput } from '../customers/customer.schema.js';
import type { TransactItem } from '../db/transact.js';
import { BadRequestError, InvalidCampaignError, InvalidPayloadError, InvalidVoucherError, NotFoundError, ReferrerNotPermittedError } from '../errors.js';
import { getCustomEventSchema } from '../custom-event-schemas/event-schema.service.js';
import type { CustomEvent } from '../events/event.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from '../vouchers/voucher.js';
import { getVoucherByCode } from '../vouchers/voucher.repo.js';
import { planRefereeReward, type RefereeReward, resolveRefereeReward } from './referee-reward.js';
import type { ReferralConversion } from './referral-conversion.js';
import { conversionExists, countConversionItem, putConversionItem } from './referral.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** The referral program of a campaign as stored: a custom event conversion names its schema by id and name. */
export type ResolvedReferralProgram = NonNullable<Campaign['referralProgram']>;

/**
 * Completes a REFERRAL_PROGRAM's `referral_program` at campaign creation. A `custom_event`
 * conversion needs `custom_event.id` (`ms_...`) or `.name` naming a custom event schema of the
 * project; both are stored, so conversions match events by name. Absent, the program converts on
 * redemption (Voucherify's default). A `referee_reward` must name a parent campaign that can give it
 * (resolveRefereeReward).
 * @throws InvalidPayloadError (custom_event missing, or sent for a redemption program, or its id and name disagree),
 *   NotFoundError (custom_event_schema; campaign: the reward's parent), InvalidCampaignError (the parent cannot give the reward).
 */
export async function resolveReferralProgram(deps: Deps, projectId: string, program: ResolvedReferralProgram | undefined): Promise<ResolvedReferralProgram> {
  if (!program) return { conversionEventType: 'redemption' };
  const refereeReward = program.refereeReward ? await resolveRefereeReward(deps, projectId, program.refereeReward) : undefined;
  const resolved = await resolveConversionEvent(deps, projectId, program);
  return refereeReward ? { ...resolved, refereeReward } : resolved;
}

async function resolveConversionEvent(deps: Deps, projectId: string, program: ResolvedReferralProgram): Promise<ResolvedReferralProgram> {
  if (program.conversionEventType !== 'custom_event') {
    if (program.customEvent) {
      throw new InvalidPayloadError('Property .referral_program.custom_event is only allowed with conversion_event_type custom_event');
    }
    return program;
  }
  const ref = program.customEvent?.id ?? program.customEvent?.name;
  if (ref === undefined) {
    throw new InvalidPayloadError('Property .referral_program.custom_event (id or name) is required when conversion_event_type is custom_event');
  }
  const schema = await getCustomEventSchema(deps, projectId, ref);
  if (program.customEvent?.name !== undefined && program.customEvent.name !== schema.name) {
    throw new InvalidPayloadError(`Property .referral_program.custom_event.name ${program.customEvent.name} is not the name of custom event ${ref}`);
  }
  return { ...program, customEvent: { id: schema.id, name: schema.name } };
}

/** A referral an event will convert: the code, its campaign, the referrer who shares it and the referee's reward. */
export interface ReferralPlan {
  campaignId: string;
  code: string;
  voucherId: string;
  referrerId: string;
  reward: RefereeReward | null;
}

/** A customer id from an id (`cust_...`) or a source id; null when neither names a customer. */
async function customerIdOf(deps: Deps, projectId: string, ref: string): Promise<string | null> {
  const byId = await getCustomer(deps, projectId, ref);
  return byId ? byId.id : getCustomerIdBySourceId(deps, projectId, ref);
}

/**
 * The referrer: the code's holder when it has one (a `referrer_id` sent too must name the same
 * customer), else the customer `referrer_id` names (by id or source id).
 */
async function referrerOf(deps: Deps, projectId: string, voucher: Voucher, referrerRef: string | undefined): Promise<string> {
  const named = referrerRef === undefined ? null : await customerIdOf(deps, projectId, referrerRef);
  if (referrerRef !== undefined && named === null) throw new NotFoundError('customer', referrerRef);
  if (voucher.holderId) {
    if (named !== null && named !== voucher.holderId) {
      throw new BadRequestError(
        'invalid_customer',
        'Invalid customer',
        `referral.referrer_id ${referrerRef ?? ''} is not the holder of referral code ${voucher.code}`,
      );
    }
    return voucher.holderId;
  }
  if (named === null) {
    throw new BadRequestError('missing_parameters', 'Missing parameters', `referral.referrer_id is required: referral code ${voucher.code} has no holder`);
  }
  return named;
}

/** The id of the customer an event names, without creating it; null for a customer not known yet. */
async function knownCustomerId(deps: Deps, projectId: string, customer: CustomerInput): Promise<string | null> {
  if (customer.id !== undefined) return customer.id;
  return customer.source_id === undefined ? null : getCustomerIdBySourceId(deps, projectId, customer.source_id);
}

/**
 * Checks the `referral` of an event before anything is written: the code must be a referral code
 * of a REFERRAL_PROGRAM that converts on this custom event, its referrer known, and the event's
 * customer not the referrer.
 * @throws NotFoundError (voucher: unknown code; campaign; customer: unknown referrer_id),
 *   InvalidVoucherError (not a referral code), InvalidCampaignError (the program converts on something else),
 *   BadRequestError (`missing_parameters`: no holder and no referrer_id; `invalid_customer`: referrer_id is not the holder),
 *   ReferrerNotPermittedError (the event's customer is the referrer).
 */
export async function planReferral(
  deps: Deps,
  projectId: string,
  eventName: string,
  referral: { code: string; referrer_id?: string | undefined },
  customer: CustomerInput,
): Promise<ReferralPlan> {
  const { code } = referral;
  const voucher = await getVoucherByCode(deps, projectId, code);
  if (!voucher) throw new NotFoundError('voucher', code);
  if (!voucher.isReferralCode || !voucher.campaignId) throw new InvalidVoucherError(code, `Voucher ${code} is not a referral code`);
  const campaign = await getCampaign(deps, projectId, voucher.campaignId);
  if (!campaign) throw new NotFoundError('campaign', voucher.campaignId);
  const program = campaign.campaignType === 'REFERRAL_PROGRAM' ? campaign.referralProgram : null;
  if (program?.conversionEventType !== 'custom_event') {
    throw new InvalidCampaignError(`Campaign ${campaign.name} does not convert referrals on custom events`);
  }
  if (program.customEvent?.name !== eventName) {
    throw new InvalidCampaignError(`Campaign ${campaign.name} converts referrals on event ${program.customEvent?.name ?? ''}, not ${eventName}`);
  }
  const referrerId = await referrerOf(deps, projectId, voucher, referral.referrer_id);
  if ((await knownCustomerId(deps, projectId, customer)) === referrerId) throw new ReferrerNotPermittedError(code);
  const reward = await planRefereeReward(deps, projectId, program.refereeReward);
  return { campaignId: campaign.id, code, voucherId: voucher.id, referrerId, reward };
}

/**
 * The writes converting the plan's code for the event's customer, to commit with the event: the
 * conversion (conditional: once per campaign, code and referred customer) and the code's
 * conversion counter. None when the customer already converted the code (a duplicate or a later
 * event). Index 0 is the conversion: a failed condition there means a concurrent event converted
 * first, and a fresh call then returns none.
 * @throws ReferrerNotPermittedError when the event's (upserted) customer is the referrer.
 */
export async function conversionItems(deps: Deps & Pick<Runtime, 'ids'>, plan: ReferralPlan, event: CustomEvent): Promise<TransactItem[]> {
  if (event.customerId === plan.referrerId) throw new ReferrerNotPermittedError(plan.code);
  if (await conversionExists(deps, event.projectId, plan.campaignId, plan.code, event.customerId)) return [];
  const conversion: ReferralConversion = {
    id: deps.ids.id('rcnv'),
    projectId: event.projectId,
    campaignId: plan.campaignId,
    code: plan.code,
    voucherId: plan.voucherId,
    referrerId: plan.referrerId,
    refereeId: event.customerId,
    eventId: event.id,
    eventType: event.type,
    createdAt: event.createdAt,
  };
  return [putConversionItem(deps, conversion), countConversionItem(deps, event.projectId, plan.code, plan.voucherId)];
}
