import { listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';
import { discountSchema } from '../campaigns/voucher-template.schema.js';
import { customerReplySchema } from '../customers/customer.reply.js';
import { voucherReplySchema } from '../vouchers/voucher.reply.js';

/*
 * Reply schemas of the publication endpoints (lib/publications/publication.mapper.ts writes these
 * shapes). Only the OpenAPI generator and the tests import this module: handler bundles stay small.
 */

const timestamp = z.iso.datetime();

/** Fields every publication object has (Voucherify's PublicationsCreateBaseResponseBody / ListPublicationsItemBase). */
const base = {
  id: z.string().check(z.regex(/^pub_/)),
  object: z.literal('publication'),
  created_at: timestamp,
  customer_id: z.string(),
  /** The customer's `source_id`, when it has one. */
  tracking_id: z.optional(z.string()),
  metadata: z.looseObject({
    source_type: z.optional(z.string()),
    source_id: z.optional(z.string()),
    distribution_id: z.optional(z.string()),
  }),
  channel: z.string().check(z.describe('The channel sent with the publication, else `API`.')),
  source_id: z.nullable(z.string()),
  result: z.literal('SUCCESS'),
  customer: customerReplySchema,
  vouchers_id: z.array(z.string()),
};

/**
 * POST /v1/publications and GET /v1/publications/create: the publication with the voucher it gave
 * (one voucher), or with the codes it gave (`campaign.count` above 1).
 */
export const publicationReplySchema = z.union([
  z.strictObject({ ...base, voucher: voucherReplySchema }),
  z.strictObject({ ...base, vouchers: z.array(z.string()) }),
]);
export type PublicationReply = z.output<typeof publicationReplySchema>;

/** The voucher of a single-voucher publication in a list, as it was when published (Voucherify's ListPublicationsItemVoucher). */
const listVoucherSchema = z.strictObject({
  code: z.string(),
  object: z.literal('voucher'),
  /** The campaign's name; null for a voucher of no campaign. */
  campaign: z.nullable(z.string()),
  gift: z.optional(
    z.strictObject({
      amount: z.int().check(z.nonnegative()),
      subtracted_amount: z.int().check(z.nonnegative()),
      balance: z.int(),
      effect: z.optional(z.string()),
    }),
  ),
  loyalty_card: z.optional(z.strictObject({ points: z.int(), balance: z.int() })),
  discount: z.optional(discountSchema),
  is_referral_code: z.boolean(),
});

/**
 * One publication of GET /v1/publications: its single voucher summarized, or the codes it gave.
 * Voucherify also lists failed attempts (`result: FAILURE` with `failure_code` and
 * `failure_message`); the shape is described, but none is ever listed here: a failed attempt is
 * answered with its error and not stored.
 */
export const publicationListItemReplySchema = z.union([
  z.strictObject({ ...base, voucher: listVoucherSchema }),
  z.strictObject({ ...base, vouchers: z.array(z.string()) }),
  z.strictObject({
    ...base,
    result: z.literal('FAILURE'),
    failure_code: z.optional(z.string()),
    failure_message: z.optional(z.string()),
    vouchers: z.array(z.string()),
  }),
]);

/** GET /v1/publications (Voucherify's PublicationsListResponseBody). */
export const publicationListReplySchema = listReply(publicationListItemReplySchema, {
  dataRef: 'publications',
  total:
    'The number of publications the filter names (all of the project, or those of the customer, campaign, voucher, voucher type or referral flag given), kept as a count: `created_at` bounds do not narrow it. 0 with `result=FAILURE`: failed attempts are answered with an error and not stored.',
  hasMore: 'Whether more publications follow this page in its order and date bounds.',
});
