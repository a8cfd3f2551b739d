import { assertSupportedDiscount, type Redeemable } from './discount.js';
import { type LineView, planDiscount } from './effects.js';
import { toMoney } from './money.js';

/*
 * The calculator: from an order and an ordered list of redeemables to the figures of the reference's
 * OrderCalculated, one redeemable after another on the running total. Pure: no I/O, no clock, no
 * randomness, and the input is never changed, so validation and redemption of the same input get the
 * same figures. Which redeemables apply, and in which order, is the caller's (stacking-order.ts).
 */

/** One order line as the caller has it (a stored order's line carries what earlier redemptions took off). */
export interface OrderLineInput {
  productId?: string | null;
  skuId?: string | null;
  quantity: number;
  /** Unit price. */
  price: number;
  /** price × quantity, as the order layer computed it. */
  amount: number;
  /** Item-level discount from earlier redemptions of this order. */
  discountAmount?: number;
  /** Units discounted by earlier redemptions. */
  discountQuantity?: number;
  /** Quantity and amount before any unit was added; default: the line's quantity and amount. */
  initialQuantity?: number;
  initialAmount?: number;
}

export interface OrderInput {
  /** The order's amount (the sum of its lines' amounts when it has lines). */
  amount: number;
  /** The amount before any effect of an earlier redemption; default `amount`. */
  initialAmount?: number;
  /** Order-level discount from earlier redemptions of this order. */
  discountAmount?: number;
  items?: readonly OrderLineInput[];
}

/** One line of OrderItemCalculated: `applied*` count only this request (or, in a step, only that redeemable). */
export interface LineCalculation {
  productId: string | null;
  skuId: string | null;
  quantity: number;
  initialQuantity: number;
  discountQuantity: number;
  appliedDiscountQuantity: number;
  /** Units this request added (ADD_MISSING_ITEMS / ADD_NEW_ITEMS). */
  appliedQuantity: number;
  appliedQuantityAmount: number;
  price: number;
  amount: number;
  initialAmount: number;
  discountAmount: number;
  appliedDiscountAmount: number;
  /** amount − discountAmount: what the line costs now. */
  subtotalAmount: number;
}

/** The figures of OrderCalculated. */
export interface OrderCalculation {
  amount: number;
  initialAmount: number;
  discountAmount: number;
  itemsDiscountAmount: number;
  totalDiscountAmount: number;
  totalAmount: number;
  appliedDiscountAmount: number;
  itemsAppliedDiscountAmount: number;
  totalAppliedDiscountAmount: number;
  items: LineCalculation[];
}

/** The order after one redeemable: cumulative figures, and `applied*` of this redeemable alone (the reference's per-redeemable `order`). */
export interface StepCalculation {
  id: string;
  kind: Redeemable['kind'];
  /** Everything this redeemable took off (order-level plus item-level). */
  appliedAmount: number;
  /** Credits a gift card gives (`result.gift.credits`); 0 for other kinds. */
  credits: number;
  order: OrderCalculation;
}

export interface Calculation {
  order: OrderCalculation;
  steps: StepCalculation[];
}

interface Line extends LineView {
  initialQuantity: number;
  initialAmount: number;
  discountQuantity: number;
  appliedDiscountQuantity: number;
  appliedQuantity: number;
  appliedQuantityAmount: number;
  appliedDiscountAmount: number;
}

interface State {
  amount: number;
  initialAmount: number;
  discountAmount: number;
  appliedDiscountAmount: number;
  lines: Line[];
}

const count = (n: number | undefined): number => (n === undefined || !Number.isFinite(n) || n <= 0 ? 0 : Math.floor(n));

/**
 * The starting state. Earlier discounts are clamped so the order never starts below zero: a line's
 * to its amount and to what the lines before it leave of the order's amount, the order-level one
 * to what the lines' discounts leave.
 */
function start(order: OrderInput): State {
  const amount = toMoney(order.amount);
  let room = amount;
  const take = (wanted: number): number => {
    const got = Math.min(wanted, room);
    room -= got;
    return got;
  };
  const lines: Line[] = (order.items ?? []).map((item) => {
    const lineAmount = toMoney(item.amount);
    const quantity = count(item.quantity);
    return {
      productId: item.productId ?? null,
      skuId: item.skuId ?? null,
      price: toMoney(item.price),
      quantity,
      amount: lineAmount,
      discountAmount: take(Math.min(toMoney(item.discountAmount), lineAmount)),
      initialQuantity: item.initialQuantity === undefined ? quantity : count(item.initialQuantity),
      initialAmount: item.initialAmount === undefined ? lineAmount : toMoney(item.initialAmount),
      discountQuantity: count(item.discountQuantity),
      appliedDiscountQuantity: 0,
      appliedQuantity: 0,
      appliedQuantityAmount: 0,
      appliedDiscountAmount: 0,
    };
  });
  return {
    amount,
    initialAmount: order.initialAmount === undefined ? amount : toMoney(order.initialAmount),
    discountAmount: take(toMoney(order.discountAmount)),
    appliedDiscountAmount: 0,
    lines,
  };
}

const runningTotal = (s: State): number => Math.max(s.amount - s.discountAmount - s.lines.reduce((a, l) => a + l.discountAmount, 0), 0);

