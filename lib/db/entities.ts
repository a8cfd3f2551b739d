import type { AppKey } from '../app-keys/app-key.js';
import type { ActivityRecord } from '../activity/activity.js';
import type { AsyncAction } from '../async-actions/async-action.js';
import type { BinEntry } from '../bin/bin-entry.js';
import type { Campaign, CampaignCounter, CampaignListEntry } from '../campaigns/campaign.js';
import type { CampaignSummaryDelta } from '../campaigns/campaign-summary.js';
import type { StoredCategory } from '../categories/category.js';
import type { Customer, CustomerListEntry, CustomerRedemptionSummary } from '../customers/customer.js';
import { sourceIdSortKey } from '../customers/customer-views.js';
import type { CustomerErasure } from '../customers/customer-erasure.service.js';
import type { EarningRule, EarningRuleLocation } from '../earning-rules/earning-rule.js';
import type { CustomEventSchema } from '../custom-event-schemas/event-schema.js';
import type { CustomEvent } from '../events/event.js';
import type { MetadataSchema } from '../metadata-schemas/metadata-schema.js';
import type { Export } from '../exports/export.js';
import { OPEN_JOB_PARTITION_PREFIX, openJobShard, type OpenJob } from '../jobs/open-job.js';
import type { CardTransaction } from '../loyalties/card-transaction.js';
import type { OrderEarning } from '../loyalties/order-earning.js';
import { PENDING_DUE_PARTITION_PREFIX, type PendingPoints, pendingShard } from '../loyalties/pending-points.js';
import { awaitsExpiry, EXPIRY_PARTITION_PREFIX, expiresKeyOf, expiryShard, type PointsBucket } from '../loyalties/points-bucket.js';
import type { LoyaltyTierSet } from '../loyalties/tier.js';
import type { OAuthToken } from '../oauth/oauth-token.js';
import { type Order, type OrderListEntry, orderLoyaltyShardOf } from '../orders/order.js';
import type { ManagementKey } from '../management/management-key.js';
import type { Branding } from '../management-branding/branding.js';
import type { ProjectUser, User } from '../management-users/user.js';
import type { Location } from '../locations/location.js';
import type { DeletedProject } from '../projects/deleted-project.js';
import { type Project, projectDefaults } from '../projects/project.js';
import type { StoredProduct, StoredSku } from '../products/product.js';
import type { CollectionMember, ProductCollection } from '../product-collections/product-collection.js';
import type { Redemption } from '../redemptions/redemption.js';
import type { SessionReservation } from '../redemptions/session-lock.js';
import type { PromotionStack } from '../promotion-stacks/promotion-stack.js';
import type { Publication, PublicationListEntry } from '../publications/publication.js';
import type { Segment } from '../segments/segment.js';
import type { ReferralConversion } from '../referrals/referral-conversion.js';
import type { ReferralHolder } from '../referrals/redeemable-holder.js';
import type { Reward, RewardAssignment } from '../rewards/reward.js';
import type { StackingRules } from '../validations/stacking-rules.js';
import type { CampaignTemplate } from '../templates/campaign-template.js';
import type { ObjectAssignments, StoredValidationRule, ValidationRuleAssignment } from '../validation-rules/validation-rule.js';
import { isPublishable, type Voucher } from '../vouchers/voucher.js';
import type { ImportVoucherItem } from '../vouchers/voucher-import.schema.js';
import type { Webhook } from '../webhooks/webhook.js';
import {
  entity,
  type Gsi2Key,
  type Gsi3Key,
  type Gsi4Key,
  type Gsi5Key,
  gsi2Key,
  gsi3Key,
  gsi4Key,
  gsi5Key,
  keyPath as path,
  tenantPath as tenant,
} from './entity.js';
import { tableDesign } from './table.js';

/**
 * Every stored entity of the single table: its name and version (the `entity` and `v` of each
 * item), its table key and, where it is listed, its GSI1 key. docs/architecture.md tables them.
 * Every tenant-owned key is built with `tenant(projectId, ...)` (`P#<projectId>#...`). The
 * exceptions, application keys, OAuth tokens and client keys' trusted origins, are credential lookups that arrive before the
 * project is known: keyed by the credential, with the project as an attribute. Management keys belong to no project, and
 * the GSI1 lists of every project (and of deleted ones) are the operator's. Codes, names and
 * ids are case-sensitive: never change their case.
 */

/** A campaign's creation number, zero-padded so that string order is number order (page p of `limit` is one key range). */
export const sequenceKey = (sequence: number): string => String(sequence).padStart(12, '0');
/** First part of a custom event's sort key (a Query of a customer's events asks for it with `begins_with`). */
export const EVENT_SORT_PREFIX = 'EVENT';
/** First part of a customer activity record's sort key (lib/activity/activity.ts), beside the custom events of its customer. */
export const ACTIVITY_SORT_PREFIX = 'ACTIVITY';
/** First part of a referral conversion's sort key (a Query of a code's conversions asks for it with `begins_with`). */
export const CONVERSION_SORT_PREFIX = 'CONVERSION';

/**
 * A project (tenant): its settings, in its own partition. GSI1 lists every project by creation
 * time (GET /management/v1/projects): one operator-wide partition, as projects are few.
 */
export const project = /* @__PURE__ */ entity<Project>('project', 1)
  .key(
    (projectId: string) => tenant(projectId),
    () => 'PROJECT',
  )
  .index(
    () => 'PROJECTS',
    (createdAt: string, projectId: string) => path(createdAt, projectId),
  )
  // Projects written before the Management API hold only their name, switches and creation time.
  .from((p) => ({ key: [p.projectId], index: [p.createdAt, p.projectId] }), { defaults: { ...projectDefaults(), webhookToken: '' } });

/**
 * A deleted project's tombstone, written with the project item's removal (DELETE
 * /management/v1/projects/{projectId}): its keys are gone, its data is unreachable, and the tombstone
 * carries the status and checkpoint of the job that removes that data (lib/projects/project-data-removal.ts;
 * docs/decisions.md "Deleting a project"). GSI1 lists them by deletion time.
 */
export const deletedProject = /* @__PURE__ */ entity<DeletedProject>('deleted_project', 1)
  .key(
    (projectId: string) => tenant(projectId),
    () => 'PROJECT_DELETED',
  )
  .index(
    () => 'DELETED_PROJECTS',
    (deletedAt: string, projectId: string) => path(deletedAt, projectId),
  )
  .from((p) => ({ key: [p.projectId], index: [p.deletedAt, p.projectId] }));

/**
 * The project's stacking rules (lib/validations/stacking-rules.ts), set by PUT /v1/stacking-rules;
 * absent = the reference's defaults. In the project's partition, so a validation reads it in the
 * same BatchGetItem as its redeemables.
 */
/** `id` and `createdAt`: the management API's view of the set rules; items written before it have neither (given on their next write). */
export const stackingRules = /* @__PURE__ */ entity<StackingRules & { updatedAt: string; id?: string; createdAt?: string }>('stacking_rules', 1)
  .key(
    (projectId: string) => tenant(projectId),
    () => 'STACKING_RULES',
  )
  .apart();

/** Live-token ledger of a project: the expiry (Unix s) of every possibly-live token, for the 1000 cap; `revision` is its optimistic lock. */
export const oauthLedger = /* @__PURE__ */ entity<{ expiries: number[]; revision: number }>('oauth_ledger', 1)
  .key(
    (projectId: string) => tenant(projectId),
    () => 'OAUTH_LEDGER',
  )
  .apart();

/** GSI1 lists a project's application keys by creation time. */
export const appKey = /* @__PURE__ */ entity<AppKey>('app_key', 1)
  .key(
    (appId: string) => `APPKEY#${appId}`,
    () => 'APPKEY',
  )
  .index(
    (projectId: string) => tenant(projectId, 'APPKEYS'),
    (createdAt: string, appId: string) => path(createdAt, appId),
  )
  .from((k) => ({ key: [k.appId], index: [k.projectId, k.createdAt, k.appId] }), {
    defaults: { permissions: null, ipAllowList: null, side: 'server', trustedOrigins: null, originless: true },
  });

/**
 * One trusted origin of one client-side key: a preflight (OPTIONS, which carries no credentials)
 * asks whether any key trusts its Origin with one Query of the origin's partition. Written and
 * removed in the transactions that change the key's origins or delete the key.
 */
export const clientOrigin = /* @__PURE__ */ entity<{ origin: string; appId: string; projectId: string }>('client_origin', 1)
  .key(
    (origin: string) => `CLIENT_ORIGIN#${origin}`,
    (appId: string) => `APPKEY#${appId}`,
  )
  .from((o) => ({ key: [o.origin, o.appId] }));

/**
 * An operator's Management API key (`X-Management-Id`): a credential lookup of no project, keyed by
 * its id. GSI1 lists every management key by creation time (the operator CLI's `management-key list`).
 */
export const managementKey = /* @__PURE__ */ entity<ManagementKey>('management_key', 1)
  .key(
    (managementId: string) => `MGMTKEY#${managementId}`,
    () => 'MGMTKEY',
  )
  .index(
    () => 'MGMTKEYS',
    (createdAt: string, managementId: string) => path(createdAt, managementId),
  )
  .from((k) => ({ key: [k.managementId], index: [k.createdAt, k.managementId] }), { defaults: { ipAllowList: null } });

