import * as z from '../zod.js';
import { stringConditions as stringConditionsOf } from '../filter-conditions.schema.js';
import { customerInput, sourceId } from '../customers/customer.schema.js';
import { dateTime } from '../date-time.schema.js';
import { nestQuery, queryBoolean, queryInt } from '../http/query-params.js';
import { metadataSchema } from '../metadata.schema.js';
import { codeSchema } from '../vouchers/voucher-params.schema.js';
import { MAX_PUBLICATION_COUNT } from './publication.js';

/** A campaign's id or name, as the campaign endpoints take it. */
const campaignRef = z.string().check(z.minLength(1), z.maxLength(1000));
const channel = z.string().check(z.minLength(1), z.maxLength(200));

/** `metadata=` (no key under it) is how a form encoder writes an empty object: read as one. */
const isQueryObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A bare string names the campaign, as one of Voucherify's own examples sends it. */
const named = (v: unknown) => (typeof v === 'string' ? { name: v } : v);

/**
 * The campaign to publish from (Voucherify's CreatePublicationCampaign): its id or name and how
 * many vouchers to give (1–50, default 1).
 */
const campaignSchema = z.preprocess(
  named,
  z.strictObject({ name: campaignRef, count: z.optional(z.int().check(z.minimum(1), z.maximum(MAX_PUBLICATION_COUNT))) }),
);

/**
 * POST /v1/publications (Voucherify's PublicationsCreateRequestBody): a `voucher` code, or a
 * `campaign` to pick vouchers from (with both, the voucher is published and the campaign
 * ignored, as Voucherify documents); neither is 400 `missing_vouchers` (the service's check, so
 * the key is Voucherify's). `join_once` is also read from the body, where the official SDK sends it.
 */
export const createPublicationBody = z.strictObject({
  voucher: z.optional(codeSchema),
  campaign: z.optional(campaignSchema),
  customer: customerInput,
  source_id: z.optional(sourceId),
  metadata: z.optional(metadataSchema),
  channel: z.optional(channel),
  join_once: z.optional(z.boolean()),
});
export type CreatePublicationBody = z.output<typeof createPublicationBody>;

/** POST /v1/publications?join_once=true: the customer gets one code of the campaign, always the same. */
export const createPublicationQuery = z.strictObject({ join_once: z.optional(queryBoolean) });
export type CreatePublicationQuery = z.output<typeof createPublicationQuery>;

/**
 * POST /client/v1/publish: `join_once`, and the campaign's name or id in `campaign`, where the
 * official client SDK sends it (`client.publish(campaign, payload)`); a campaign in the body wins.
 */
export const createPublicationClientSideQuery = z.strictObject({ join_once: z.optional(queryBoolean), campaign: z.optional(campaignRef) });

/**
 * GET /v1/publications/create (the legacy form older SDKs use): the same request in bracketed
 * query parameters, `campaign[name]=…&customer[source_id]=…&metadata[key]=…`. Query values are
 * text, so metadata values arrive as strings. One voucher only (`campaign[count]` above 1 is 400
 * `too_many_vouchers_requested`, the service's check).
 */
export const createPublicationLegacyQuery = z.preprocess(
  (q) => nestQuery(q as Record<string, string>),
  z.strictObject({
    join_once: z.optional(queryBoolean),
    voucher: z.optional(codeSchema),
    campaign: z.optional(z.preprocess(named, z.strictObject({ name: campaignRef, count: z.optional(queryInt(1, MAX_PUBLICATION_COUNT)) }))),
    source_id: z.optional(sourceId),
    customer: z.preprocess((v) => (isQueryObject(v) && v.metadata === '' ? { ...v, metadata: {} } : v), customerInput),
    metadata: z.optional(z.preprocess((v) => (v === '' ? {} : v), metadataSchema)),
  }),
);
export type CreatePublicationLegacyQuery = z.output<typeof createPublicationLegacyQuery>;

const stringConditions = stringConditionsOf(1500);
export type PublicationStringConditions = z.output<typeof stringConditions>;
const condition = z.strictObject({ conditions: stringConditions });

/** The fields of `filters[…]` (Voucherify's ParameterFiltersListPublications). */
export const PUBLICATION_FILTER_FIELDS = [
  'failure_code',
  'result',
  'customer_id',
  'campaign_name',
  'voucher_type',
  'is_referral_code',
  'parent_object_id',
  'related_object_id',
  'source_id',
] as const;
export type PublicationFilterField = (typeof PUBLICATION_FILTER_FIELDS)[number];

/** The orders a key serves: creation time, newest first by default. */
export const PUBLICATION_ORDERS = ['created_at', '-created_at'] as const;

/**
 * Voucher types: Voucherify documents `discount` and `loyalty`; its SDK sends `DISCOUNT`,
 * `GIFT`, `LOYALTY_CARD` (and `LUCKY_DRAW`, a type no voucher here has).
 */
export const LIST_VOUCHER_TYPES = ['discount', 'loyalty', 'gift', 'DISCOUNT', 'GIFT', 'LOYALTY_CARD', 'LUCKY_DRAW'] as const;

/**
 * GET /v1/publications. Bracketed parameters (`filters[…]`, `created_at[…]`) are read as objects
 * first (nestQuery). Which filters go together is the service's rule (listPublications): one
 * list view is read per request.
 */
export const listPublicationsQuery = z.preprocess(
  (q) => nestQuery(q as Record<string, string>),
  z.strictObject({
    limit: z._default(queryInt(1, 100), 10),
    page: z._default(queryInt(1, 99), 1),
    order: z._default(z.enum(PUBLICATION_ORDERS), '-created_at'),
    campaign: z.optional(campaignRef),
    customer: z.optional(sourceId),
    voucher: z.optional(codeSchema),
    result: z.optional(z.enum(['SUCCESS', 'FAILURE'])),
    voucher_type: z.optional(z.enum(LIST_VOUCHER_TYPES)),
    is_referral_code: z.optional(queryBoolean),
    source_id: z.optional(sourceId),
    created_at: z.optional(z.strictObject({ before: z.optional(dateTime), after: z.optional(dateTime) })),
    filters: z.optional(
      z.strictObject({
        junction: z.optional(z.enum(['and', 'or', 'AND', 'OR'])),
        failure_code: z.optional(condition),
        result: z.optional(condition),
        customer_id: z.optional(condition),
        campaign_name: z.optional(condition),
        voucher_type: z.optional(condition),
        is_referral_code: z.optional(condition),
        parent_object_id: z.optional(condition),
        related_object_id: z.optional(condition),
        source_id: z.optional(condition),
      }),
    ),
  }),
);
export type ListPublicationsQuery = z.output<typeof listPublicationsQuery>;