/** The figures of `s`; `since` (a copy of an earlier state) makes `applied*` count what happened after it. */
function figures(s: State, since: State | null): OrderCalculation {
  const items = s.lines.map((l, i): LineCalculation => {
    const before = since?.lines[i];
    const applied = before ? l.appliedDiscountAmount - before.appliedDiscountAmount : l.appliedDiscountAmount;
    return {
      productId: l.productId,
      skuId: l.skuId,
      quantity: l.quantity,
      initialQuantity: l.initialQuantity,
      discountQuantity: l.discountQuantity,
      appliedDiscountQuantity: l.appliedDiscountQuantity - (before?.appliedDiscountQuantity ?? 0),
      appliedQuantity: l.appliedQuantity - (before?.appliedQuantity ?? 0),
      appliedQuantityAmount: l.appliedQuantityAmount - (before?.appliedQuantityAmount ?? 0),
      price: l.price,
      amount: l.amount,
      initialAmount: l.initialAmount,
      discountAmount: l.discountAmount,
      appliedDiscountAmount: applied,
      subtotalAmount: l.amount - l.discountAmount,
    };
  });
  const itemsDiscountAmount = items.reduce((a, l) => a + l.discountAmount, 0);
  const itemsAppliedDiscountAmount = items.reduce((a, l) => a + l.appliedDiscountAmount, 0);
  const appliedDiscountAmount = s.appliedDiscountAmount - (since?.appliedDiscountAmount ?? 0);
  const totalDiscountAmount = s.discountAmount + itemsDiscountAmount;
  return {
    amount: s.amount,
    initialAmount: s.initialAmount,
    discountAmount: s.discountAmount,
    itemsDiscountAmount,
    totalDiscountAmount,
    totalAmount: s.amount - totalDiscountAmount,
    appliedDiscountAmount,
    itemsAppliedDiscountAmount,
    totalAppliedDiscountAmount: appliedDiscountAmount + itemsAppliedDiscountAmount,
    items,
  };
}

const copy = (s: State): State => ({ ...s, lines: s.lines.map((l) => ({ ...l })) });

/** Applies one redeemable to `s` (its own copy); returns the credits a gift card gave. */
function apply(s: State, redeemable: Redeemable): number {
  const running = runningTotal(s);
  switch (redeemable.kind) {
    case 'none':
      return 0;
    case 'gift': {
      // Credits are order-level: never above the balance, the credits asked for, or what is left to pay.
      const asked = redeemable.credits === undefined ? Number.MAX_SAFE_INTEGER : toMoney(redeemable.credits);
      const credits = Math.min(asked, toMoney(redeemable.balance), running);
      s.discountAmount += credits;
      s.appliedDiscountAmount += credits;
      return credits;
    }
    case 'discount': {
      const plan = planDiscount(redeemable, s.lines, running);
      s.discountAmount += plan.orderOff;
      s.appliedDiscountAmount += plan.orderOff;
      for (const [index, off] of plan.linesOff) {
        const line = s.lines[index] as Line;
        line.discountAmount += off;
        line.appliedDiscountAmount += off;
      }
      for (const unit of plan.units) {
        const added = unit.price * unit.addQuantity;
        let line = unit.line === null ? undefined : s.lines[unit.line];
        if (line === undefined) {
          line = {
            productId: unit.productId,
            skuId: unit.skuId,
            price: unit.price,
            quantity: 0,
            amount: 0,
            discountAmount: 0,
            initialQuantity: 0,
            initialAmount: 0,
            discountQuantity: 0,
            appliedDiscountQuantity: 0,
            appliedQuantity: 0,
            appliedQuantityAmount: 0,
            appliedDiscountAmount: 0,
          };
          s.lines.push(line);
        }
        line.quantity += unit.addQuantity;
        line.amount += added;
        line.appliedQuantity += unit.addQuantity;
        line.appliedQuantityAmount += added;
        line.discountQuantity += unit.discountQuantity;
        line.appliedDiscountQuantity += unit.discountQuantity;
        line.discountAmount += unit.discount;
        line.appliedDiscountAmount += unit.discount;
        s.amount += added;
      }
      return 0;
    }
  }
}

/**
 * Applies `redeemables` to `order` in the order given (the caller has sorted and filtered them by
 * the stacking rules), each on the running total the ones before it left.
 *
 * Guarantees: every figure is a non-negative integer; no line's discount exceeds its amount;
 * `totalAmount = amount − totalDiscountAmount ≥ 0`; `itemsDiscountAmount` is the sum of the lines'
 * discounts; `applied*` count only this request (each step: only its redeemable); the input is not changed.
 * @throws UnsupportedDiscountError (400) for a discount with a `*_formula` or an effect it cannot evaluate.
 */
export function calculate(order: OrderInput, redeemables: readonly Redeemable[]): Calculation {
  for (const r of redeemables) if (r.kind === 'discount') assertSupportedDiscount(r.discount, r.id);
  const state = start(order);
  const steps: StepCalculation[] = [];
  for (const redeemable of redeemables) {
    const before = copy(state);
    const credits = apply(state, redeemable);
    const step = figures(state, before);
    steps.push({ id: redeemable.id, kind: redeemable.kind, appliedAmount: step.totalAppliedDiscountAmount, credits, order: step });
  }
  return { order: figures(state, null), steps };
}