/** Keyed by the token's SHA-256; DynamoDB's TTL drops it after it expires. */
export const oauthToken = /* @__PURE__ */ entity<OAuthToken>('oauth_token', 1)
  .key(
    (tokenHash: string) => `OAUTH#${tokenHash}`,
    () => 'OAUTH',
  )
  .from((t) => ({ key: [t.tokenHash] }), { ttl: (t) => t.expiresAt });

/** A campaign, with its voucher template, promotion tiers and the exact `vouchersCount`. */
export const campaign = /* @__PURE__ */ entity<Campaign>('campaign', 1)
  .key(
    (projectId: string, campaignId: string) => tenant(projectId, 'CAMPAIGN', campaignId),
    () => 'CAMPAIGN',
  )
  // Campaigns written before descriptions were kept have none.
  .from((c) => ({ key: [c.projectId, c.id] }), { defaults: { description: null } });
/** Reserves a campaign name in its project (names are unique, case-sensitive); holds the campaign id. */
export const campaignName = /* @__PURE__ */ entity<{ campaignId: string }>('campaign_name', 1)
  .key(
    (projectId: string, name: string) => tenant(projectId, 'CAMPAIGN_NAME', name),
    () => 'CAMPAIGN_NAME',
  )
  .apart();
/**
 * A campaign's compact list entry: the fields list filters and orders need, in one partition per
 * project, so listing reads small items instead of whole campaigns. GSI1 orders it by creation number.
 */
export const campaignListEntry = /* @__PURE__ */ entity<CampaignListEntry>('campaign_list_entry', 1)
  .key(
    (projectId: string) => tenant(projectId, 'CAMPAIGNS'),
    (createdAt: string, campaignId: string) => path(createdAt, campaignId),
  )
  .index(
    (projectId: string) => tenant(projectId, 'CAMPAIGN_SEQ'),
    (sequence: number) => sequenceKey(sequence),
  )
  .from((e, projectId: string) => ({ key: [projectId, e.createdAt, e.id], index: [projectId, e.sequence] }), {
    defaults: { voucherType: null, categoryId: null, categoryName: null, startDate: null, expirationDate: null, validityDayOfWeek: null, updatedAt: null },
  });
/**
 * A campaign's entry in one filter view (`TYPE#<type>`, `REF#<flag>`, `TYPE#<type>#REF#<flag>`;
 * lib/campaigns/campaign-views.ts), at its number in that view (1, 2, 3, … in creation order, zero-padded
 * like creation numbers): page p of a filtered list is one key range. Written with the campaign, never changed.
 */
export const campaignViewEntry = /* @__PURE__ */ entity<{ id: string }>('campaign_view_entry', 1)
  .key(
    (projectId: string, view: string) => tenant(projectId, 'CAMPAIGN_VIEW', view),
    (n: number) => sequenceKey(n),
  )
  .apart();
/**
 * How many campaigns a project has and the newest `createdAt`, for `total` and page arithmetic;
 * also the filter views' counts and the campaigns that are not DONE (CampaignCounter).
 */
export const campaignCounter = /* @__PURE__ */ entity<CampaignCounter>('campaign_counter', 1)
  .key(
    (projectId: string) => tenant(projectId),
    () => 'CAMPAIGN_COUNTER',
  )
  .apart();
/**
 * One shard of one UTC day of a campaign's summary counters (lib/campaigns/campaign-summary.ts):
 * ADDed to by the transactions that do what they count; a campaign's days are one partition, so
 * a date range is one Query (`SK BETWEEN <start>#00 AND <end>#99`).
 */
export const campaignSummaryCounter = /* @__PURE__ */ entity<CampaignSummaryDelta>('campaign_summary_counter', 1)
  .key(
    (projectId: string, campaignId: string) => tenant(projectId, 'CAMPAIGN_SUMMARY', campaignId),
    (day: string, shard: number) => path(day, String(shard).padStart(2, '0')),
  )
  .apart();
/** Points a promotion tier id at its campaign (tiers live inside the campaign item). */
export const promotionTierRef = /* @__PURE__ */ entity<{ campaignId: string }>('promotion_tier_ref', 1)
  .key(
    (projectId: string, tierId: string) => tenant(projectId, 'PROMO_TIER', tierId),
    () => 'PROMO_TIER',
  )
  .apart();

/**
 * A held voucher's GSI2 entry: the vouchers of one holder by creation (GET /v1/vouchers?customer=).
 * GSI2 is shared with the campaign's pool (below): a voucher with a holder is never publishable,
 * so it has at most one of the two entries.
 */
export const voucherByHolder = /* @__PURE__ */ gsi2Key(
  (projectId: string, customerId: string) => tenant(projectId, 'HOLDER', customerId, 'VOUCHERS'),
  (createdAt: string, voucherId: string) => path(createdAt, voucherId),
);
/** Every voucher's GSI3 (keys-only) entry: the project's vouchers by creation (GET /v1/vouchers). */
export const voucherByProject = /* @__PURE__ */ gsi3Key(
  (projectId: string) => tenant(projectId, 'VOUCHERS'),
  (createdAt: string, voucherId: string) => path(createdAt, voucherId),
);
/**
 * A categorised voucher's GSI4 (sparse, keys-only) entry: the vouchers of one category by creation
 * (GET /v1/vouchers?category=). Keyed by the category's id, which a rename does not change.
 */
export const voucherByCategory = /* @__PURE__ */ gsi4Key(
  (projectId: string, categoryId: string) => tenant(projectId, 'CATEGORY', categoryId, 'VOUCHERS'),
  (createdAt: string, voucherId: string) => path(createdAt, voucherId),
);
/** A voucher's GSI4 entry while it has a category, else none (changeVoucherItem sets or removes it with the category). */
export function voucherCategoryKeys(v: Pick<Voucher, 'projectId' | 'createdAt' | 'id' | 'category'>): Partial<Gsi4Key> {
  return v.category ? voucherByCategory(v.projectId, v.category.id, v.createdAt, v.id) : {};
}
/**
 * Every voucher's GSI5 (keys-only) entry: the project's vouchers by last change, `updatedAt` or,
 * for a voucher never changed, `createdAt` (GET /v1/vouchers `updated_at[…]`, `order=updated_at`).
 */
export const voucherByChange = /* @__PURE__ */ gsi5Key(
  (projectId: string) => tenant(projectId, 'VOUCHERS_CHANGED'),
  (changedAt: string, voucherId: string) => path(changedAt, voucherId),
);
/** A voucher's GSI5 entry: at `updatedAt`, else at `createdAt`. */
export function voucherChangeKeys(v: Pick<Voucher, 'projectId' | 'createdAt' | 'updatedAt' | 'id'>): Gsi5Key {
  return voucherByChange(v.projectId, v.updatedAt ?? v.createdAt, v.id);
}
/**
 * The SET clauses (`#chpk = :chpk, #chsk = :chsk`, with their names and values) that move a
 * voucher's GSI5 entry to `now`. Every UpdateItem that sets a voucher's `updatedAt = now` adds
 * them, so the change list (GSI5) orders vouchers by the `updated_at` their replies show; a
 * voucher written before GSI5 existed gets its entry from its next change. The placeholders are
 * reserved for this: no other clause of a voucher write uses `#chpk`, `#chsk`, `:chpk`, `:chsk`.
 */
export function voucherChangeSet(
  v: Pick<Voucher, 'projectId' | 'id'>,
  now: string,
): { set: string; names: Record<string, string>; values: Record<string, string> } {
  const k = voucherByChange(v.projectId, now, v.id);
  return {
    set: '#chpk = :chpk, #chsk = :chsk',
    names: { '#chpk': tableDesign.indexes.gsi5.partitionKey, '#chsk': tableDesign.indexes.gsi5.sortKey },
    values: { ':chpk': k.GSI5PK, ':chsk': k.GSI5SK },
  };
}
/**
 * The listing entries of a voucher beyond its campaign's GSI1 entry, computed from the voucher
 * alone: its project-wide GSI3 entry (creation time and id never change, so no update moves it),
 * its GSI5 entry at its last change (voucherChangeKeys; every write of `updatedAt` moves it: voucherChangeSet),
 * while it has a holder, its holder's GSI2 entry (every write that sets `holderId` sets it:
 * lib/vouchers/voucher-pool.repo.ts; toItem for vouchers put with a holder), and while it has a
 * category, its category's GSI4 entry (every write that sets `category` sets it: toItem, and
 * changeVoucherItem in lib/vouchers/voucher.repo.ts).
 */
export function voucherListKeys(
  v: Pick<Voucher, 'projectId' | 'createdAt' | 'updatedAt' | 'id' | 'holderId' | 'category'>,
): Partial<Gsi2Key> & Gsi3Key & Partial<Gsi4Key> & Gsi5Key {
  return {
    ...voucherByProject(v.projectId, v.createdAt, v.id),
    ...voucherChangeKeys(v),
    ...(v.holderId !== null && v.holderId !== undefined ? voucherByHolder(v.projectId, v.holderId, v.createdAt, v.id) : {}),
    ...voucherCategoryKeys(v),
  };
}

