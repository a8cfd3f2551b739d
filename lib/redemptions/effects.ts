import type { CoveredLine, Discount, DiscountRedeemable } from './discount.js';
import { percentOf, splitCapped, toMoney } from './money.js';

/*
 * What one discount does to the order as it stands after the redeemables before it: pure functions
 * from (discount, the running figures) to a plan of changes, which the calculator then applies.
 * Every plan keeps the calculator's invariants by construction: a line's discount never above what
 * is left of it, the discount's total never above the order's running total.
 */

/** The figures of one order line an effect reads. */
export interface LineView {
  productId: string | null;
  skuId: string | null;
  price: number;
  quantity: number;
  amount: number;
  /** Discount already on the line (earlier redemptions of the order and earlier redeemables of this request). */
  discountAmount: number;
}

/** Units a UNIT discount adds to a line (an existing one, or a new line when `line` is null) and discounts. */
export interface UnitChange {
  line: number | null;
  productId: string | null;
  skuId: string | null;
  price: number;
  /** Units added to the cart. */
  addQuantity: number;
  /** Units given free. */
  discountQuantity: number;
  /** Their value taken off the line. */
  discount: number;
}

export interface EffectPlan {
  /** Taken off the order as a whole (order-level: `discount_amount`). */
  orderOff: number;
  /** Taken off lines, by line index (item-level: `items_discount_amount`). */
  linesOff: ReadonlyMap<number, number>;
  units: readonly UnitChange[];
}

const NONE: EffectPlan = { orderOff: 0, linesOff: new Map(), units: [] };

/** What is left to discount on a line. */
const leftOn = (line: LineView): number => Math.max(line.amount - line.discountAmount, 0);

/** The units of a line a discount covers (all of them unless ApplicableTo limited them). */
const unitsOn = (line: LineView, t: CoveredLine): number => Math.max(t.units ?? line.quantity, 0);

/** What is left to discount on the covered units of a line: their price, as far as the line's rest goes. */
const coveredLeft = (line: LineView, t: CoveredLine): number =>
  t.units === undefined ? leftOn(line) : Math.min(leftOn(line), toMoney(line.price * unitsOn(line, t)));

/** Per-line figures held to each line's `amountLimit`, then each group's to its `groupAmountLimit` (split by largest remainder). */
function applyLineLimits(targets: readonly CoveredLine[], raw: readonly number[]): number[] {
  const out = raw.map((r, k) => {
    const limit = targets[k]?.amountLimit;
    return limit === undefined ? r : Math.min(r, toMoney(limit));
  });
  const groups = new Map<string, number[]>();
  targets.forEach((t, k) => {
    if (t.group !== undefined && t.groupAmountLimit !== undefined) groups.set(t.group, [...(groups.get(t.group) ?? []), k]);
  });
  for (const ks of groups.values()) {
    const limit = toMoney(targets[ks[0] as number]?.groupAmountLimit ?? 0);
    const figures = ks.map((k) => out[k] as number);
    if (figures.reduce((a, f) => a + f, 0) <= limit) continue;
    const shares = splitCapped(limit, figures, figures);
    ks.forEach((k, j) => {
      out[k] = shares[j] as number;
    });
  }
  return out;
}

/** The covered lines that exist, in index order without repeats, each with its FIXED price if any. */
function covered(lines: readonly LineView[], given: readonly CoveredLine[] | undefined): CoveredLine[] {
  const byIndex = new Map<number, CoveredLine>();
  for (const c of given ?? lines.map((_, index) => ({ index }))) {
    // A line named twice is discounted once (its first mention, with its price); an index outside the order covers nothing.
    if (Number.isInteger(c.index) && c.index >= 0 && c.index < lines.length && !byIndex.has(c.index)) byIndex.set(c.index, c);
  }
  return [...byIndex.values()].sort((a, b) => a.index - b.index);
}

/**
 * Caps an item effect's raw per-line figures by `limit` (the discount's amount limits and the
 * order's running total): when the cap binds, the capped total is split in proportion to the raw
 * figures by largest remainder, so no line gets more than its raw figure.
 */
function capLines(targets: readonly CoveredLine[], figures: readonly number[], limit: number): Map<number, number> {
  const raw = applyLineLimits(targets, figures);
  const total = raw.reduce((a, r) => a + r, 0);
  const shares = total > limit ? splitCapped(limit, raw, raw) : raw;
  return new Map(targets.map((t, k) => [t.index, shares[k] as number]));
}

/** The smallest of the limits that are set (`amount_limit`, `aggregated_amount_limit`) and the running total. */
function limitOf(running: number, ...limits: Array<number | undefined>): number {
  return limits.reduce<number>((m, l) => (l === undefined ? m : Math.min(m, toMoney(l))), running);
}

/**
 * The plan of one discount on the current figures. `running` is the order's running total
 * (amount − every discount so far), never negative.
 */
