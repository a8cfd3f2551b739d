import type { Campaign, Discount, PromotionTier, Validity } from '../campaigns/campaign.js';
import { creditsLeft, usesLeft } from '../redemptions/session-lock.js';
import type { Voucher } from '../vouchers/voucher.js';
import type { RedeemableErrorKey } from './redeemable-error.js';

/*
 * Whether a voucher or promotion tier may be used at a given time for a given request: pure, no
 * I/O, the time passed in (the runtime's clock). Every clock rule (days of week, hours) is read in
 * UTC: the project has no time zone setting (docs/decisions.md "Validations").
 */

/** A time rule's verdict: usable now, not yet / not at this time, or no longer. */
export type TimeVerdict = 'ok' | 'not_active' | 'expired';

interface Duration {
  years: number;
  months: number;
  weeks: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

const DURATION =
  /^P(?:(\d+(?:\.\d+)?)Y)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/** An ISO 8601 duration (`P2D`, `PT1H30M`, `P1M`); null when it is not one or is zero. */
export function parseDuration(text: string): Duration | null {
  const m = DURATION.exec(text);
  if (!m || text === 'P' || text.endsWith('T')) return null;
  const n = (i: number) => Number(m[i] ?? 0);
  const d = { years: n(1), months: n(2), weeks: n(3), days: n(4), hours: n(5), minutes: n(6), seconds: n(7) };
  return Object.values(d).some((v) => v > 0) ? d : null;
}

/** `from` plus `times` × `d`, calendar units (years, months) by the UTC calendar. */
function addDuration(from: number, d: Duration, times: number): number {
  const date = new Date(from);
  if (d.years || d.months) date.setUTCMonth(date.getUTCMonth() + Math.round((d.years * 12 + d.months) * times));
  const ms = (((d.weeks * 7 + d.days) * 24 + d.hours) * 60 + d.minutes) * 60_000 + d.seconds * 1000;
  return date.getTime() + ms * times;
}

const approxMs = (d: Duration): number => addDuration(0, d, 1);

/**
 * `validity_timeframe`: from `start` on, a period of `duration` begins every `interval`. Without a
 * start date (the reference requires one with a timeframe) the rule is not applied.
 */
export function inTimeframe(timeframe: { interval: string; duration: string }, start: string | null, nowMs: number): boolean {
  const interval = parseDuration(timeframe.interval);
  const duration = parseDuration(timeframe.duration);
  if (start === null || interval === null || duration === null) return true;
  const startMs = Date.parse(start);
  if (nowMs < startMs) return false;
  // Estimate the period, then walk to the last one that began at or before now (calendar months vary).
  let k = Math.max(0, Math.floor((nowMs - startMs) / approxMs(interval)) - 1);
  while (addDuration(startMs, interval, k + 1) <= nowMs) k += 1;
  while (k > 0 && addDuration(startMs, interval, k) > nowMs) k -= 1;
  const begin = addDuration(startMs, interval, k);
  return nowMs < addDuration(begin, duration, 1);
}

const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * `validity_hours.daily`: now (UTC) is inside one of the periods, each from `start_time` to
 * `expiration_time` (exclusive) on its `days_of_week`; a period whose end is not after its start runs past midnight
 * into the next day.
 */
export function inValidityHours(
  hours: { daily: readonly { start_time: string; expiration_time: string; days_of_week: readonly number[] }[] },
  nowMs: number,
): boolean {
  const now = new Date(nowMs);
  const day = now.getUTCDay();
  const minute = now.getUTCHours() * 60 + now.getUTCMinutes();
  return hours.daily.some((p) => {
    const start = minutesOf(p.start_time);
    const end = minutesOf(p.expiration_time);
    if (end > start) return p.days_of_week.includes(day) && minute >= start && minute < end;
    const yesterday = (day + 6) % 7;
    return (p.days_of_week.includes(day) && minute >= start) || (p.days_of_week.includes(yesterday) && minute < end);
  });
}

/** The time rules of a voucher, tier or campaign at `nowMs`: start and expiration dates, timeframe, days of week, hours. */
export function timeVerdict(v: Validity, nowMs: number): TimeVerdict {
  if (v.startDate !== null && nowMs < Date.parse(v.startDate)) return 'not_active';
  if (v.expirationDate !== null && nowMs > Date.parse(v.expirationDate)) return 'expired';
  if (v.validityTimeframe && !inTimeframe(v.validityTimeframe, v.startDate, nowMs)) return 'not_active';
  if (v.validityDayOfWeek && v.validityDayOfWeek.length > 0 && !v.validityDayOfWeek.includes(new Date(nowMs).getUTCDay())) return 'not_active';
  if (v.validityHours && v.validityHours.daily.length > 0) {
    const daily = v.validityHours.daily.map((p) => ({ start_time: p.startTime, expiration_time: p.expirationTime, days_of_week: p.daysOfWeek }));
    if (!inValidityHours({ daily }, nowMs)) return 'not_active';
  }
  return 'ok';
}

const ITEM_EFFECTS = new Set(['APPLY_TO_ITEMS', 'APPLY_TO_ITEMS_PROPORTIONALLY', 'APPLY_TO_ITEMS_PROPORTIONALLY_BY_QUANTITY', 'APPLY_TO_ITEMS_BY_QUANTITY']);

/** Whether `discount` acts on order items only (so an order without items leaves it nothing to act on). */
export const needsOrderItems = (discount: Discount | null): boolean =>
  discount !== null && discount.type !== 'UNIT' && discount.effect !== undefined && ITEM_EFFECTS.has(discount.effect);

/** What a request asks of a redeemable, beyond its existence. */
export interface UseRequest {
  nowMs: number;
  /** The LOCK session the request names: its own holds do not count against it. */
  sessionKey: string | null;
  /** Gift credits asked for (`gift.credits`); absent = what the order needs. */
  giftCredits?: number;
  /** Whether the order has any item. */
  orderHasItems: boolean;
}

const timeKey = (verdict: TimeVerdict): RedeemableErrorKey | null =>
  verdict === 'not_active' ? 'voucher_not_active' : verdict === 'expired' ? 'voucher_expired' : null;

/** The campaign's part: disabled, or outside its own dates and time rules → `campaign_not_active`. */
const campaignKey = (campaign: Campaign | null, nowMs: number): RedeemableErrorKey | null =>
  campaign !== null && (!campaign.active || timeVerdict(campaign, nowMs) !== 'ok') ? 'campaign_not_active' : null;

/**
 * Why `voucher` cannot be used by this request now, or null when it can. Checked in this order:
 * `voucher_disabled` (active false), `campaign_not_active`, `voucher_not_active` (before the start
 * date, outside the timeframe, day of week or hours), `voucher_expired`, `quantity_exceeded` (no use
 * left once other live LOCK sessions' holds are counted; the request's own session's hold is its
 * own), `gift_amount_exceeded` (credits asked above what is left of the balance, or nothing left),
 * `missing_order_items` (an item-only discount on an order without items).
 */
export function voucherValidity(voucher: Voucher, campaign: Campaign | null, req: UseRequest): RedeemableErrorKey | null {
  if (!voucher.active) return 'voucher_disabled';
  const ofCampaign = campaignKey(campaign, req.nowMs);
  if (ofCampaign) return ofCampaign;
  const ofTime = timeKey(timeVerdict(voucher, req.nowMs));
  if (ofTime) return ofTime;
  if (usesLeft(voucher, req.nowMs, req.sessionKey) === 0) return 'quantity_exceeded';
  if (voucher.gift !== null) {
    const left = creditsLeft(voucher.gift.balance, voucher.sessions, req.nowMs, req.sessionKey);
    if (left === 0 || (req.giftCredits !== undefined && req.giftCredits > left)) return 'gift_amount_exceeded';
  }
  if (!req.orderHasItems && needsOrderItems(voucher.discount)) return 'missing_order_items';
  return null;
}

/**
 * Why promotion tier `tier` of `campaign` cannot be used now, or null when it can:
 * `promotion_inactive` (the tier's active false), `campaign_not_active`, then the tier's own time
 * rules (`voucher_not_active`, `voucher_expired`: the reference has no tier-specific keys for them),
 * `missing_order_items`.
 */
export function tierValidity(tier: PromotionTier, campaign: Campaign, req: UseRequest): RedeemableErrorKey | null {
  if (!tier.active) return 'promotion_inactive';
  const ofCampaign = campaignKey(campaign, req.nowMs);
  if (ofCampaign) return ofCampaign;
  const ofTime = timeKey(timeVerdict(tier, req.nowMs));
  if (ofTime) return ofTime;
  if (!req.orderHasItems && needsOrderItems(tier.discount)) return 'missing_order_items';
  return null;
}
