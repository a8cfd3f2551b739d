import { getCampaign } from '../campaigns/campaign.repo.js';
import { ruleApplies, pointsFor } from '../earning-rules/earning-rule.js';
import { listEarningRulesOfEvent } from '../earning-rules/earning-rule.repo.js';
import { NotFoundError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { getVoucherByCode } from '../vouchers/voucher.repo.js';
import { expiryOf } from './expiration.js';
import { newBucket, type PointsBucket } from './points-bucket.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'ids'>;

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
  const accruals = rules.flatMap((rule): Accrual[] => {
    const points = pointsFor(rule, metadata);
    if (points <= 0) return [];
    const bucket = newBucket(deps, card, points, expiryOf(rule.expirationRules ?? programRules, now), at);
    return [{ bucket, rule: { id: rule.id, banner: rule.banner }, transactionId: deps.ids.id('vtx') }];
  });
  return accruals.length > 0 ? { code, voucherId: card.id, campaignId, accruals } : null;
}
