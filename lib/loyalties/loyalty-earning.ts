import type { Campaign } from '../campaigns/campaign.js';
import { getCampaign } from '../campaigns/campaign.repo.js';
import { ruleApplies, pointsFor } from '../earning-rules/earning-rule.js';
import { listEarningRulesOfEvent } from '../earning-rules/earning-rule.repo.js';
import { NotFoundError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from '../vouchers/voucher.js';
import { getVoucherByCode } from '../vouchers/voucher.repo.js';
import { getHeldVoucher } from '../vouchers/voucher-holder.repo.js';
import { expiryOf } from './expiration.js';
import { newBucket, type PointsBucket } from './points-bucket.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'ids'>;

/** Whether a program earns at `at`: switched on and inside its dates (a rule without dates inherits them). */
export const programEarnsAt = (c: Campaign, at: string): boolean =>
  c.campaignType === 'LOYALTY_PROGRAM' && c.active && (c.startDate === null || c.startDate <= at) && (c.expirationDate === null || at <= c.expirationDate);

/** One rule's points for a card: the bucket it adds and the POINTS_ACCRUAL transaction recording it (ids fixed before any commit). */
export interface Accrual {
  bucket: PointsBucket;
  rule: { id: string; banner: string | null };
  transactionId: string;
}

/** Points an event earns a card: one bucket per applying rule (ids fixed, so a retried commit cannot add them twice). */
export interface Earning {
  code: string;
  voucherId: string;
  campaignId: string;
  accruals: Accrual[];
}

/**
 * What an event earns the loyalty card `code`: the card's program's active rules for the event
 * name (one Query), each bucket expiring by the rule's own expiration rules or else the program's.
 * Null when no rule gives points.
 * @throws NotFoundError (voucher) when `code` names no loyalty card of a campaign.
 */
export async function planEarning(
  deps: Deps,
  projectId: string,
  eventName: string,
  code: string,
  metadata: Record<string, unknown>,
  now: Date,
): Promise<Earning | null> {
  const card = await getVoucherByCode(deps, projectId, code);
  if (!card?.loyaltyCard || !card.campaignId) throw new NotFoundError('voucher', code);
  const campaignId = card.campaignId;
  const at = now.toISOString();
  const rules = (await listEarningRulesOfEvent(deps, projectId, eventName)).filter(
    (r) => r.campaignId === campaignId && r.customEventSchemaId !== null && ruleApplies(r, at),
  );
  if (rules.length === 0) return null;
  const programRules = (await getCampaign(deps, projectId, campaignId))?.voucher?.loyaltyCard?.expirationRules;
  return earningOf(deps, card, rules, programRules, metadata, now);
}

/**
 * What a custom event earns its customer when it names no card: for each program with an active
 * rule for the event (one Query), the card the customer holds there earns by those rules, as
 * `order.paid` finds the held card. A program the customer holds no card in earns nothing (a custom
 * event does not join anyone: docs/decisions.md "Custom events earn on held cards").
 */
export async function planHeldEarnings(
  deps: Deps,
  projectId: string,
  eventName: string,
  customerId: string,
  metadata: Record<string, unknown>,
  now: Date,
): Promise<Earning[]> {
  const at = now.toISOString();
  const rules = (await listEarningRulesOfEvent(deps, projectId, eventName)).filter((r) => r.customEventSchemaId !== null && ruleApplies(r, at));
  const byCampaign = new Map<string, typeof rules>();
  for (const r of rules) byCampaign.set(r.campaignId, [...(byCampaign.get(r.campaignId) ?? []), r]);
  const earnings = await Promise.all(
    [...byCampaign].map(async ([campaignId, campaignRules]) => {
      const [campaign, held] = await Promise.all([getCampaign(deps, projectId, campaignId), getHeldVoucher(deps, projectId, customerId, campaignId)]);
      const card = held.voucher;
      if (!campaign || !programEarnsAt(campaign, at) || !card?.loyaltyCard) return null;
      return earningOf(deps, card, campaignRules, campaign.voucher?.loyaltyCard?.expirationRules, metadata, now);
    }),
  );
  return earnings.filter((e): e is Earning => e !== null);
}

function earningOf(
  deps: Deps,
  card: Voucher,
  rules: Awaited<ReturnType<typeof listEarningRulesOfEvent>>,
  programRules: Parameters<typeof expiryOf>[0],
  metadata: Record<string, unknown>,
  now: Date,
): Earning | null {
  const at = now.toISOString();
  const accruals = rules.flatMap((rule): Accrual[] => {
    const points = pointsFor(rule, metadata);
    if (points <= 0) return [];
    const bucket = { ...newBucket(deps, card, points, expiryOf(rule.expirationRules ?? programRules, now), at), earningRuleId: rule.id };
    return [{ bucket, rule: { id: rule.id, banner: rule.banner }, transactionId: deps.ids.id('vtx') }];
  });
  return accruals.length > 0 && card.campaignId ? { code: card.code, voucherId: card.id, campaignId: card.campaignId, accruals } : null;
}