/**
 * A voucher, keyed by its code: the key itself makes codes unique per project. GSI1 lists a
 * campaign's vouchers by creation time. The sparse GSI2 is the campaign's pool of vouchers to
 * publish: only a publishable voucher (isPublishable: active, unpublished, no holder) has an entry,
 * sorted by voucher id (random), so a publication starts reading at a random point of the pool
 * and concurrent publications seldom reach for the same voucher. Publishing replaces the entry
 * with the holder's (voucherByHolder) in the publication's own transaction. GSI3 lists every
 * voucher of the project, GSI4 a category's, GSI5 the project's by last change (voucherListKeys).
 */
export const voucher = /* @__PURE__ */ entity<Voucher>('voucher', 1)
  .key(
    (projectId: string, code: string) => tenant(projectId, 'VOUCHER', code),
    () => 'VOUCHER',
  )
  .index(
    (projectId: string, campaignId: string) => tenant(projectId, 'CAMPAIGN', campaignId, 'VOUCHERS'),
    (createdAt: string, voucherId: string) => path(createdAt, voucherId),
  )
  .sparse(
    (projectId: string, campaignId: string) => tenant(projectId, 'CAMPAIGN', campaignId, 'UNPUBLISHED'),
    (voucherId: string) => voucherId,
  )
  .from(
    (v, campaignId: string) => ({
      key: [v.projectId, v.code],
      index: [v.projectId, campaignId, v.createdAt, v.id],
      sparse: isPublishable(v) ? [v.projectId, campaignId, v.id] : null,
    }),
    { moreKeys: (v) => voucherListKeys(v) },
  );
/**
 * Where the pages of one voucher list end (lib/vouchers/voucher-list.repo.ts): for each page number
 * already read, the index key of its last entry, so a later request for the next page starts there
 * instead of walking the list again. `head` is the list's first entry when the bounds were taken
 * (a new voucher at the head of a newest-first list changes it, and the bounds are dropped);
 * expires after a few minutes (TTL, and checked on read).
 */
export interface VoucherPageBookmark {
  head: string;
  bounds: Record<string, Record<string, string>>;
  expiresAt: number;
}
export const voucherPageBookmark = /* @__PURE__ */ entity<VoucherPageBookmark>('voucher_page_bookmark', 1)
  .key(
    (projectId: string, list: string) => tenant(projectId, 'VOUCHER_PAGES', list),
    () => 'VOUCHER_PAGES',
  )
  .apart({ ttl: (b) => b.expiresAt });

/** Points a voucher id at its code, written in the same transaction as the voucher. */
export const voucherId = /* @__PURE__ */ entity<{ code: string }>('voucher_id', 1)
  .key(
    (projectId: string, id: string) => tenant(projectId, 'VOUCHER_ID', id),
    () => 'VOUCHER_ID',
  )
  .apart();
/** The voucher a customer holds in a campaign, and the publication that gave it (null: a referral reward, given without one). */
export interface HeldVoucherRecord {
  customerId: string;
  campaignId: string;
  code: string;
  voucherId: string;
  createdAt: string;
  publicationId: string | null;
}
/**
 * The voucher a customer holds in a campaign: one per (holder, campaign), put with
 * `attribute_not_exists(PK)` in the transaction that publishes the voucher (the first one the
 * customer gets there; in a join-once campaign the only one).
 */
export const heldVoucher = /* @__PURE__ */ entity<HeldVoucherRecord>('held_voucher', 1)
  .key(
    (projectId: string, customerId: string, campaignId: string) => tenant(projectId, 'HOLDER', customerId, 'CAMPAIGN', campaignId),
    () => 'HELD_VOUCHER',
  )
  .from((h, projectId: string) => ({ key: [projectId, h.customerId, h.campaignId] }), { defaults: { publicationId: null } });

/** A bin entry; entry ids sort by time, so the partition reads in deletion order. */
export const binEntry = /* @__PURE__ */ entity<BinEntry>('bin_entry', 1)
  .key(
    (projectId: string) => tenant(projectId, 'BIN'),
    (entryId: string) => entryId,
  )
  .from((e, projectId: string) => ({ key: [projectId, e.id] }), { defaults: { deletedByUserId: null, resourceParentId: null } });

/** A category's place in its project's list: hierarchy zero-padded (string order is number order), then creation. */
export const categorySortKey = (hierarchy: number, createdAt: string, categoryId: string): string =>
  path(String(hierarchy).padStart(10, '0'), createdAt, categoryId);
/**
 * A category by id (`cat_...`). GSI1 lists a project's categories by hierarchy, then creation; items
 * written before the list existed have no GSI1 key (`listed` false) until their next change.
 */
export const category = /* @__PURE__ */ entity<StoredCategory>('category', 1)
  .key(
    (projectId: string, categoryId: string) => tenant(projectId, 'CATEGORY', categoryId),
    () => 'CATEGORY',
  )
  .index(
    (projectId: string) => tenant(projectId, 'CATEGORIES'),
    (hierarchy: number, createdAt: string, categoryId: string) => categorySortKey(hierarchy, createdAt, categoryId),
  )
  .from((c, projectId: string) => ({ key: [projectId, c.id], index: [projectId, c.hierarchy, c.createdAt, c.id] }), {
    defaults: { updatedAt: null, revision: 0, listed: false },
  });
/** Reserves a category name; holds the category id. */
export const categoryName = /* @__PURE__ */ entity<{ categoryId: string }>('category_name', 1)
  .key(
    (projectId: string, name: string) => tenant(projectId, 'CATEGORY_NAME', name),
    () => 'CATEGORY_NAME',
  )
  .apart();
/**
 * A product of the catalog by id (`prod_...`), with its optimistic lock and SKU count. Its SKUs live
 * in the same partition (`sku`), so the product and its SKUs are read together and strongly
 * consistently. GSI1 lists the project's products by creation.
 */
export const product = /* @__PURE__ */ entity<StoredProduct>('product', 1)
  .key(
    (projectId: string, productId: string) => tenant(projectId, 'PRODUCT', productId),
    () => 'PRODUCT',
  )
  .index(
    (projectId: string) => tenant(projectId, 'PRODUCTS'),
    (createdAt: string, productId: string) => path(createdAt, productId),
  )
  .from((p, projectId: string) => ({ key: [projectId, p.id], index: [projectId, p.createdAt, p.id] }));
/** Reserves a product `source_id` in its project; holds the product id. */
export const productSource = /* @__PURE__ */ entity<{ productId: string }>('product_source', 1)
  .key(
    (projectId: string, sourceId: string) => tenant(projectId, 'PRODUCT_SOURCE', sourceId),
    () => 'PRODUCT_SOURCE',
  )
  .apart();
/** How many products a project has: the `total` of GET /v1/products. */
export const productCounter = /* @__PURE__ */ entity<{ count: number }>('product_counter', 1)
  .key(
    (projectId: string) => tenant(projectId),
    () => 'PRODUCT_COUNTER',
  )
  .apart();
/** A SKU (`sku_...`), in its product's partition: a Query of the partition with `SKU#` reads all of a product's SKUs. */
export const sku = /* @__PURE__ */ entity<StoredSku>('sku', 1)
  .key(
    (projectId: string, productId: string) => tenant(projectId, 'PRODUCT', productId),
    (skuId: string) => path('SKU', skuId),
  )
  .from((s, projectId: string) => ({ key: [projectId, s.productId, s.id] }));
/** First part of a SKU's sort key in its product's partition. */
export const SKU_SORT_PREFIX = 'SKU#';
/** Where a SKU lives: its product's id, by the SKU's id (GET /v1/skus/{skuId} names only the SKU). */
export const skuRef = /* @__PURE__ */ entity<{ productId: string }>('sku_ref', 1)
  .key(
    (projectId: string, skuId: string) => tenant(projectId, 'SKU', skuId),
    () => 'SKU',
  )
  .apart();
/**
 * What is left of a deleted product or SKU (by its id, `prod_...` or `sku_...`): written in its
 * delete's transaction and never removed (ids are never reused), so a line that still sends the id
 * is told from an id the catalog never had and no rule target matches it (docs/decisions.md).
 */
export const catalogGone = /* @__PURE__ */ entity<{ object: 'product' | 'sku' }>('catalog_gone', 1)
  .key(
    (projectId: string, id: string) => tenant(projectId, 'CATALOG_GONE', id),
    () => 'CATALOG_GONE',
  )
  .apart();
/** Reserves a SKU `source_id` in its project; holds the SKU's id and its product's. */
export const skuSource = /* @__PURE__ */ entity<{ skuId: string; productId: string }>('sku_source', 1)
  .key(
    (projectId: string, sourceId: string) => tenant(projectId, 'SKU_SOURCE', sourceId),
    () => 'SKU_SOURCE',
  )
  .apart();
/**
 * A product collection (`pc_...`), in its project's collections partition: one consistent Query reads
 * all of them (at most MAX_COLLECTIONS_PER_PROJECT), which every product write does for the
 * AUTO_UPDATE filters.
 */
export const productCollection = /* @__PURE__ */ entity<ProductCollection>('product_collection', 1)
  .key(
    (projectId: string) => tenant(projectId, 'PRODUCT_COLLECTIONS'),
    (collectionId: string) => path('COLLECTION', collectionId),
  )
  .from((c, projectId: string) => ({ key: [projectId, c.id] }));
