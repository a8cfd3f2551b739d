import * as z from '../zod.js';
import { redemptionSchema } from './code-config.schema.js';
import { dateTime } from '../date-time.schema.js';
import { metadataSchema } from '../metadata.schema.js';
import { MAX_CODE_LENGTH } from './code-generator.js';
import {
  discountSchema,
  giftSchema,
  loyaltyCardTemplateSchema,
  validityDayOfWeekSchema,
  validityTimeframeSchema,
} from '../campaigns/voucher-template.schema.js';

/**
 * Vouchers one import request may carry. The list is stored with the async action (chunk items)
 * and its per-code failures in the action item, whose 400 KB limit this keeps well clear of.
 */
export const MAX_IMPORT_VOUCHERS = 1000;

/**
 * One voucher of an import (the reference's VoucherImportBase with its discount, gift and loyalty
 * card branches). The code is only bounded here: a code that is not valid, or already taken, is a
 * per-code failure in the action's result, not a refusal of the whole list.
 */
export const importVoucherItem = z.strictObject({
  code: z.string().check(z.minLength(1), z.maxLength(MAX_CODE_LENGTH)),
  type: z.optional(z.enum(['DISCOUNT_VOUCHER', 'GIFT_VOUCHER', 'LOYALTY_CARD'])),
  discount: z.optional(discountSchema),
  gift: z.optional(giftSchema),
  loyalty_card: z.optional(loyaltyCardTemplateSchema),
  category: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
  redemption: z.optional(redemptionSchema),
  active: z.optional(z.boolean()),
  metadata: z.optional(metadataSchema),
  start_date: z.optional(z.nullable(dateTime)),
  expiration_date: z.optional(z.nullable(dateTime)),
  validity_timeframe: z.optional(z.nullable(validityTimeframeSchema)),
  validity_day_of_week: z.optional(z.nullable(validityDayOfWeekSchema)),
  additional_info: z.optional(z.nullable(z.string().check(z.maxLength(1000)))),
});
export type ImportVoucherItem = z.output<typeof importVoucherItem>;

/** POST /v1/campaigns/{campaignId}/import and POST /v1/vouchers/import: 1–MAX_IMPORT_VOUCHERS vouchers. */
export const importVouchersBody = z.array(importVoucherItem).check(z.minLength(1), z.maxLength(MAX_IMPORT_VOUCHERS));
export type ImportVouchersBody = z.output<typeof importVouchersBody>;