export function planDiscount(redeemable: DiscountRedeemable, lines: readonly LineView[], running: number): EffectPlan {
  const discount = redeemable.discount;
  if (discount.type === 'UNIT') return planUnits(discount, redeemable.unitPrices ?? {}, lines, running);
  const effect = discount.effect ?? 'APPLY_TO_ORDER';
  if (effect === 'APPLY_TO_ORDER') return { ...NONE, orderOff: orderOff(discount, running) };
  const targets = covered(lines, redeemable.lines);
  const left = targets.map((t) => coveredLeft(lines[t.index] as LineView, t));
  switch (discount.type) {
    case 'AMOUNT': {
      const off = toMoney(discount.amountOff);
      const limit = limitOf(running, discount.aggregatedAmountLimit);
      switch (effect) {
        case 'APPLY_TO_ITEMS':
          // Each covered line gets the whole amount_off, as far as the line goes (the reference's five-redeemable example).
          return {
            ...NONE,
            linesOff: capLines(
              targets,
              left.map((l) => Math.min(off, l)),
              limit,
            ),
          };
        case 'APPLY_TO_ITEMS_BY_QUANTITY':
          // amount_off per unit of each covered line.
          return {
            ...NONE,
            linesOff: capLines(
              targets,
              targets.map((t, k) => Math.min(off * unitsOn(lines[t.index] as LineView, t), left[k] as number)),
              limit,
            ),
          };
        case 'APPLY_TO_ITEMS_PROPORTIONALLY':
        case 'APPLY_TO_ITEMS_PROPORTIONALLY_BY_QUANTITY': {
          // One amount_off split over the lines: by what is left of each, or by their quantities, never past a line's rest.
          const weights = effect === 'APPLY_TO_ITEMS_PROPORTIONALLY' ? left : targets.map((t) => unitsOn(lines[t.index] as LineView, t));
          const caps = applyLineLimits(targets, left);
          const shares = applyLineLimits(targets, splitCapped(Math.min(off, limit), weights, caps));
          return { ...NONE, linesOff: new Map(targets.map((t, k) => [t.index, shares[k] as number])) };
        }
      }
      return NONE;
    }
    case 'PERCENT': {
      // percent_off of what is left of each covered line; amount_limit caps the discount as a whole.
      const raw = left.map((l) => percentOf(l, discount.percentOff));
      return { ...NONE, linesOff: capLines(targets, raw, limitOf(running, discount.amountLimit, discount.aggregatedAmountLimit)) };
    }
    case 'FIXED': {
      // The covered line's units now cost the line's FIXED price (ApplicableTo `price`) or fixed_amount each.
      const raw = targets.map((t, k) => {
        const line = lines[t.index] as LineView;
        const price = toMoney(t.price ?? discount.fixedAmount);
        return Math.max((left[k] as number) - price * unitsOn(line, t), 0);
      });
      return { ...NONE, linesOff: capLines(targets, raw, running) };
    }
  }
}

/** An order-level discount on the running total. */
function orderOff(discount: Exclude<Discount, { type: 'UNIT' }>, running: number): number {
  switch (discount.type) {
    case 'AMOUNT':
      return Math.min(toMoney(discount.amountOff), limitOf(running, discount.aggregatedAmountLimit));
    case 'PERCENT':
      return Math.min(percentOf(running, discount.percentOff), limitOf(running, discount.amountLimit, discount.aggregatedAmountLimit));
    case 'FIXED':
      // The order now costs fixed_amount; an order already below it is left as it is.
      return Math.max(running - toMoney(discount.fixedAmount), 0);
  }
}

interface UnitSpec {
  unitOff?: number | undefined;
  effect: 'ADD_MISSING_ITEMS' | 'ADD_NEW_ITEMS';
  unitType: string;
  sku?: { id: string } | undefined;
  product?: { id: string } | undefined;
}

/** The units of a UNIT discount: its own unit, or each of `units` (ADD_MANY_ITEMS), in their order. */
function unitsOf(discount: Extract<Discount, { type: 'UNIT' }>): UnitSpec[] {
  if (discount.units !== undefined) return discount.units.map((u) => ({ ...u }));
  if (discount.unitType === undefined) return [];
  const effect = discount.effect === 'ADD_NEW_ITEMS' ? 'ADD_NEW_ITEMS' : 'ADD_MISSING_ITEMS';
  return [{ unitOff: discount.unitOff, effect, unitType: discount.unitType, sku: discount.sku, product: discount.product }];
}

/**
 * ADD_MISSING_ITEMS: the cart ends with at least `unit_off` units of the product, adding the
 * missing ones, and `unit_off` units are free. ADD_NEW_ITEMS: `unit_off` units are added and free,
 * whatever the cart holds. Units go onto the first line of the same SKU or product, or a new line.
 */
function planUnits(
  discount: Extract<Discount, { type: 'UNIT' }>,
  prices: Readonly<Record<string, number>>,
  lines: readonly LineView[],
  running: number,
): EffectPlan {
  const units: UnitChange[] = [];
  // Earlier units of the same discount change the lines a later unit reads (ADD_MANY_ITEMS on one product).
  const view = lines.map((l) => ({ ...l }));
  let budget = running;
  for (const unit of unitsOf(discount)) {
    // A stored unit without unit_off gives one unit; fractions of a unit cannot be added.
    const count = unit.unitOff === undefined ? 1 : Math.floor(Math.max(unit.unitOff, 0));
    const index = view.findIndex((l) => l.skuId === unit.unitType || l.productId === unit.unitType);
    const existing = index >= 0 ? view[index] : undefined;
    const price = toMoney(prices[unit.unitType] ?? existing?.price);
    const have = existing ? Math.max(existing.quantity, 0) : 0;
    const addQuantity = unit.effect === 'ADD_NEW_ITEMS' ? count : Math.max(count - have, 0);
    const added = price * addQuantity;
    const rest = existing ? leftOn(existing) + added : added;
    // Free units never make the line or the order negative: the added units raise both by what they take off.
    const off = Math.min(price * count, rest, budget + added);
    budget -= off - added;
    units.push({
      line: index >= 0 ? index : null,
      productId: unit.product?.id ?? (unit.sku !== undefined ? null : unit.unitType),
      skuId: unit.sku !== undefined ? unit.unitType : null,
      price,
      addQuantity,
      discountQuantity: count,
      discount: off,
    });
    if (existing) {
      existing.quantity += addQuantity;
      existing.amount += added;
      existing.discountAmount += off;
    } else {
      view.push({ productId: null, skuId: unit.unitType, price, quantity: addQuantity, amount: added, discountAmount: off });
    }
  }
  return { ...NONE, units };
}
