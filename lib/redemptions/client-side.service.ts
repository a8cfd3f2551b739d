import { redeemStackedDiscounts } from './redeem.service.js';

/**
 * POST /client/v1/redemptions: the server-side redemption, for a client-side key's project: the
 * same rules, limits, stacking, counters and Idempotency-Key (same bodies in the reference).
 */
export const redeemStackedDiscountsClientSide: typeof redeemStackedDiscounts = (...args) => redeemStackedDiscounts(...args);
