import type { Voucher } from '../vouchers/voucher.js';
import { giftOf } from '../vouchers/voucher-generation.js';
import type { Discount, VoucherTemplate } from './campaign.js';

/**
 * What PUT /v1/campaigns/{campaignId} does to the campaign's existing vouchers when it changes the
 * vouchers' benefit (`discount`, `gift`): pure rules, no I/O (the job is campaign-vouchers-update.ts).
 * docs/decisions.md "Changing a campaign's vouchers".
 */

/** The benefit fields of a voucher that follow the campaign's template. */
export type BenefitChange = Pick<Voucher, 'discount' | 'gift'>;

/**
 * Whether a voucher still follows its campaign's template: never published (no holder, publish
 * count 0) and never redeemed. The reference's update-campaign changes "all vouchers that are not
 * published or redeemed yet"; the others keep what their holder was given.
 */
export const followsTemplate = (v: Pick<Voucher, 'holderId' | 'publishCount' | 'redeemedQuantity'>): boolean =>
  v.holderId === null && v.publishCount === 0 && v.redeemedQuantity === 0;

/** Structural equality of stored JSON values, ignoring the order of object keys (DynamoDB does not keep it). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra).filter((k) => ra[k] !== undefined);
  const kb = Object.keys(rb).filter((k) => rb[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(rb, k) && sameJson(ra[k], rb[k]));
}

/**
 * The change that brings a voucher to its campaign's current template, or null when it has it
 * already or does not follow the template (published or redeemed). A DISCOUNT_VOUCHER takes the
 * template's discount; a GIFT_VOUCHER the credits a new card of the template would start with
 * (voucher-generation.ts giftOf): its amount, balance and effect.
 */
export function benefitChangeOf(v: Voucher, template: Pick<VoucherTemplate, 'type' | 'discount' | 'gift'>): Partial<BenefitChange> | null {
  if (!followsTemplate(v) || v.type !== template.type) return null;
  if (template.type === 'DISCOUNT_VOUCHER') {
    const discount: Discount | null = template.discount;
    return discount && !sameJson(v.discount, discount) ? { discount } : null;
  }
  if (template.type === 'GIFT_VOUCHER' && template.gift) {
    const gift = giftOf(template.gift);
    return sameJson(v.gift, gift) ? null : { gift };
  }
  return null;
}