/** First part of a collection's sort key in the collections partition. */
export const COLLECTION_SORT_PREFIX = 'COLLECTION#';
/** How many collections a project has, for the cap. */
export const productCollectionCounter = /* @__PURE__ */ entity<{ count: number }>('product_collection_counter', 1)
  .key(
    (projectId: string) => tenant(projectId),
    () => 'PRODUCT_COLLECTION_COUNTER',
  )
  .apart();
/**
 * A product or SKU in a collection, in the collection's partition keyed by the member's id: a Query
 * lists a collection's members, and one BatchGetItem answers which of N products or SKUs are in it.
 */
export const collectionMember = /* @__PURE__ */ entity<CollectionMember>('product_collection_member', 1)
  .key(
    (projectId: string, collectionId: string) => tenant(projectId, 'PRODUCT_COLLECTION', collectionId),
    (memberId: string) => path('MEMBER', memberId),
  )
  .from((m, projectId: string) => ({ key: [projectId, m.collectionId, m.id] }));
/** How many listed categories a project has, for the cap on categories per project. */
export const categoryCounter = /* @__PURE__ */ entity<{ count: number }>('category_counter', 1)
  .key(
    (projectId: string) => tenant(projectId),
    () => 'CATEGORY_COUNTER',
  )
  .apart();

/**
 * The markers of the project's vouchers of no campaign (POST /v1/vouchers, /v1/vouchers/import):
 * `vouchersCount` moves with every insert and delete, `vouchersInserted` with every insert only,
 * each in the transaction that does it (lib/vouchers/voucher.repo.ts), as a campaign's pair does.
 * A qualification reads it to know whether the newest such codes it learnt still hold
 * (lib/qualifications/qualification-hints.ts). Vouchers stored before it existed are not counted:
 * it is a marker of change, not a count to show.
 */
export const standaloneVoucherCounter = /* @__PURE__ */ entity<{ vouchersCount: number; vouchersInserted?: number }>('standalone_voucher_counter', 1)
  .key(
    (projectId: string) => tenant(projectId),
    () => 'STANDALONE_VOUCHER_COUNTER',
  )
  .apart();

/**
 * A campaign template (`camp_tpl_...`) with the snapshot of its source's configuration. GSI1 lists
 * a project's templates by creation time; GSI2 lists them per campaign type in the same order (a
 * `campaign_type` filter is one key range). Items written before the lists existed have neither
 * key until their next change.
 */
export const campaignTemplate = /* @__PURE__ */ entity<CampaignTemplate>('campaign_template', 1)
  .key(
    (projectId: string, templateId: string) => tenant(projectId, 'TEMPLATE', templateId),
    () => 'CAMPAIGN_TEMPLATE',
  )
  .index(
    (projectId: string) => tenant(projectId, 'TEMPLATES'),
    (createdAt: string, templateId: string) => path(createdAt, templateId),
  )
  .sparse(
    (projectId: string, campaignType: string) => tenant(projectId, 'TEMPLATES', campaignType),
    (createdAt: string, templateId: string) => path(createdAt, templateId),
  )
  .from(
    (t) => ({
      key: [t.projectId, t.id],
      index: [t.projectId, t.createdAt, t.id],
      sparse: [t.projectId, t.campaignType, t.createdAt, t.id],
    }),
    { defaults: { updatedAt: null } },
  );
/** How many templates a project has (written with each template created or deleted), for `total`. */
export const campaignTemplateCounter = /* @__PURE__ */ entity<{ count: number }>('campaign_template_counter', 1)
  .key(
    (projectId: string) => tenant(projectId),
    () => 'CAMPAIGN_TEMPLATE_COUNTER',
  )
  .apart();
/** Reserves a template name in its project; holds the template id. */
export const campaignTemplateName = /* @__PURE__ */ entity<{ templateId: string }>('campaign_template_name', 1)
  .key(
    (projectId: string, name: string) => tenant(projectId, 'TEMPLATE_NAME', name),
    () => 'CAMPAIGN_TEMPLATE_NAME',
  )
  .apart();

/** A reward (CAMPAIGN, COIN or MATERIAL); GSI1 lists a project's rewards by creation time. */
export const reward = /* @__PURE__ */ entity<Reward>('reward', 1)
  .key(
    (projectId: string, rewardId: string) => tenant(projectId, 'REWARD', rewardId),
    () => 'REWARD',
  )
  .index(
    (projectId: string) => tenant(projectId, 'REWARDS'),
    (createdAt: string, rewardId: string) => path(createdAt, rewardId),
  )
  .from((r) => ({ key: [r.projectId, r.id], index: [r.projectId, r.createdAt, r.id] }));
/** A reward assignment by its id (`rewa_...`); GSI1 lists a reward's assignments by creation time. */
export const rewardAssignment = /* @__PURE__ */ entity<RewardAssignment>('reward_assignment', 1)
  .key(
    (projectId: string, assignmentId: string) => tenant(projectId, 'REWARD_ASSIGNMENT', assignmentId),
    () => 'REWARD_ASSIGNMENT',
  )
  .index(
    (projectId: string, rewardId: string) => tenant(projectId, 'REWARD', rewardId, 'ASSIGNMENTS'),
    (createdAt: string, assignmentId: string) => path(createdAt, assignmentId),
  )
  .from((a) => ({ key: [a.projectId, a.id], index: [a.projectId, a.rewardId, a.createdAt, a.id] }));
/**
 * One reward on one campaign: the key itself makes the pair unique. Holds a copy of the
 * assignment; GSI1 lists a campaign's reward assignments by creation time.
 */
export const rewardAssignmentPair = /* @__PURE__ */ entity<RewardAssignment>('reward_assignment_pair', 1)
  .key(
    (projectId: string, rewardId: string, campaignId: string) => tenant(projectId, 'REWARD_ASSIGNMENT', rewardId, campaignId),
    () => 'REWARD_ASSIGNMENT_PAIR',
  )
  .index(
    (projectId: string, campaignId: string) => tenant(projectId, 'CAMPAIGN', campaignId, 'REWARDS'),
    (createdAt: string, assignmentId: string) => path(createdAt, assignmentId),
  )
  .from((a) => ({ key: [a.projectId, a.rewardId, a.campaignId], index: [a.projectId, a.campaignId, a.createdAt, a.id] }));

/** A custom event schema, keyed by its event name (unique per project, case-sensitive); GSI1 lists a project's schemas by creation time. */
export const customEventSchema = /* @__PURE__ */ entity<CustomEventSchema>('custom_event_schema', 1)
  .key(
    (projectId: string, eventName: string) => tenant(projectId, 'EVENT_SCHEMA', eventName),
    () => 'EVENT_SCHEMA',
  )
  .index(
    (projectId: string) => tenant(projectId, 'EVENT_SCHEMAS'),
    (createdAt: string, schemaId: string) => path(createdAt, schemaId),
  )
  .from((s) => ({ key: [s.projectId, s.name], index: [s.projectId, s.createdAt, s.id] }));
/** Points a custom event schema id (`ms_...`) at its event name. */
export const customEventSchemaId = /* @__PURE__ */ entity<{ name: string }>('custom_event_schema_id', 1)
  .key(
    (projectId: string, schemaId: string) => tenant(projectId, 'EVENT_SCHEMA_ID', schemaId),
    () => 'EVENT_SCHEMA_ID',
  )
  .apart();

/**
 * A project's metadata schema of one related object, keyed by that object (so one schema per object, and a write
 * that checks its metadata reads one item); GSI1 lists the project's schemas by creation.
 */
export const metadataSchemaItem = /* @__PURE__ */ entity<MetadataSchema>('metadata_schema', 1)
  .key(
    (projectId: string, relatedObject: string) => tenant(projectId, 'METADATA_SCHEMA', relatedObject),
    () => 'METADATA_SCHEMA',
  )
  .index(
    (projectId: string) => tenant(projectId, 'METADATA_SCHEMAS'),
    (createdAt: string, schemaId: string) => path(createdAt, schemaId),
  )
  .from((s) => ({ key: [s.projectId, s.relatedObject], index: [s.projectId, s.createdAt, s.id] }));
/** Points a metadata schema id (`ms_...`) at its related object. */
export const metadataSchemaId = /* @__PURE__ */ entity<{ relatedObject: string }>('metadata_schema_id', 1)
  .key(
    (projectId: string, schemaId: string) => tenant(projectId, 'METADATA_SCHEMA_ID', schemaId),
    () => 'METADATA_SCHEMA_ID',
  )
  .apart();

/**
 * A customer's redemption counters (the customer object's `summary.redemptions`), beside the customer
 * item rather than on it: a redemption or rollback ADDs to it in its own transaction without taking
 * the customer's optimistic lock (`revision`), and a customer update, which rewrites the customer
 * item, never loses a count.
 */
export const customerRedemptionSummary = /* @__PURE__ */ entity<CustomerRedemptionSummary>('customer_redemption_summary', 1)
  .key(
    (projectId: string, customerId: string) => tenant(projectId, 'CUSTOMER', customerId),
    () => 'REDEMPTION_SUMMARY',
  )
  .apart();

/**
 * One customer's redemptions of one voucher (by id), promotion tier or campaign, less rollbacks: the
 * count a `redemption.count.per_customer` / `per_campaign` rule compares. One item per (customer,
 * object), so nothing grows in one item with the objects a customer redeems (issue 41 item 4); ADDed
 * in the redemption's and rollback's transaction, conditioned there when a rule compared it.
 * Summaries written before it keep `n:<objectId>` attributes, read as a base under this count.
 */
