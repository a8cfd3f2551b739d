/*
 * The error object of one redeemable a validation finds INAPPLICABLE (the reference's
 * `redeemables[].result.error`, the same shape as an HTTP error object). Its keys are the
 * reference's redemption failure codes; what each means is in `messages` below.
 */

/** Why a redeemable is INAPPLICABLE: the reference's `failure_code`s that validation can decide. */
export const REDEEMABLE_ERROR_KEYS = [
  'resource_not_found',
  'voucher_disabled',
  'voucher_not_active',
  'voucher_expired',
  'campaign_not_active',
  'promotion_inactive',
  'quantity_exceeded',
  'gift_amount_exceeded',
  'missing_order_items',
  'order_rules_violated',
  'customer_rules_violated',
  'redemption_rules_violated',
] as const;
export type RedeemableErrorKey = (typeof REDEEMABLE_ERROR_KEYS)[number];

/** The error object of an INAPPLICABLE redeemable (the reference's Error). */
export interface RedeemableError {
  code: number;
  key: RedeemableErrorKey;
  message: string;
  details: string;
  request_id?: string;
  resource_id: string;
  resource_type: 'voucher' | 'promotion_tier';
  error: { message: string };
}

const messages: Record<RedeemableErrorKey, { message: string; explanation: string }> = {
  resource_not_found: { message: 'Resource not found', explanation: 'No such voucher or promotion tier exists in this project.' },
  voucher_disabled: { message: 'voucher is disabled', explanation: 'The voucher has been disabled and cannot be used.' },
  voucher_not_active: {
    message: 'voucher not active',
    explanation: 'The voucher is not valid at this time (before its start date, or outside its validity days, hours or timeframe).',
  },
  voucher_expired: { message: 'voucher expired', explanation: 'The voucher has passed its expiration date.' },
  campaign_not_active: { message: 'campaign not active', explanation: 'The campaign of this redeemable is disabled or not valid at this time.' },
  promotion_inactive: { message: 'Inactive Promotion', explanation: 'The promotion tier is disabled.' },
  quantity_exceeded: { message: 'quantity exceeded', explanation: 'No use of the voucher is left (redeemed, or held by another validation session).' },
  gift_amount_exceeded: {
    message: 'gift amount exceeded',
    explanation: 'The gift credits asked for are more than the card holds (less what other validation sessions hold).',
  },
  missing_order_items: { message: 'missing order items', explanation: 'The discount applies to order items, and the order has none.' },
  order_rules_violated: { message: 'order does not match validation rules', explanation: 'The order does not meet a validation rule of this redeemable.' },
  customer_rules_violated: {
    message: 'customer does not match validation rules',
    explanation: 'The customer does not meet a validation rule of this redeemable.',
  },
  redemption_rules_violated: {
    message: 'redemption does not match validation rules',
    explanation: 'A redemption limit set by a validation rule of this redeemable is reached.',
  },
};

/**
 * The error object for redeemable `id` (a voucher code or promotion tier id) failing with `key`.
 * `resource_not_found` is a 404, every other key a 400, as the reference's examples give them.
 * `customMessage`: a failing validation rule's `error.message`, which `error.message` carries.
 */
export function redeemableError(
  key: RedeemableErrorKey,
  object: 'voucher' | 'promotion_tier',
  id: string,
  requestId?: string,
  customMessage?: string | null,
): RedeemableError {
  const { message, explanation: standard } = messages[key];
  const explanation = customMessage ?? standard;
  return {
    code: key === 'resource_not_found' ? 404 : 400,
    key,
    message,
    details: id,
    ...(requestId !== undefined ? { request_id: requestId } : {}),
    resource_id: id,
    resource_type: object,
    error: { message: explanation },
  };
}
