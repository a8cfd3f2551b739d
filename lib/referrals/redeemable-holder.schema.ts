import * as z from '../zod.js';
import { customerInput } from '../customers/customer.schema.js';
import { stringFilters } from '../filter-conditions.schema.js';
import { nestQuery, queryInt } from '../http/query-params.js';
import { metadataSchema } from '../metadata.schema.js';

const ref = z.string().check(z.minLength(1), z.maxLength(1000));

/** `{memberId}`: the referral code (or its voucher id). */
export const referralMemberParams = z.strictObject({ memberId: ref });
/** `{campaignId}` (id or name) and `{memberId}`. */
export const referralCampaignMemberParams = z.strictObject({ campaignId: ref, memberId: ref });
/** `{memberId}` and `{holderId}` (`rh_…`). */
export const referralHolderParams = z.strictObject({ memberId: ref, holderId: ref });
/** `{campaignId}`, `{memberId}` and `{holderId}`. */
export const referralCampaignHolderParams = z.strictObject({ campaignId: ref, memberId: ref, holderId: ref });

/** Holders one request may add (the reference: 1 to 100). */
export const MAX_HOLDERS_PER_REQUEST = 100;

/**
 * POST …/members/{memberId}/holders: the customers to add as referees (each upserted as
 * POST /v1/customers does; `id` or `source_id` required) and the metadata of their holdings.
 */
export const addReferralHoldersBody = z.strictObject({
  holders: z.array(customerInput).check(z.minLength(1), z.maxLength(MAX_HOLDERS_PER_REQUEST)),
  metadata: z.optional(z.nullable(metadataSchema)),
});
export type AddReferralHoldersBody = z.output<typeof addReferralHoldersBody>;

const isFilterKey = (key: string) => key === 'filters' || key.startsWith('filters[');
export const nestFilters = (q: unknown) => {
  const flat = q as Record<string, string>;
  const filters = Object.entries(flat).filter(([k]) => isFilterKey(k));
  if (filters.length === 0) return q;
  return { ...Object.fromEntries(Object.entries(flat).filter(([k]) => !isFilterKey(k))), ...nestQuery(Object.fromEntries(filters)) };
};

const pagingShape = {
  limit: z._default(queryInt(1, 100), 10),
  order: z._default(z.enum(['id', '-id']), 'id'),
  starting_after_id: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
};

/** The holder fields a code's holders list filters on (string conditions; `created_at` is not served). */
export const HOLDER_FILTER_FIELDS = ['id', 'holder_role', 'customer_id'] as const;
export type HolderFilterField = (typeof HOLDER_FILTER_FIELDS)[number];

/** GET …/members/{memberId}/holders. */
export const listReferralHoldersQuery = z.preprocess(
  nestFilters,
  z.strictObject({ ...pagingShape, filters: z.optional(stringFilters(HOLDER_FILTER_FIELDS, 1000, 'redeemable holders')) }),
);
export type ListReferralHoldersQuery = z.output<typeof listReferralHoldersQuery>;