export const customerRedemptionCount = /* @__PURE__ */ entity<{ count: number }>('customer_redemption_count', 1)
  .key(
    (projectId: string, customerId: string) => tenant(projectId, 'CUSTOMER', customerId),
    (objectId: string) => `REDEMPTION_COUNT#${objectId}`,
  )
  .apart();

/** A customer by id (`cust_...`). Items from before lists existed lack `revision` and `listed`. */
export const customer = /* @__PURE__ */ entity<Customer>('customer', 1)
  .key(
    (projectId: string, customerId: string) => tenant(projectId, 'CUSTOMER', customerId),
    () => 'CUSTOMER',
  )
  .from((c) => ({ key: [c.projectId, c.id] }), { defaults: { revision: 0, listed: false } });
/**
 * Points a customer `source_id` at the customer id: the key makes source ids unique per project.
 * GSI1 orders a project's customers by source id (items from before lists existed are not in it).
 */
export const customerSourceId = /* @__PURE__ */ entity<{ customerId: string }>('customer_source_id', 1)
  .key(
    (projectId: string, sourceId: string) => tenant(projectId, 'CUSTOMER_SRC', sourceId),
    () => 'CUSTOMER_SRC',
  )
  .index(
    (projectId: string) => tenant(projectId, 'CUSTOMERS_BY_SOURCE_ID'),
    (sourceId: string) => sourceIdSortKey(sourceId),
  )
  .from((_ref, projectId: string, sourceId: string) => ({ key: [projectId, sourceId], index: [projectId, sourceId] }));
/**
 * A customer's entry in one list view (lib/customers/customer-views.ts): the view's partition
 * orders its customers by creation, GSI1 by their last change (creation until changed). Written,
 * moved and removed in the customer's own transactions.
 */
export const customerListEntry = /* @__PURE__ */ entity<CustomerListEntry>('customer_list_entry', 1)
  .key(
    (projectId: string, view: string) => tenant(projectId, 'CUSTOMERS', view),
    (createdAt: string, customerId: string) => path(createdAt, customerId),
  )
  .index(
    (projectId: string, view: string) => tenant(projectId, 'CUSTOMERS_UPDATED', view),
    (changedAt: string, customerId: string) => path(changedAt, customerId),
  )
  .from((e, projectId: string) => ({
    key: [projectId, e.view, e.createdAt, e.customerId],
    index: [projectId, e.view, e.updatedAt ?? e.createdAt, e.customerId],
  }));
/** One shard of the number of customers in a view, changed by ADD in the customers' transactions; a view's count is the sum of its shards. */
export const customerCount = /* @__PURE__ */ entity<{ count: number }>('customer_count', 1)
  .key(
    (projectId: string, view: string) => tenant(projectId, 'CUSTOMER_COUNT', view),
    (shard: number) => String(shard),
  )
  .apart();
/**
 * A customer segment (`seg_...`): all of a project's segments share one partition (at most
 * MAX_SEGMENTS_PER_PROJECT), so a customer write reads them in one Query to recompute its
 * auto-update memberships. Membership itself is the customer item's `segmentIds`.
 */
export const segment = /* @__PURE__ */ entity<Segment>('segment', 1)
  .key(
    (projectId: string) => tenant(projectId, 'SEGMENTS'),
    (segmentId: string) => segmentId,
  )
  .from((s, projectId: string) => ({ key: [projectId, s.id] }));
/**
 * A customer's permanent deletion (`del_...`; lib/customers/customer-erasure.service.ts): the reply's
 * status and counts, and the erasure job's checkpoint and (until DONE) the personal values it looks
 * for. Keyed by the customer id, outside the customer's own partitions (which the job deletes).
 */
export const customerErasure = /* @__PURE__ */ entity<CustomerErasure>('customer_erasure', 1)
  .key(
    (projectId: string, customerId: string) => tenant(projectId, 'CUSTOMER_ERASURE', customerId),
    () => 'CUSTOMER_ERASURE',
  )
  .from((e) => ({ key: [e.projectId, e.customerId] }));
/** A custom event, in its customer's partition (the customer's activity, in time order). */
export const customEvent = /* @__PURE__ */ entity<CustomEvent>('custom_event', 1)
  .key(
    (projectId: string, customerId: string) => tenant(projectId, 'CUSTOMER', customerId, 'EVENTS'),
    (createdAt: string, eventId: string) => path(EVENT_SORT_PREFIX, createdAt, eventId),
  )
  .from((e) => ({ key: [e.projectId, e.customerId, e.createdAt, e.id] }));
/**
 * What a customer write did (created, updated, segments entered and left: lib/activity/activity.ts),
 * put in the write's own transaction, or a validation or redemption that failed for the customer
 * (put alone, on the failure path: lib/activity/failure.repo.ts), in the customer's event partition
 * by time beside its custom events, so the customer's activity reads it with one Query. Kept as
 * long as the customer's events.
 */
export const customerActivity = /* @__PURE__ */ entity<ActivityRecord>('customer_activity', 1)
  .key(
    (projectId: string, customerId: string) => tenant(projectId, 'CUSTOMER', customerId, 'EVENTS'),
    (createdAt: string, recordId: string) => path(ACTIVITY_SORT_PREFIX, createdAt, recordId),
  )
  .from((a) => ({ key: [a.projectId, a.customerId, a.createdAt, a.id] }));

/** A publication (`pub_...`), never changed once written: what was given to whom, with a snapshot of the customer and the voucher. */
export const publication = /* @__PURE__ */ entity<Publication>('publication', 1)
  .key(
    (projectId: string, publicationId: string) => tenant(projectId, 'PUBLICATION', publicationId),
    () => 'PUBLICATION',
  )
  .from((p) => ({ key: [p.projectId, p.id] }));
/** Reserves a publication `source_id` (unique per project, case-sensitive) and names its publication and customer. */
export const publicationSourceId = /* @__PURE__ */ entity<{ publicationId: string; customerId: string }>('publication_source_id', 1)
  .key(
    (projectId: string, sourceId: string) => tenant(projectId, 'PUBLICATION_SRC', sourceId),
    () => 'PUBLICATION_SRC',
  )
  .apart();
/**
 * A publication's entry in one list view (lib/publications/publication.ts `viewsOf`), sorted by
 * creation; written in the publication's transaction, never changed.
 */
export const publicationListEntry = /* @__PURE__ */ entity<PublicationListEntry>('publication_list_entry', 1)
  .key(
    (projectId: string, view: string) => tenant(projectId, 'PUBLICATIONS', view),
    (createdAt: string, publicationId: string) => path(createdAt, publicationId),
  )
  .from((e, projectId: string) => ({ key: [projectId, e.view, e.createdAt, e.publicationId] }));
/** One shard of the number of publications in a view, raised by ADD in the publications' transactions. */
export const publicationCount = /* @__PURE__ */ entity<{ count: number }>('publication_count', 1)
  .key(
    (projectId: string, view: string) => tenant(projectId, 'PUBLICATION_COUNT', view),
    (shard: number) => String(shard),
  )
  .apart();

/**
 * A marked order's entry in the sparse GSI2 (lib/orders/order-loyalty.job.ts): the orders whose move
 * to PAID or CANCELED still has loyalty effects due, per shard, oldest mark first. Cleared (with the
 * mark) by the sweep once the effects ran; every Put of the order carries it while the mark stands.
 */
export const orderLoyaltyDue = /* @__PURE__ */ gsi2Key(
  (shard: number) => path('ORDER_LOYALTY_DUE', String(shard).padStart(2, '0')),
  (dueAt: string, projectId: string, orderId: string) => path(dueAt, projectId, orderId),
);
/** An order (`ord_...`): its lines, status and amounts; changed in place under its `revision`. */
export const order = /* @__PURE__ */ entity<Order>('order', 1)
  .key(
    (projectId: string, orderId: string) => tenant(projectId, 'ORDER', orderId),
    () => 'ORDER',
  )
  .from((o) => ({ key: [o.projectId, o.id] }), {
    moreKeys: (o) => (o.loyaltyDueAt !== undefined ? orderLoyaltyDue(orderLoyaltyShardOf(o.id), o.loyaltyDueAt, o.projectId, o.id) : {}),
  });
/**
 * What one earning rule gave one loyalty card for one paid order (lib/loyalties/order-earning.service.ts):
 * the key itself makes it once per (order, card, rule), put with `attribute_not_exists` in the
 * transaction that adds the points; an order's entries share a partition, so a cancellation finds
 * them with one Query and takes them back once (status EARNED → TAKEN_BACK, conditioned).
 */
export const orderEarning = /* @__PURE__ */ entity<OrderEarning>('order_earning', 1)
  .key(
    (projectId: string, orderId: string) => tenant(projectId, 'ORDER', orderId, 'EARNINGS'),
    (voucherId: string, ruleId: string) => path(voucherId, ruleId),
  )
  .from((e) => ({ key: [e.projectId, e.orderId, e.voucherId, e.ruleId] }));
/** Reserves an order `source_id` (unique per project, case-sensitive) and names its order. */
export const orderSourceId = /* @__PURE__ */ entity<{ orderId: string }>('order_source_id', 1)
  .key(
    (projectId: string, sourceId: string) => tenant(projectId, 'ORDER_SRC', sourceId),
    () => 'ORDER_SRC',
  )
  .apart();
