import * as z from '../zod.js';
import { queryInt } from '../http/query-params.js';
import { type CustomerInput, customerInput, sourceId } from '../customers/customer.schema.js';
import { metadataSchema } from '../metadata.schema.js';
import { codeSchema } from '../vouchers/voucher-params.schema.js';
import { listVouchersPlainQuery } from '../vouchers/voucher-list.schema.js';
import { voucherTransactionsQuery } from '../vouchers/voucher-balance.schema.js';

const ref = z.string().check(z.minLength(1), z.maxLength(1000));

/** `{campaignId}` (id or name) and `{memberId}` (the card's code or id). */
export const memberParams = z.strictObject({ campaignId: ref, memberId: ref });

const MAX_POINTS = 1_000_000_000;

/** POST /v1/loyalties/{campaignId}/members/{memberId}/balance (Voucherify's LoyaltiesMembersBalanceUpdateRequestBody). */
export const balanceBody = z
  .strictObject({
    points: z.int().check(
      z.minimum(-MAX_POINTS),
      z.maximum(MAX_POINTS),
      z.refine((p) => p !== 0, 'must not be 0'),
    ),
    expiration_type: z.optional(z.enum(['PROGRAM_RULES', 'CUSTOM_DATE', 'NON_EXPIRING'])),
    expiration_date: z.optional(z.union([z.iso.date(), z.iso.datetime({ offset: true })])),
    reason: z.optional(z.string().check(z.maxLength(1000))),
    source_id: z.optional(z.string().check(z.maxLength(1000))),
  })
  .check(
    z.refine((b) => b.points > 0 || (b.expiration_type === undefined && b.expiration_date === undefined), {
      message: 'expiration_type and expiration_date apply only to added points',
    }),
  );
export type BalanceBody = z.output<typeof balanceBody>;

export const pointsExpirationQuery = z.strictObject({
  limit: z._default(queryInt(1, 100), 10),
  page: z._default(queryInt(1, 1_000_000), 1),
});
export type PointsExpirationQuery = z.output<typeof pointsExpirationQuery>;

/** `{campaignId}` alone (id or name of the program). */
export const programParams = z.strictObject({ campaignId: ref });

/** `{memberId}` alone: a card's code or id, in any program. */
export const cardParams = z.strictObject({ memberId: ref });

/**
 * The member: a customer object, or a bare string naming one: a `cust_…` id, otherwise a
 * `source_id` (as the reference's examples send either; docs/decisions.md "Loyalty members").
 */
const memberCustomer = z.pipe(
  z.union([sourceId, customerInput]),
  z.transform((v): CustomerInput => (typeof v !== 'string' ? v : /^cust_[0-9A-Za-z]+$/.test(v) ? { id: v } : { source_id: v })),
);

/**
 * POST /v1/loyalties/{campaignId}/members (Voucherify's LoyaltiesMembersCreateRequestBody): the
 * customer to join (id, source_id, or an object upserted by them), optionally the code of the
 * program's card to give, and the publication's `source_id`, `metadata` and `channel`.
 */
export const addMemberBody = z.strictObject({
  voucher: z.optional(codeSchema),
  customer: memberCustomer,
  source_id: z.optional(sourceId),
  metadata: z.optional(metadataSchema),
  channel: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
});
export type AddMemberBody = z.output<typeof addMemberBody>;

/**
 * GET /v1/loyalties/{campaignId}/members: the program's cards, as GET /v1/vouchers lists a
 * campaign's (same paging, dates and order; `code` and `ids` read those cards by key); `customer`
 * reads the one card the customer holds in the program.
 */
export const listMembersQuery = z.omit(listVouchersPlainQuery, { campaign_id: true, campaign: true, category: true });
export type ListMembersQuery = z.output<typeof listMembersQuery>;

/**
 * GET …/members/{memberId}/transactions and GET /v1/loyalties/{campaignId}/transactions: one page
 * by creation (`order` `id` oldest first, `-id` newest first, the default) after `starting_after_id`.
 */
export const cardTransactionsQuery = voucherTransactionsQuery;
export type CardTransactionsQuery = z.output<typeof cardTransactionsQuery>;

/** Source cards one transfer may take points from (each card's change shares one 100-item transaction). */
export const MAX_TRANSFER_SOURCES = 5;

/**
 * POST /v1/loyalties/{campaignId}/members/{memberId}/transfers (Voucherify's
 * LoyaltiesMembersTransfersCreateRequestBody): the cards to take points from, each once, with the
 * points to take and the caller's `source_id` and `reason` for it.
 */
export const transferPointsBody = z
  .array(
    z.strictObject({
      code: codeSchema,
      points: z.int().check(z.minimum(1), z.maximum(MAX_POINTS)),
      reason: z.optional(z.string().check(z.maxLength(1000))),
      source_id: z.string().check(z.minLength(1), z.maxLength(1000)),
    }),
  )
  .check(
    z.minLength(1),
    z.maxLength(MAX_TRANSFER_SOURCES),
    z.refine((sources) => new Set(sources.map((s) => s.code)).size === sources.length, 'each source card once'),
  );
export type TransferPointsBody = z.output<typeof transferPointsBody>;
