import { requireClientSwitch } from '../projects/client-switch.js';
import { redeemVoucher } from './legacy-redemption.service.js';
import { redeemStackedDiscounts } from './redeem.service.js';

/**
 * POST /client/v1/redemptions: the server-side redemption, for a client-side key's project (same
 * bodies in the reference): the same rules, limits, stacking, counters and Idempotency-Key, once the
 * project has switched client-side redemption on (client_redeem_enabled).
 * @throws ForbiddenError when it is off; otherwise as redeemStackedDiscounts.
 */
export const redeemStackedDiscountsClientSide: typeof redeemStackedDiscounts = async (deps, projectId, ...rest) => {
  await requireClientSwitch(deps, projectId, 'clientRedeemEnabled', 'Redeeming');
  return redeemStackedDiscounts(deps, projectId, ...rest);
};

/**
 * POST /client/v1/redeem?code=: the single-code redemption (the server's POST /v1/vouchers/{code}/redemption),
 * under the same switch.
 * @throws ForbiddenError when it is off; otherwise as redeemVoucher.
 */
export const redeemVoucherClientSide: typeof redeemVoucher = async (deps, projectId, ...rest) => {
  await requireClientSwitch(deps, projectId, 'clientRedeemEnabled', 'Redeeming');
  return redeemVoucher(deps, projectId, ...rest);
};