/**
 * An order's entry in the project's order list: the partition sorts by creation, GSI1 by last
 * change (creation until changed). Written with the order and rewritten by each of its changes.
 */
export const orderListEntry = /* @__PURE__ */ entity<OrderListEntry>('order_list_entry', 1)
  .key(
    (projectId: string) => tenant(projectId, 'ORDERS'),
    (createdAt: string, orderId: string) => path(createdAt, orderId),
  )
  .index(
    (projectId: string) => tenant(projectId, 'ORDERS_UPDATED'),
    (changedAt: string, orderId: string) => path(changedAt, orderId),
  )
  .from((e, projectId: string) => ({ key: [projectId, e.createdAt, e.orderId], index: [projectId, e.updatedAt ?? e.createdAt, e.orderId] }));
/** One shard of the number of a project's orders, raised by ADD in the creating transactions; the count is the sum of its shards. */
export const orderCount = /* @__PURE__ */ entity<{ count: number }>('order_count', 1)
  .key(
    (projectId: string) => tenant(projectId, 'ORDER_COUNT'),
    (shard: number) => String(shard),
  )
  .apart();

/**
 * An async action (`aa_...`): a bulk job's status, progress and result; its worker advances it by
 * conditional writes. GSI1 lists a project's actions by creation (GET /v1/async-actions); actions
 * written before the list existed get their entry from `npm run admin -- backfill async-actions`.
 */
export const asyncAction = /* @__PURE__ */ entity<AsyncAction>('async_action', 1)
  .key(
    (projectId: string, asyncActionId: string) => tenant(projectId, 'ASYNC_ACTION', asyncActionId),
    () => 'ASYNC_ACTION',
  )
  .index(
    (projectId: string) => tenant(projectId, 'ASYNC_ACTIONS'),
    (createdAt: string, asyncActionId: string) => path(createdAt, asyncActionId),
  )
  .from((a) => ({ key: [a.projectId, a.id], index: [a.projectId, a.createdAt, a.id] }), { defaults: { failure: null, finishedAt: null } });

/**
 * An export (`exp_...`): its parameters, status and the per-export download signing secret. GSI1
 * lists a project's exports by creation (GET /v1/exports); exports written before the list existed
 * have no entry.
 */
export const exportRecord = /* @__PURE__ */ entity<Export>('export', 1)
  .key(
    (projectId: string, exportId: string) => tenant(projectId, 'EXPORT', exportId),
    () => 'EXPORT',
  )
  .index(
    (projectId: string) => tenant(projectId, 'EXPORTS'),
    (createdAt: string, exportId: string) => path(createdAt, exportId),
  )
  .from((e) => ({ key: [e.projectId, e.id], index: [e.projectId, e.createdAt, e.id] }), {
    defaults: { orderBy: 'expires_at', createdByAppId: null, rowCount: null, failure: null, finishedAt: null, voucherId: null },
  });

/**
 * An open job's marker (lib/jobs/open-job.ts): exists while its async action or export is not
 * final; put in the transaction that creates the job, deleted in the one that ends it. Not under
 * the tenant prefix: the local runtime's start-up (and a sweep) must find every project's open
 * jobs without knowing the projects, with one Query per shard. No request reads these items; the
 * project is the first part of the sort key and an attribute.
 */
export const openJob = /* @__PURE__ */ entity<OpenJob>('open_job', 1)
  .key(
    (shard: number) => path(OPEN_JOB_PARTITION_PREFIX, String(shard).padStart(2, '0')),
    (projectId: string, subjectId: string) => path(projectId, subjectId),
  )
  .from((j) => ({ key: [openJobShard(j.subjectId), j.projectId, j.subjectId] }));

/**
 * The stored attributes of an idempotency record: the request's fingerprint and, once done,
 * its reply; the generic path's lease adds state, owner and leaseUntil.
 */
export interface IdempotencyRecord {
  fingerprint: string;
  createdAt: string;
  /** Unix seconds; also the item's TTL. */
  expiresAt: number;
  /** The generic path's StoredReply, or (records written before replies were kept as text) a transactional reply as a map. */
  reply?: unknown;
  /** A transactional reply's JSON text, byte for byte as first sent (a DynamoDB map does not keep key order). */
  replyText?: string;
  /** The same, gzip-compressed, for a large reply. */
  replyGz?: Uint8Array;
  state?: 'IN_PROGRESS' | 'DONE';
  owner?: string;
  leaseUntil?: number;
}
/** The first reply to a request sent with an `Idempotency-Key`, with the request's fingerprint. */
export const idempotencyRecord = /* @__PURE__ */ entity<IdempotencyRecord>('idempotency_record', 1)
  .key(
    (projectId: string, key: string) => tenant(projectId, 'IDEMPOTENCY', key),
    () => 'IDEMPOTENCY',
  )
  .apart({ ttl: (r) => r.expiresAt });
/**
 * A project's request counter for one fixed rate-limit window (`windowStart` in Unix seconds):
 * a new item, in its own partition, each window, so a window's count never needs resetting.
 * Written by UpdateItem ADD only (with `stamp` and a `ttl`).
 */
export const rateLimitWindow = /* @__PURE__ */ entity<{ requests: number }>('rate_limit_window', 1)
  .key(
    (projectId: string, windowStart: number) => tenant(projectId, 'RATE', windowStart),
    () => 'RATE_LIMIT',
  )
  .apart();

/**
 * A client-side budget's counter of one window: per client key (`KEY`, the app id) or per client
 * address (`IP`) of the project, apart from the project's own (lib/rate-limit/client-rate-limit.ts).
 * Under the project's `RATE` prefix, so the counters' IAM condition (`P#*#RATE#*`) covers it.
 */
export const clientRateLimitWindow = /* @__PURE__ */ entity<{ requests: number }>('client_rate_limit_window', 1)
  .key(
    (projectId: string, by: 'KEY' | 'IP', id: string, windowStart: number) => tenant(projectId, 'RATE', 'CLIENT', by, id, windowStart),
    () => 'RATE_LIMIT',
  )
  .apart();

/**
 * A loyalty points bucket. All buckets of a campaign share one partition sorted by expiry date
 * (no expiry sorts last), so the points-expiration export streams them in order with one Query;
 * GSI1 lists one card's buckets in the same order (balance, spending soonest-expiring first).
 * The sparse GSI2 is the expiry index: a bucket that still holds points and has an expiry date has
 * an entry in its card's shard (`EXPIRING_POINTS#<shard>`, 16 shards) sorted by date, so the expiry
 * worker reads every bucket due with one Query per shard (sort key below today); an update that
 * empties or ends a bucket removes its entry (lib/loyalties/loyalty-card.repo.ts).
 */
export const pointsBucket = /* @__PURE__ */ entity<PointsBucket>('points_bucket', 1)
  .key(
    (projectId: string, campaignId: string) => tenant(projectId, 'LOYALTY', campaignId, 'BUCKETS'),
    (expiresKey: string, bucketId: string) => path(expiresKey, bucketId),
  )
  .index(
    (projectId: string, voucherId: string) => tenant(projectId, 'CARD', voucherId, 'BUCKETS'),
    (expiresKey: string, bucketId: string) => path(expiresKey, bucketId),
  )
  .sparse(
    (shard: number) => path(EXPIRY_PARTITION_PREFIX, String(shard).padStart(2, '0')),
    (expiresAt: string, projectId: string, voucherId: string, bucketId: string) => path(expiresAt, projectId, voucherId, bucketId),
  )
  .from(
    (b) => ({
      key: [b.projectId, b.campaignId, expiresKeyOf(b.expiresAt), b.id],
      index: [b.projectId, b.voucherId, expiresKeyOf(b.expiresAt), b.id],
      sparse: awaitsExpiry(b) && b.expiresAt !== null ? [expiryShard(b.voucherId), b.expiresAt, b.projectId, b.voucherId, b.id] : null,
    }),
    { defaults: { expiresAt: null } },
  );
/** Where a pending points entry is stored: `PENDING` while it is, `PENDING_DONE` once activated or cancelled. */
export const pendingStage = (p: Pick<PendingPoints, 'status'>): 'PENDING' | 'PENDING_DONE' => (p.status === 'PENDING' ? 'PENDING' : 'PENDING_DONE');
/**
 * A pending points entry (lib/loyalties/pending-points.service.ts), in its card's partition while
 * PENDING and in the card's "done" partition after (activation and cancellation move it in their
 * transaction), so the member and program lists (the table and GSI1 by id, as the reference
 * orders them) read PENDING entries only; the sparse GSI2 lists PENDING ones by activation date
 * for the worker.
 */
export const pendingPoints = /* @__PURE__ */ entity<PendingPoints>('pending_points', 1)
  .key(
    (projectId: string, voucherId: string, stage: 'PENDING' | 'PENDING_DONE') => tenant(projectId, 'CARD', voucherId, stage),
    (id: string) => path(id),
  )
  .index(
    (projectId: string, campaignId: string, stage: 'PENDING' | 'PENDING_DONE') => tenant(projectId, 'LOYALTY', campaignId, stage),
    (id: string) => path(id),
  )
  .sparse(
    (shard: number) => path(PENDING_DUE_PARTITION_PREFIX, String(shard).padStart(2, '0')),
    (activatesAt: string, projectId: string, voucherId: string, id: string) => path(activatesAt, projectId, voucherId, id),
  )
  .from((p) => ({
    key: [p.projectId, p.voucherId, pendingStage(p), p.id],
    index: [p.projectId, p.campaignId, pendingStage(p), p.id],
    sparse: p.status === 'PENDING' ? [pendingShard(p.voucherId), p.activatesAt, p.projectId, p.voucherId, p.id] : null,
  }));
