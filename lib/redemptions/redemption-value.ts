import { BadRequestError } from '../errors.js';
import type { StackedBody, StackedRequest } from '../validations/validation.schema.js';

/*
 * A redemption moves value: a use against an order worth something, or gift credits. One that
 * states zero (an order of amount 0 or -0, `gift.credits` 0 or -0) was accepted and recorded as a
 * redemption of nothing (issue 41 item 8). Pure: what the request states, before anything is read.
 */

/**
 * The order amount a request states: `amount` when sent, else the sum of its lines when every line
 * states its amount (`amount`, or `price` × `quantity`); undefined when it states none (no order,
 * a stored order named by id or source id, lines without prices).
 */
export function statedOrderAmount(order: StackedRequest['order']): number | undefined {
  if (order === undefined) return undefined;
  if (order.amount !== undefined) return order.amount;
  const items = order.items ?? [];
  if (items.length === 0) return undefined;
  let sum = 0;
  for (const item of items) {
    const amount = item.amount ?? (item.price !== undefined && item.quantity !== undefined ? item.price * item.quantity : undefined);
    if (amount === undefined) return undefined;
    sum += amount;
  }
  return sum;
}

const invalidAmount = (details: string): BadRequestError => new BadRequestError('invalid_amount', 'Invalid Amount', details);

/**
 * Refuses a redemption that states zero value, with the reference's `invalid_amount` (its wording:
 * "Amount has to be a valid positive number").
 * @throws BadRequestError `invalid_amount` for an order stated at 0 or a redeemable's `gift.credits` of 0.
 */
export function assertRedemptionHasValue(request: Pick<StackedBody, 'order' | 'redeemables'>): void {
  if (statedOrderAmount(request.order) === 0) throw invalidAmount('Amount has to be a valid positive number: the order amounts to 0');
  request.redeemables.forEach((r, i) => {
    if ((r.object === 'voucher' || r.object === 'gift_card') && r.gift?.credits === 0) {
      throw invalidAmount(`Amount has to be a valid positive number: redeemables[${i}].gift.credits is 0`);
    }
  });
}
