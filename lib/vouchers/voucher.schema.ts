import * as z from 'zod';
import { queryBoolean, queryInt } from '../http/query-params.js';
import { codeConfigSchema, dateTime, metadataSchema, redemptionSchema } from '../campaigns/campaign.schema.js';
import { CODE_CHARACTERS, MAX_CODE_LENGTH } from './code-generator.js';

/** Upper bound of `vouchers_count` on POST /v1/campaigns/{campaignId}/vouchers. */
export const MAX_VOUCHERS_PER_REQUEST = 100_000;

export const codeSchema = z
  .string()
  .min(1)
  .max(MAX_CODE_LENGTH)
  .regex(CODE_CHARACTERS, 'must hold printable ASCII characters without spaces');

export const addVouchersQuery = z.strictObject({ vouchers_count: queryInt(1, MAX_VOUCHERS_PER_REQUEST).optional() });

/** POST /v1/campaigns/{campaignId}/vouchers: the spec's fields, nothing else. */
export const addVouchersBody = z
  .strictObject({
    code: codeSchema.optional(),
    code_config: codeConfigSchema.optional(),
    category: z.string().min(1).max(200).optional(),
    category_id: z.string().min(1).max(100).optional(),
    metadata: metadataSchema.optional(),
    redemption: redemptionSchema.optional(),
    additional_info: z.string().max(1000).optional(),
    start_date: dateTime.optional(),
    expiration_date: dateTime.optional(),
  })
  .refine((b) => !(b.category !== undefined && b.category_id !== undefined), {
    message: 'pass either category or category_id, not both',
    path: ['category_id'],
  })
  .refine((b) => !(b.code !== undefined && b.code_config !== undefined), {
    message: 'pass either code or code_config, not both',
    path: ['code_config'],
  })
  .refine((b) => !b.start_date || !b.expiration_date || b.start_date <= b.expiration_date, {
    message: 'must not be before start_date',
    path: ['expiration_date'],
  });
export type AddVouchersBody = z.output<typeof addVouchersBody>;

/** GET and DELETE /v1/vouchers/{code}: a code or a voucher id. Any string: one that cannot exist is simply not found. */
export const voucherParams = z.strictObject({ code: z.string().min(1).max(1000) });

export const deleteVoucherQuery = z.strictObject({ force: queryBoolean.optional() });