/**
 * A voucher transaction: a change of a loyalty card's points (manual, earned, spent, ...) or a
 * manual change of a gift card's credits, in the voucher's own partition sorted by time, so a
 * voucher's history is one Query. GSI1 finds one transaction by id (the `starting_after_id` cursor
 * of the lists); the sparse GSI2 lists a campaign's transactions by time (a voucher of no campaign
 * has no entry).
 */
export const cardTransaction = /* @__PURE__ */ entity<CardTransaction>('card_transaction', 1)
  .key(
    (projectId: string, voucherId: string) => tenant(projectId, 'CARD', voucherId, 'TRANSACTIONS'),
    (createdAt: string, transactionId: string) => path(createdAt, transactionId),
  )
  .index(
    (projectId: string, transactionId: string) => tenant(projectId, 'VOUCHER_TX', transactionId),
    () => 'VOUCHER_TX',
  )
  .sparse(
    (projectId: string, campaignId: string) => tenant(projectId, 'CAMPAIGN', campaignId, 'TRANSACTIONS'),
    (createdAt: string, transactionId: string) => path(createdAt, transactionId),
  )
  .from((t) => ({
    key: [t.projectId, t.voucherId, t.createdAt, t.id],
    index: [t.projectId, t.id],
    sparse: t.campaignId ? [t.projectId, t.campaignId, t.createdAt, t.id] : null,
  }));
/**
 * A loyalty earning rule, in the partition of the event that triggers it (sorted by campaign),
 * so POST /v1/events finds every rule for its event name with one consistent Query; GSI1 lists a
 * campaign's rules by creation time.
 */
export const earningRule = /* @__PURE__ */ entity<EarningRule>('earning_rule', 1)
  .key(
    (projectId: string, eventName: string) => tenant(projectId, 'EARNING_RULES', eventName),
    (campaignId: string, ruleId: string) => path(campaignId, ruleId),
  )
  .index(
    (projectId: string, campaignId: string) => tenant(projectId, 'CAMPAIGN', campaignId, 'EARNING_RULES'),
    (createdAt: string, ruleId: string) => path(createdAt, ruleId),
  )
  .from((r) => ({ key: [r.projectId, r.event, r.campaignId, r.id], index: [r.projectId, r.campaignId, r.createdAt, r.id] }), {
    defaults: { updatedAt: null },
  });
/** Where an earning rule is stored, by its id: written and deleted with the rule, so a rule is found by id alone. */
export const earningRuleRef = /* @__PURE__ */ entity<EarningRuleLocation>('earning_rule_ref', 1)
  .key(
    (projectId: string, ruleId: string) => tenant(projectId, 'EARNING_RULE', ruleId),
    () => 'EARNING_RULE_REF',
  )
  .from((r) => ({ key: [r.projectId, r.id] }));

/**
 * A referral conversion: one referred customer converted one referral code of one campaign. The
 * key itself makes it once per (campaign, code, referred customer); a code's conversions share a
 * partition. GSI1 lists a referrer's conversions by time.
 */
export const referralConversion = /* @__PURE__ */ entity<ReferralConversion>('referral_conversion', 1)
  .key(
    (projectId: string, campaignId: string, code: string) => tenant(projectId, 'REFERRAL', campaignId, code),
    (refereeId: string) => path(CONVERSION_SORT_PREFIX, refereeId),
  )
  .index(
    (projectId: string, referrerId: string) => tenant(projectId, 'CUSTOMER', referrerId, 'REFERRALS'),
    (createdAt: string, conversionId: string) => path(createdAt, conversionId),
  )
  .from((c) => ({ key: [c.projectId, c.campaignId, c.code, c.refereeId], index: [c.projectId, c.referrerId, c.createdAt, c.id] }));

/** The vouchers of one chunk, as the request gave them. */
export interface ImportChunk {
  vouchers: ImportVoucherItem[];
}

/**
 * One chunk of an import's list (lib/vouchers/voucher-import-job.ts), in the async action's own
 * partition: written before the action exists, read by the worker one chunk per transaction.
 */
export const importChunk = /* @__PURE__ */ entity<ImportChunk>('import_chunk', 1)
  .key(
    (projectId: string, asyncActionId: string) => tenant(projectId, 'ASYNC_ACTION', asyncActionId),
    (index: number) => `IMPORT#${String(index).padStart(5, '0')}`,
  )
  .apart();

/** One row of a bulk update or a CSV import of products, SKUs or customers (lib/bulk/bulk-job.ts). */
export interface BulkRow {
  /** What names the row in a failure: a code or a source id. */
  ref: string;
  /** The line of a CSV file the row came from. */
  line?: number;
  /** The row's request, as the route checked it. */
  body: Record<string, unknown>;
}

/** The rows of one chunk of a bulk action. */
export interface BulkChunk {
  rows: BulkRow[];
}

/**
 * One chunk of a bulk action's rows (lib/bulk/bulk-job.ts), in the async action's own partition:
 * written before the action exists, read by the worker one chunk per checkpoint.
 */
export const bulkChunk = /* @__PURE__ */ entity<BulkChunk>('bulk_chunk', 1)
  .key(
    (projectId: string, asyncActionId: string) => tenant(projectId, 'ASYNC_ACTION', asyncActionId),
    (index: number) => `BULK#${String(index).padStart(5, '0')}`,
  )
  .apart();

/** Every redemption's GSI3 (keys-only) entry: the project's redemptions and rollbacks by date (GET /v1/redemptions). */
export const redemptionByProject = /* @__PURE__ */ gsi3Key(
  (projectId: string) => tenant(projectId, 'REDEMPTIONS'),
  (date: string, redemptionId: string) => path(date, redemptionId),
);
/**
 * A redemption's GSI4 (sparse, keys-only) entry while it names a campaign: the campaign's redemptions
 * and rollbacks by date, so GET /v1/redemptions?campaign= reads an index, not the project's list (issue 41 item 6).
 */
export const redemptionByCampaign = /* @__PURE__ */ gsi4Key(
  (projectId: string, campaignId: string) => tenant(projectId, 'CAMPAIGN', campaignId, 'REDEMPTIONS'),
  (date: string, redemptionId: string) => path(date, redemptionId),
);
/**
 * A redemption (`r_…`), a parent, a child or a `redemption_rollback` record (lib/redemptions/redemption.ts).
 * GSI1 lists the redemptions and rollbacks of one voucher (by voucher id, so a re-created code starts
 * empty) or promotion tier by date; a parent is alone in its own GSI1 partition. The sparse GSI2 lists
 * a customer's; GSI3 (keys-only) the project's; GSI4 (keys-only, sparse) a campaign's.
 */
export const redemption = /* @__PURE__ */ entity<Redemption>('redemption', 1)
  .key(
    (projectId: string, redemptionId: string) => tenant(projectId, 'REDEMPTION', redemptionId),
    () => 'REDEMPTION',
  )
  .index(
    (projectId: string, relatedId: string) => tenant(projectId, 'REDEEMED', relatedId),
    (date: string, redemptionId: string) => path(date, redemptionId),
  )
  .sparse(
    (projectId: string, customerId: string) => tenant(projectId, 'CUSTOMER', customerId, 'REDEMPTIONS'),
    (date: string, redemptionId: string) => path(date, redemptionId),
  )
  .from(
    (r) => ({
      key: [r.projectId, r.id],
      index: [r.projectId, r.relatedObjectId, r.date, r.id],
      sparse: r.customerId !== null ? [r.projectId, r.customerId, r.date, r.id] : null,
    }),
    {
      moreKeys: (r) => ({
        ...redemptionByProject(r.projectId, r.date, r.id),
        ...(r.campaignId ? redemptionByCampaign(r.projectId, r.campaignId, r.date, r.id) : {}),
      }),
    },
  );
/**
 * One LOCK session's hold on one voucher (by voucher id, so a re-created code starts with none): one
 * item per session, so a voucher's item does not grow with its sessions (issue 41 item 4). The
 * voucher item keeps only `sessionsRevision` (raised in the transaction of every hold written or
 * released) and `sessionsUntil` (the latest expiry of a hold written), so a redemption's condition
 * still sees whether the holds it counted are the holds there. `ttl` removes it some time after it
 * has expired; code decides expiry by `expiresAt`.
 */
export const voucherSessionHold = /* @__PURE__ */ entity<SessionReservation & { sessionKey: string }>('voucher_session_hold', 1)
  .key(
    (projectId: string, voucherId: string) => tenant(projectId, 'VOUCHER_SESSIONS', voucherId),
    (sessionKey: string) => sessionKey,
  )
  .apart({ ttl: (h) => Math.ceil(Date.parse(h.expiresAt) / 1000) });
/**
 * One shard of a limitless voucher's use count (by voucher id): a redemption ADDs 1 to a random one
 * of REDEMPTION_COUNT_SHARDS, a rollback −1 to one; the count is their sum (docs/architecture.md
 * "The counter design").
 */
