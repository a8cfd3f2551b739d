import * as z from '../zod.js';
import { queryInt } from '../http/query-params.js';
import { ASSET_TYPES } from './voucher-asset.js';

/** GET /v1/assets/{assetType}/{assetId}: the id from a voucher's `assets` (any string: one this service did not write is not found). */
export const voucherAssetParams = z.strictObject({
  assetType: z.enum(ASSET_TYPES),
  assetId: z.string().check(z.minLength(1), z.maxLength(1000)),
});

/** Voucherify's image options: `size` 1–100 and `format` png (default) or svg. */
export const voucherAssetQuery = z.strictObject({
  size: z.optional(queryInt(1, 100)),
  format: z._default(z.enum(['png', 'svg']), 'png'),
});
export type VoucherAssetQuery = z.output<typeof voucherAssetQuery>;
