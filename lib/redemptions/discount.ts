import type { Discount } from '../campaigns/campaign.js';
import { UnsupportedDiscountError } from '../errors.js';

/*
 * What the calculator is given for each redeemable, already resolved by its caller (validation or
 * redemption): the stored discount, the order lines it covers (ApplicableTo resolved to indices, as
 * the reference's `order_item_indices`), the prices of units it adds, a gift card's balance.
 */

export type { Discount };

/** Effects of AMOUNT, PERCENT and FIXED discounts; a stored discount without one applies to the order. */
export type AmountEffect = NonNullable<Extract<Discount, { type: 'AMOUNT' }>['effect']>;
/** Effects of UNIT discounts; a stored one without an effect adds the missing units. */
export type UnitEffect = NonNullable<Extract<Discount, { type: 'UNIT' }>['effect']>;

/** One order line a discount covers: its index in the order as sent, and a FIXED price for it (ApplicableTo `price`). */
export interface CoveredLine {
  index: number;
  /** New unit price of the line under a FIXED discount; when absent, the discount's `fixed_amount`. */
  price?: number;
  /** Units of the line the discount covers (ApplicableTo `quantity_limit` and effects); absent = all of them. */
  units?: number;
  /** Most the discount takes off this line (ApplicableTo `amount_limit`). */
  amountLimit?: number;
  /** Lines of one ApplicableTo entry share `group`; their discounts together stay within `groupAmountLimit` (`aggregated_amount_limit`). */
  group?: string;
  groupAmountLimit?: number;
}

export interface DiscountRedeemable {
  kind: 'discount';
  /** Voucher code or promotion tier id: names the redeemable in errors and in the steps. */
  id: string;
  discount: Discount;
  /**
   * Lines an item effect covers; absent = every line of the order as sent. Lines a UNIT discount
   * adds are never covered by a later redeemable: its caller resolved ApplicableTo before they existed.
   */
  lines?: readonly CoveredLine[];
  /** Unit price of each product or SKU id a UNIT discount may add (from the catalogue); a line's own price otherwise. */
  unitPrices?: Readonly<Record<string, number>>;
}

export interface GiftRedeemable {
  kind: 'gift';
  id: string;
  /** What the card holds now. */
  balance: number;
  /** Credits asked for (`gift.credits`); absent = as much as the order and the balance allow. */
  credits?: number;
}

/** A redeemable that changes no figure of the order (a loyalty card, a reward, a referral code without a discount). */
export interface NoEffectRedeemable {
  kind: 'none';
  id: string;
}

export type Redeemable = DiscountRedeemable | GiftRedeemable | NoEffectRedeemable;

/**
 * The first wire field of `discount` the calculator cannot evaluate, or null when it can evaluate
 * all of it: a `*_formula` (also inside `units`), or the effects it does not implement
 * (`ADD_SAME_ITEMS`). The route answers 400 naming it rather than apply the fallback figure.
 */
export function unsupportedDiscountField(discount: Discount): string | null {
  switch (discount.type) {
    case 'AMOUNT':
      return discount.amountOffFormula !== undefined ? 'discount.amount_off_formula' : null;
    case 'PERCENT':
      return discount.percentOffFormula !== undefined ? 'discount.percent_off_formula' : null;
    case 'FIXED':
      return discount.fixedAmountFormula !== undefined ? 'discount.fixed_amount_formula' : null;
    case 'UNIT': {
      if (discount.unitOffFormula !== undefined) return 'discount.unit_off_formula';
      if (discount.effect === 'ADD_SAME_ITEMS') return 'discount.effect ADD_SAME_ITEMS';
      const i = (discount.units ?? []).findIndex((u) => u.unitOffFormula !== undefined);
      return i >= 0 ? `discount.units[${i}].unit_off_formula` : null;
    }
  }
}

/**
 * Throws when the calculator cannot evaluate `discount` (see unsupportedDiscountField).
 * @throws UnsupportedDiscountError (400) naming the field and the redeemable `id`.
 */
export function assertSupportedDiscount(discount: Discount, id: string): void {
  const field = unsupportedDiscountField(discount);
  if (field !== null) throw new UnsupportedDiscountError(field, id);
}