export const voucherRedemptionCount = /* @__PURE__ */ entity<{ count: number }>('voucher_redemption_count', 1)
  .key(
    (projectId: string, voucherId: string) => tenant(projectId, 'VOUCHER_REDEMPTIONS', voucherId),
    (shard: number) => String(shard),
  )
  .apart();

/**
 * One shard of a campaign's redemption count (by campaign id), for the validation rule condition
 * `campaign.redemptions.count`: a redemption of one of its vouchers or tiers ADDs 1 to a random one
 * of CAMPAIGN_COUNT_SHARDS, a rollback −1; the count is their sum. A redemption whose rules bound the
 * count ADDs instead to the exact shard EXACT_CAMPAIGN_SHARD (= CAMPAIGN_COUNT_SHARDS, never picked at
 * random) on condition that it stays within the bound, and its rollback takes it off there
 * (lib/redemptions/redemption.repo.ts boundedCampaignAdd).
 */
export const campaignRedemptionCount = /* @__PURE__ */ entity<{ count: number }>('campaign_redemption_count', 1)
  .key(
    (projectId: string, campaignId: string) => tenant(projectId, 'CAMPAIGN_REDEMPTIONS', campaignId),
    (shard: number) => String(shard),
  )
  .apart();

/**
 * A validation rule (`val_…`). GSI1 lists a project's rules by creation. `assignmentsCount` is
 * raised and lowered by the transactions that assign and unassign it (a rule in use is not deleted).
 */
export const validationRule = /* @__PURE__ */ entity<StoredValidationRule>('validation_rule', 1)
  .key(
    (projectId: string, ruleId: string) => tenant(projectId, 'VRULE', ruleId),
    () => 'VRULE',
  )
  .index(
    (projectId: string) => tenant(projectId, 'VRULES'),
    (createdAt: string, ruleId: string) => path(createdAt, ruleId),
  )
  .from((r, projectId: string) => ({ key: [projectId, r.id], index: [projectId, r.createdAt, r.id] }));
/**
 * How many validation rules a project has, for the cap (MAX_VALIDATION_RULES_PER_PROJECT) and the
 * list's `total`, and how many assignments (of them on vouchers): a validation reads it with the
 * redeemables, and reads assignments items only where some can exist. `revision` is raised by every
 * write of a rule or an assignment, in its transaction: a container's copy of the rules read at
 * that revision is current (lib/validations/read-hints.ts).
 */
export const validationRuleCounter = /* @__PURE__ */ entity<{ count: number; assignments?: number; voucherAssignments?: number; revision?: number }>(
  'validation_rule_counter',
  1,
)
  .key(
    (projectId: string) => tenant(projectId),
    () => 'VRULE_COUNTER',
  )
  .apart();
/**
 * A validation rule assignment (`asgm_…`), in its rule's partition (a rule's assignments are one
 * Query; a delete names rule and assignment). GSI1 lists the project's assignments by creation.
 */
export const validationRuleAssignment = /* @__PURE__ */ entity<ValidationRuleAssignment>('validation_rule_assignment', 1)
  .key(
    (projectId: string, ruleId: string) => tenant(projectId, 'VRULE', ruleId),
    (assignmentId: string) => path('ASGM', assignmentId),
  )
  .index(
    (projectId: string) => tenant(projectId, 'VRULE_ASSIGNMENTS'),
    (createdAt: string, assignmentId: string) => path(createdAt, assignmentId),
  )
  .from((a, projectId: string) => ({ key: [projectId, a.ruleId, a.id], index: [projectId, a.createdAt, a.id] }));
/**
 * The assignments of one object (campaign, voucher, promotion tier, earning rule, distribution),
 * by the object's id, in one small item: read by key, so a validation fetches it in the BatchGet
 * that reads the redeemable. Written in the transaction that writes the assignment item.
 */
export const objectAssignments = /* @__PURE__ */ entity<ObjectAssignments>('object_validation_rules', 1)
  .key(
    (projectId: string, objectId: string) => tenant(projectId, 'ASSIGNED', objectId),
    () => 'VRULES',
  )
  .apart();

/*
 * Management API beyond projects (issue 40): branding. One brand configuration per project, so its
 * key holds no id: create-brand's putIfAbsent is the "one per project" rule.
 */

/** A project's brand configuration (`brd_…`), the only one it may have. */
export const branding = /* @__PURE__ */ entity<Branding>('branding', 1)
  .key(
    (projectId: string) => tenant(projectId),
    () => 'BRANDING',
  )
  .from((b) => ({ key: [b.projectId] }));

/**
 * A user of the operator's organisation (invite-user): no project owns it, as it may be assigned
 * to several; `projects` maps each project to the user's role there. A user grants no access.
 */
export const user = /* @__PURE__ */ entity<User>('user', 1)
  .key(
    (userId: string) => `USER#${userId}`,
    () => 'USER',
  )
  .from((u) => ({ key: [u.id] }));

/** A login (lower-cased email) taken by a user: its key is the uniqueness of logins. */
export const userLogin = /* @__PURE__ */ entity<{ userId: string }>('user_login', 1)
  .key(
    (loginKey: string) => `USER_LOGIN#${loginKey}`,
    () => 'USER_LOGIN',
  )
  .apart();

/** A user's assignment to a project and its role there; one partition per project lists them (list-users). */
export const projectUser = /* @__PURE__ */ entity<ProjectUser>('project_user', 1)
  .key(
    (projectId: string) => tenant(projectId, 'USERS'),
    (userId: string) => userId,
  )
  .from((m) => ({ key: [m.projectId, m.userId] }));

/** A location of a project (GET /v1/locations; made by the operator CLI); GSI1 lists a project's locations by creation time. */
export const location = /* @__PURE__ */ entity<Location>('location', 1)
  .key(
    (projectId: string, locationId: string) => tenant(projectId, 'LOCATION', locationId),
    () => 'LOCATION',
  )
  .index(
    (projectId: string) => tenant(projectId, 'LOCATIONS'),
    (createdAt: string, locationId: string) => path(createdAt, locationId),
  )
  .from((l) => ({ key: [l.projectId, l.id], index: [l.projectId, l.createdAt, l.id] }));

/**
 * A referee of a referral code (lib/referrals/redeemable-holder.ts): keyed by (voucher id,
 * customer), so a customer holds a code once (put with `attribute_not_exists(PK)`); GSI1 lists a
 * code's referees by holder id (= by time), and finds one by id for its removal; GSI2 lists the
 * codes a customer is a referee of, by holder id, for GET /v1/customers/{id}/redeemables. Keyed by the voucher id, not the code: a code deleted and
 * made again is another voucher with no holders.
 */
export const referralHolder = /* @__PURE__ */ entity<ReferralHolder>('referral_holder', 1)
  .key(
    (projectId: string, voucherId: string) => tenant(projectId, 'REDEEMABLE_HOLDERS', voucherId),
    (customerId: string) => path('CUSTOMER', customerId),
  )
  .index(
    (projectId: string, voucherId: string) => tenant(projectId, 'REDEEMABLE_HOLDERS', voucherId),
    (holderId: string) => holderId,
  )
  .sparse(
    (projectId: string, customerId: string) => tenant(projectId, 'HOLDER', customerId, 'REFEREE'),
    (holderId: string) => holderId,
  )
  .from((h) => ({
    key: [h.projectId, h.voucherId, h.customerId],
    index: [h.projectId, h.voucherId, h.id],
    sparse: [h.projectId, h.customerId, h.id],
  }));

/**
 * A promotion stack (`stack_...`), in its project's stacks partition: GetItem by id (a validation
 * naming the stack), and one consistent Query reads all of them (at most
 * MAX_PROMOTION_STACKS_PER_PROJECT) for both lists.
 */
export const promotionStack = /* @__PURE__ */ entity<PromotionStack>('promotion_stack', 1)
  .key(
    (projectId: string) => tenant(projectId, 'PROMOTION_STACKS'),
    (stackId: string) => path('STACK', stackId),
  )
  .from((s, projectId: string) => ({ key: [projectId, s.id] }));
/** How many promotion stacks a project has, for the cap. */
export const promotionStackCounter = /* @__PURE__ */ entity<{ count: number }>('promotion_stack_counter', 1)
  .key(
    (projectId: string) => tenant(projectId),
    () => 'PROMOTION_STACK_COUNTER',
  )
  .apart();

/**
 * Every loyalty tier of one program in one item, beside the program's other loyalty items: each
 * points change of a card reads it with one GetItem (lib/loyalties/tier.repo.ts).
 */
export const loyaltyTierSet = /* @__PURE__ */ entity<LoyaltyTierSet>('loyalty_tier_set', 1)
  .key(
    (projectId: string, campaignId: string) => tenant(projectId, 'LOYALTY', campaignId),
    () => 'TIERS',
  )
  .from((s) => ({ key: [s.projectId, s.campaignId] }));

/**
 * A webhook of a project (Management API, lib/webhooks): all of a project's webhooks share one
 * partition (at most MAX_WEBHOOKS_PER_PROJECT), so the stream consumer reads them with one Query.
 */
export const webhook = /* @__PURE__ */ entity<Webhook>('webhook', 1)
  .key(
    (projectId: string) => tenant(projectId, 'WEBHOOKS'),
    (webhookId: string) => webhookId,
  )
  .from((w) => ({ key: [w.projectId, w.id] }));
