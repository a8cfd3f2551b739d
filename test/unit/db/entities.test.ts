import { describe, expect, it } from 'vitest';
import * as e from '../../../lib/db/entities.js';
import type { Item } from '../../../lib/db/entity.js';
import { keys } from '../../../lib/db/keys.js';
import type { Voucher } from '../../../lib/vouchers/voucher.js';
import { expiryShard, type PointsBucket } from '../../../lib/loyalties/points-bucket.js';
import type { PendingPoints } from '../../../lib/loyalties/pending-points.js';
import { DEFAULT_STACKING_RULES } from '../../../lib/validations/stacking-rules.js';

/**
 * The stored layout of every entity, pinned as literal strings: items already in the table must
 * keep reading, so a key, an entity name or a version changes only with a migration.
 */
const P = 'p1';
const at = '2026-01-01T00:00:00.000Z';
const id = (x: string) => ({ id: x, projectId: P, createdAt: at });
const never = <T>(value: Record<string, unknown>) => value as T;

const layouts: [string, Item, { PK: string; SK: string; GSI1PK?: string; GSI1SK?: string; GSI2PK?: string; GSI2SK?: string }][] = [
  ['project', e.project.toItem(never({ projectId: P, name: 'n', createdAt: at })), { PK: 'P#p1', SK: 'PROJECT', GSI1PK: 'PROJECTS', GSI1SK: `${at}#p1` }],
  [
    'deleted_project',
    e.deletedProject.toItem({ projectId: P, name: 'n', deletedAt: at }),
    { PK: 'P#p1', SK: 'PROJECT_DELETED', GSI1PK: 'DELETED_PROJECTS', GSI1SK: `${at}#p1` },
  ],
  [
    'management_key',
    e.managementKey.toItem(never({ managementId: 'mgmt_1', createdAt: at })),
    { PK: 'MGMTKEY#mgmt_1', SK: 'MGMTKEY', GSI1PK: 'MGMTKEYS', GSI1SK: `${at}#mgmt_1` },
  ],
  ['oauth_ledger', e.oauthLedger.toItem({ expiries: [], revision: 1 }, P), { PK: 'P#p1', SK: 'OAUTH_LEDGER' }],
  [
    'app_key',
    e.appKey.toItem(never({ appId: 'app1', projectId: P, createdAt: at })),
    { PK: 'APPKEY#app1', SK: 'APPKEY', GSI1PK: 'P#p1#APPKEYS', GSI1SK: `${at}#app1` },
  ],
  ['oauth_token', e.oauthToken.toItem(never({ tokenHash: 'h1', projectId: P, expiresAt: 99 })), { PK: 'OAUTH#h1', SK: 'OAUTH' }],
  [
    'client_origin',
    e.clientOrigin.toItem({ origin: 'https://shop.example', appId: 'app1', projectId: P }),
    { PK: 'CLIENT_ORIGIN#https://shop.example', SK: 'APPKEY#app1' },
  ],
  ['campaign', e.campaign.toItem(never(id('camp_1'))), { PK: 'P#p1#CAMPAIGN#camp_1', SK: 'CAMPAIGN' }],
  ['campaign_name', e.campaignName.toItem({ campaignId: 'camp_1' }, P, 'Summer Sale'), { PK: 'P#p1#CAMPAIGN_NAME#Summer Sale', SK: 'CAMPAIGN_NAME' }],
  [
    'campaign_list_entry',
    e.campaignListEntry.toItem(never({ ...id('camp_1'), sequence: 42 }), P),
    { PK: 'P#p1#CAMPAIGNS', SK: `${at}#camp_1`, GSI1PK: 'P#p1#CAMPAIGN_SEQ', GSI1SK: '000000000042' },
  ],
  ['campaign_counter', e.campaignCounter.toItem({ campaignCount: 1, lastCreatedAt: at }, P), { PK: 'P#p1', SK: 'CAMPAIGN_COUNTER' }],
  [
    'campaign_view_entry',
    e.campaignViewEntry.toItem({ id: 'camp_1' }, P, 'TYPE#GIFT_VOUCHERS#REF#false', 7),
    { PK: 'P#p1#CAMPAIGN_VIEW#TYPE#GIFT_VOUCHERS#REF#false', SK: '000000000007' },
  ],
  ['promotion_tier_ref', e.promotionTierRef.toItem({ campaignId: 'camp_1' }, P, 'promo_1'), { PK: 'P#p1#PROMO_TIER#promo_1', SK: 'PROMO_TIER' }],
  [
    'voucher',
    e.voucher.toItem(never({ ...id('v_1'), code: 'AbC-1' }), 'camp_1'),
    { PK: 'P#p1#VOUCHER#AbC-1', SK: 'VOUCHER', GSI1PK: 'P#p1#CAMPAIGN#camp_1#VOUCHERS', GSI1SK: `${at}#v_1` },
  ],
  ['voucher_id', e.voucherId.toItem({ code: 'AbC-1' }, P, 'v_1'), { PK: 'P#p1#VOUCHER_ID#v_1', SK: 'VOUCHER_ID' }],
  [
    'voucher_page_bookmark',
    e.voucherPageBookmark.toItem({ head: 'h', bounds: {}, expiresAt: 99 }, P, 'abc'),
    { PK: 'P#p1#VOUCHER_PAGES#abc', SK: 'VOUCHER_PAGES' },
  ],
  [
    'held_voucher',
    e.heldVoucher.toItem({ customerId: 'cust_1', campaignId: 'camp_1', code: 'c', voucherId: 'v_1', createdAt: at, publicationId: null }, P),
    { PK: 'P#p1#HOLDER#cust_1#CAMPAIGN#camp_1', SK: 'HELD_VOUCHER' },
  ],
  ['publication', e.publication.toItem(never({ ...id('pub_1') })), { PK: 'P#p1#PUBLICATION#pub_1', SK: 'PUBLICATION' }],
  [
    'publication_source_id',
    e.publicationSourceId.toItem({ publicationId: 'pub_1', customerId: 'cust_1' }, P, 'src-1'),
    { PK: 'P#p1#PUBLICATION_SRC#src-1', SK: 'PUBLICATION_SRC' },
  ],
  [
    'publication_list_entry',
    e.publicationListEntry.toItem({ view: 'CUSTOMER#cust_1', publicationId: 'pub_1', createdAt: at }, P),
    { PK: 'P#p1#PUBLICATIONS#CUSTOMER#cust_1', SK: `${at}#pub_1` },
  ],
  ['publication_count', e.publicationCount.toItem({ count: 2 }, P, 'ALL', 3), { PK: 'P#p1#PUBLICATION_COUNT#ALL', SK: '3' }],
  ['bin_entry', e.binEntry.toItem(never({ id: 'tbe_1' }), P), { PK: 'P#p1#BIN', SK: 'tbe_1' }],
  [
    'category',
    e.category.toItem(never({ id: 'cat_1', hierarchy: 7, createdAt: at }), P),
    { PK: 'P#p1#CATEGORY#cat_1', SK: 'CATEGORY', GSI1PK: 'P#p1#CATEGORIES', GSI1SK: `0000000007#${at}#cat_1` },
  ],
  ['category_name', e.categoryName.toItem({ categoryId: 'cat_1' }, P, 'Shoes'), { PK: 'P#p1#CATEGORY_NAME#Shoes', SK: 'CATEGORY_NAME' }],
  ['product', e.product.toItem(never({ ...id('prod_1') }), P), { PK: 'P#p1#PRODUCT#prod_1', SK: 'PRODUCT', GSI1PK: 'P#p1#PRODUCTS', GSI1SK: `${at}#prod_1` }],
  ['product_source', e.productSource.toItem({ productId: 'prod_1' }, P, 'shoe-1'), { PK: 'P#p1#PRODUCT_SOURCE#shoe-1', SK: 'PRODUCT_SOURCE' }],
  ['product_counter', e.productCounter.toItem({ count: 2 }, P), { PK: 'P#p1', SK: 'PRODUCT_COUNTER' }],
  ['segment', e.segment.toItem(never({ id: 'seg_1' }), P), { PK: 'P#p1#SEGMENTS', SK: 'seg_1' }],
  ['sku', e.sku.toItem(never({ ...id('sku_1'), productId: 'prod_1' }), P), { PK: 'P#p1#PRODUCT#prod_1', SK: 'SKU#sku_1' }],
  ['sku_ref', e.skuRef.toItem({ productId: 'prod_1' }, P, 'sku_1'), { PK: 'P#p1#SKU#sku_1', SK: 'SKU' }],
  ['catalog_gone', e.catalogGone.toItem({ object: 'product' }, P, 'prod_1'), { PK: 'P#p1#CATALOG_GONE#prod_1', SK: 'CATALOG_GONE' }],
  ['product_collection', e.productCollection.toItem(never(id('pc_1')), P), { PK: 'P#p1#PRODUCT_COLLECTIONS', SK: 'COLLECTION#pc_1' }],
  ['product_collection_counter', e.productCollectionCounter.toItem({ count: 1 }, P), { PK: 'P#p1', SK: 'PRODUCT_COLLECTION_COUNTER' }],
  [
    'product_collection_member',
    e.collectionMember.toItem(never({ collectionId: 'pc_1', id: 'prod_1', object: 'product', productId: 'prod_1', createdAt: at }), P),
    { PK: 'P#p1#PRODUCT_COLLECTION#pc_1', SK: 'MEMBER#prod_1' },
  ],
  ['sku_source', e.skuSource.toItem({ skuId: 'sku_1', productId: 'prod_1' }, P, 'shoe-1-red'), { PK: 'P#p1#SKU_SOURCE#shoe-1-red', SK: 'SKU_SOURCE' }],
  ['category_counter', e.categoryCounter.toItem({ count: 2 }, P), { PK: 'P#p1', SK: 'CATEGORY_COUNTER' }],
  [
    'standalone_voucher_counter',
    e.standaloneVoucherCounter.toItem({ vouchersCount: 2, vouchersInserted: 3 }, P),
    { PK: 'P#p1', SK: 'STANDALONE_VOUCHER_COUNTER' },
  ],
  [
    'campaign_template',
    e.campaignTemplate.toItem(never({ ...id('camt_1'), campaignType: 'GIFT_VOUCHERS' })),
    {
      PK: 'P#p1#TEMPLATE#camt_1',
      SK: 'CAMPAIGN_TEMPLATE',
      GSI1PK: 'P#p1#TEMPLATES',
      GSI1SK: `${at}#camt_1`,
      GSI2PK: 'P#p1#TEMPLATES#GIFT_VOUCHERS',
      GSI2SK: `${at}#camt_1`,
    },
  ],
  ['campaign_template_counter', e.campaignTemplateCounter.toItem({ count: 2 }, P), { PK: 'P#p1', SK: 'CAMPAIGN_TEMPLATE_COUNTER' }],
  ['campaign_template_name', e.campaignTemplateName.toItem({ templateId: 'camt_1' }, P, 'T'), { PK: 'P#p1#TEMPLATE_NAME#T', SK: 'CAMPAIGN_TEMPLATE_NAME' }],
  ['reward', e.reward.toItem(never(id('rew_1'))), { PK: 'P#p1#REWARD#rew_1', SK: 'REWARD', GSI1PK: 'P#p1#REWARDS', GSI1SK: `${at}#rew_1` }],
  [
    'reward_assignment',
    e.rewardAssignment.toItem(never({ ...id('rewa_1'), rewardId: 'rew_1', campaignId: 'camp_1' })),
    { PK: 'P#p1#REWARD_ASSIGNMENT#rewa_1', SK: 'REWARD_ASSIGNMENT', GSI1PK: 'P#p1#REWARD#rew_1#ASSIGNMENTS', GSI1SK: `${at}#rewa_1` },
  ],
  [
    'reward_assignment_pair',
    e.rewardAssignmentPair.toItem(never({ ...id('rewa_1'), rewardId: 'rew_1', campaignId: 'camp_1' })),
    { PK: 'P#p1#REWARD_ASSIGNMENT#rew_1#camp_1', SK: 'REWARD_ASSIGNMENT_PAIR', GSI1PK: 'P#p1#CAMPAIGN#camp_1#REWARDS', GSI1SK: `${at}#rewa_1` },
  ],
  [
    'custom_event_schema',
    e.customEventSchema.toItem(never({ ...id('ms_1'), name: 'signed_up' })),
    { PK: 'P#p1#EVENT_SCHEMA#signed_up', SK: 'EVENT_SCHEMA', GSI1PK: 'P#p1#EVENT_SCHEMAS', GSI1SK: `${at}#ms_1` },
  ],
  ['custom_event_schema_id', e.customEventSchemaId.toItem({ name: 'signed_up' }, P, 'ms_1'), { PK: 'P#p1#EVENT_SCHEMA_ID#ms_1', SK: 'EVENT_SCHEMA_ID' }],
  [
    'metadata_schema',
    e.metadataSchemaItem.toItem(never({ ...id('ms_2'), relatedObject: 'customer' })),
    { PK: 'P#p1#METADATA_SCHEMA#customer', SK: 'METADATA_SCHEMA', GSI1PK: 'P#p1#METADATA_SCHEMAS', GSI1SK: `${at}#ms_2` },
  ],
  ['metadata_schema_id', e.metadataSchemaId.toItem({ relatedObject: 'customer' }, P, 'ms_2'), { PK: 'P#p1#METADATA_SCHEMA_ID#ms_2', SK: 'METADATA_SCHEMA_ID' }],
  ['customer', e.customer.toItem(never(id('cust_1'))), { PK: 'P#p1#CUSTOMER#cust_1', SK: 'CUSTOMER' }],
  [
    'customer_erasure',
    e.customerErasure.toItem(never({ id: 'del_1', projectId: P, customerId: 'cust_1', createdAt: at })),
    { PK: 'P#p1#CUSTOMER_ERASURE#cust_1', SK: 'CUSTOMER_ERASURE' },
  ],
  [
    'customer_source_id',
    e.customerSourceId.toItem({ customerId: 'cust_1' }, P, 'src-1'),
    { PK: 'P#p1#CUSTOMER_SRC#src-1', SK: 'CUSTOMER_SRC', GSI1PK: 'P#p1#CUSTOMERS_BY_SOURCE_ID', GSI1SK: 'src-1' },
  ],
  [
    'customer_list_entry',
    e.customerListEntry.toItem({ view: 'ALL', customerId: 'cust_1', createdAt: at, updatedAt: '2026-02-01T00:00:00.000Z' }, P),
    { PK: 'P#p1#CUSTOMERS#ALL', SK: `${at}#cust_1`, GSI1PK: 'P#p1#CUSTOMERS_UPDATED#ALL', GSI1SK: '2026-02-01T00:00:00.000Z#cust_1' },
  ],
  ['customer_count', e.customerCount.toItem({ count: 3 }, P, 'EMAIL#h', 5), { PK: 'P#p1#CUSTOMER_COUNT#EMAIL#h', SK: '5' }],
  ['custom_event', e.customEvent.toItem(never({ ...id('evcus_1'), customerId: 'cust_1' })), { PK: 'P#p1#CUSTOMER#cust_1#EVENTS', SK: `EVENT#${at}#evcus_1` }],
  [
    'customer_activity',
    e.customerActivity.toItem(never({ ...id('act_1'), customerId: 'cust_1' })),
    { PK: 'P#p1#CUSTOMER#cust_1#EVENTS', SK: `ACTIVITY#${at}#act_1` },
  ],
  ['order', e.order.toItem(never(id('ord_1'))), { PK: 'P#p1#ORDER#ord_1', SK: 'ORDER' }],
  ['stacking_rules', e.stackingRules.toItem({ ...DEFAULT_STACKING_RULES, updatedAt: at }, P), { PK: 'P#p1', SK: 'STACKING_RULES' }],
  ['order_source_id', e.orderSourceId.toItem({ orderId: 'ord_1' }, P, 'src-1'), { PK: 'P#p1#ORDER_SRC#src-1', SK: 'ORDER_SRC' }],
  [
    'order_list_entry',
    e.orderListEntry.toItem({ orderId: 'ord_1', createdAt: at, updatedAt: null }, P),
    { PK: 'P#p1#ORDERS', SK: `${at}#ord_1`, GSI1PK: 'P#p1#ORDERS_UPDATED', GSI1SK: `${at}#ord_1` },
  ],
  ['order_count', e.orderCount.toItem({ count: 3 }, P, 5), { PK: 'P#p1#ORDER_COUNT', SK: '5' }],
  [
    'async_action',
    e.asyncAction.toItem(never({ id: 'aa_1', projectId: P, createdAt: at })),
    { PK: 'P#p1#ASYNC_ACTION#aa_1', SK: 'ASYNC_ACTION', GSI1PK: 'P#p1#ASYNC_ACTIONS', GSI1SK: `${at}#aa_1` },
  ],
  ['import_chunk', e.importChunk.toItem({ vouchers: [{ code: 'C1' }] }, P, 'aa_1', 7), { PK: 'P#p1#ASYNC_ACTION#aa_1', SK: 'IMPORT#00007' }],
  ['bulk_chunk', e.bulkChunk.toItem({ rows: [{ ref: 'c1', body: {} }] }, P, 'aa_1', 7), { PK: 'P#p1#ASYNC_ACTION#aa_1', SK: 'BULK#00007' }],
  [
    'export',
    e.exportRecord.toItem(never({ id: 'exp_1', projectId: P, createdAt: at })),
    { PK: 'P#p1#EXPORT#exp_1', SK: 'EXPORT', GSI1PK: 'P#p1#EXPORTS', GSI1SK: `${at}#exp_1` },
  ],
  [
    'redemption',
    e.redemption.toItem(never({ id: 'r_2', projectId: P, date: at, customerId: 'cust_1', relatedObjectType: 'voucher', relatedObjectId: 'v_1' })),
    {
      PK: 'P#p1#REDEMPTION#r_2',
      SK: 'REDEMPTION',
      GSI1PK: 'P#p1#REDEEMED#v_1',
      GSI1SK: `${at}#r_2`,
      GSI2PK: 'P#p1#CUSTOMER#cust_1#REDEMPTIONS',
      GSI2SK: `${at}#r_2`,
    },
  ],
  [
    'campaign_summary_counter',
    e.campaignSummaryCounter.toItem({ redemptions: 1 }, P, 'camp_1', '2026-07-02', 3),
    { PK: 'P#p1#CAMPAIGN_SUMMARY#camp_1', SK: '2026-07-02#03' },
  ],
  ['voucher_redemption_count', e.voucherRedemptionCount.toItem({ count: 1 }, P, 'v_1', 31), { PK: 'P#p1#VOUCHER_REDEMPTIONS#v_1', SK: '31' }],
  ['campaign_redemption_count', e.campaignRedemptionCount.toItem({ count: 1 }, P, 'camp_1', 7), { PK: 'P#p1#CAMPAIGN_REDEMPTIONS#camp_1', SK: '7' }],
  ['customer_redemption_summary', e.customerRedemptionSummary.toItem({ redeemed: 1 }, P, 'cust_1'), { PK: 'P#p1#CUSTOMER#cust_1', SK: 'REDEMPTION_SUMMARY' }],
  ['customer_redemption_count', e.customerRedemptionCount.toItem({ count: 1 }, P, 'cust_1', 'v_1'), { PK: 'P#p1#CUSTOMER#cust_1', SK: 'REDEMPTION_COUNT#v_1' }],
  [
    'voucher_session_hold',
    e.voucherSessionHold.toItem({ sessionKey: 's 1', expiresAt: at, uses: 1, credits: 0 }, P, 'v_1', 's 1'),
    { PK: 'P#p1#VOUCHER_SESSIONS#v_1', SK: 's 1' },
  ],
  ['open_job', e.openJob.toItem({ type: 'generate-vouchers', projectId: P, subjectId: 'aa_1', createdAt: at }), { PK: 'OPEN_JOBS#11', SK: 'p1#aa_1' }],
  [
    'idempotency_record',
    e.idempotencyRecord.toItem({ fingerprint: 'f', createdAt: at, expiresAt: 99 }, P, 'key-1'),
    { PK: 'P#p1#IDEMPOTENCY#key-1', SK: 'IDEMPOTENCY' },
  ],
  ['rate_limit_window', e.rateLimitWindow.toItem({ requests: 1 }, P, 1_700_000_000), { PK: 'P#p1#RATE#1700000000', SK: 'RATE_LIMIT' }],
  [
    'client_rate_limit_window',
    e.clientRateLimitWindow.toItem({ requests: 1 }, P, 'IP', '198.51.100.7', 1_700_000_000),
    { PK: 'P#p1#RATE#CLIENT#IP#198.51.100.7#1700000000', SK: 'RATE_LIMIT' },
  ],
  [
    'points_bucket',
    e.pointsBucket.toItem(never({ ...id('pb_1'), campaignId: 'camp_1', voucherId: 'v_1', expiresAt: null })),
    { PK: 'P#p1#LOYALTY#camp_1#BUCKETS', SK: '9999-12-31#pb_1', GSI1PK: 'P#p1#CARD#v_1#BUCKETS', GSI1SK: '9999-12-31#pb_1' },
  ],
  [
    'card_transaction',
    e.cardTransaction.toItem(never({ ...id('vtx_1'), voucherId: 'v_1', campaignId: 'camp_1' })),
    {
      PK: 'P#p1#CARD#v_1#TRANSACTIONS',
      SK: `${at}#vtx_1`,
      GSI1PK: 'P#p1#VOUCHER_TX#vtx_1',
      GSI1SK: 'VOUCHER_TX',
      GSI2PK: 'P#p1#CAMPAIGN#camp_1#TRANSACTIONS',
      GSI2SK: `${at}#vtx_1`,
    },
  ],
  [
    'earning_rule',
    e.earningRule.toItem(never({ ...id('ern_1'), event: 'signed_up', campaignId: 'camp_1' })),
    { PK: 'P#p1#EARNING_RULES#signed_up', SK: 'camp_1#ern_1', GSI1PK: 'P#p1#CAMPAIGN#camp_1#EARNING_RULES', GSI1SK: `${at}#ern_1` },
  ],
  [
    'earning_rule_ref',
    e.earningRuleRef.toItem({ projectId: 'p1', id: 'ern_1', event: 'signed_up', campaignId: 'camp_1' }),
    { PK: 'P#p1#EARNING_RULE#ern_1', SK: 'EARNING_RULE_REF' },
  ],
  [
    'order_earning',
    e.orderEarning.toItem(never({ projectId: 'p1', orderId: 'ord_1', voucherId: 'v_1', ruleId: 'ern_1' })),
    { PK: 'P#p1#ORDER#ord_1#EARNINGS', SK: 'v_1#ern_1' },
  ],
  [
    'pending_points',
    e.pendingPoints.toItem(never({ ...id('lopp_1'), campaignId: 'camp_1', voucherId: 'v_1', status: 'CANCELED' })),
    { PK: 'P#p1#CARD#v_1#PENDING_DONE', SK: 'lopp_1', GSI1PK: 'P#p1#LOYALTY#camp_1#PENDING_DONE', GSI1SK: 'lopp_1' },
  ],
  [
    'referral_conversion',
    e.referralConversion.toItem(never({ ...id('rc_1'), campaignId: 'camp_1', code: 'REF-1', refereeId: 'cust_2', referrerId: 'cust_1' })),
    { PK: 'P#p1#REFERRAL#camp_1#REF-1', SK: 'CONVERSION#cust_2', GSI1PK: 'P#p1#CUSTOMER#cust_1#REFERRALS', GSI1SK: `${at}#rc_1` },
  ],
  ['validation_rule', e.validationRule.toItem(never(id('val_1')), P), { PK: 'P#p1#VRULE#val_1', SK: 'VRULE', GSI1PK: 'P#p1#VRULES', GSI1SK: `${at}#val_1` }],
  ['validation_rule_counter', e.validationRuleCounter.toItem({ count: 2 }, P), { PK: 'P#p1', SK: 'VRULE_COUNTER' }],
  [
    'validation_rule_assignment',
    e.validationRuleAssignment.toItem(never({ ...id('asgm_1'), ruleId: 'val_1' }), P),
    { PK: 'P#p1#VRULE#val_1', SK: 'ASGM#asgm_1', GSI1PK: 'P#p1#VRULE_ASSIGNMENTS', GSI1SK: `${at}#asgm_1` },
  ],
  ['object_validation_rules', e.objectAssignments.toItem({ assignments: [], ruleIds: [] }, P, 'camp_1'), { PK: 'P#p1#ASSIGNED#camp_1', SK: 'VRULES' }],
  ['branding', e.branding.toItem(never({ id: 'brd_1', projectId: P })), { PK: 'P#p1', SK: 'BRANDING' }],
  ['user', e.user.toItem(never({ id: 'user_1' })), { PK: 'USER#user_1', SK: 'USER' }],
  ['user_login', e.userLogin.toItem({ userId: 'user_1' }, 'a@b.example'), { PK: 'USER_LOGIN#a@b.example', SK: 'USER_LOGIN' }],
  ['location', e.location.toItem(never(id('loc_1'))), { PK: 'P#p1#LOCATION#loc_1', SK: 'LOCATION', GSI1PK: 'P#p1#LOCATIONS', GSI1SK: `${at}#loc_1` }],
  ['project_user', e.projectUser.toItem({ projectId: P, userId: 'user_1', role: 'USER', assignedAt: at }), { PK: 'P#p1#USERS', SK: 'user_1' }],
  [
    'referral_holder',
    e.referralHolder.toItem(never({ ...id('rh_1'), voucherId: 'v_1', customerId: 'cust_2' })),
    {
      PK: 'P#p1#REDEEMABLE_HOLDERS#v_1',
      SK: 'CUSTOMER#cust_2',
      GSI1PK: 'P#p1#REDEEMABLE_HOLDERS#v_1',
      GSI1SK: 'rh_1',
      GSI2PK: 'P#p1#HOLDER#cust_2#REFEREE',
      GSI2SK: 'rh_1',
    },
  ],
  ['promotion_stack', e.promotionStack.toItem(never(id('stack_1')), P), { PK: 'P#p1#PROMOTION_STACKS', SK: 'STACK#stack_1' }],
  ['promotion_stack_counter', e.promotionStackCounter.toItem({ count: 1 }, P), { PK: 'P#p1', SK: 'PROMOTION_STACK_COUNTER' }],
  ['loyalty_tier_set', e.loyaltyTierSet.toItem({ projectId: 'p1', campaignId: 'camp_1', tiers: [], revision: 1 }), { PK: 'P#p1#LOYALTY#camp_1', SK: 'TIERS' }],
  ['webhook', e.webhook.toItem(never(id('wh_1'))), { PK: 'P#p1#WEBHOOKS', SK: 'wh_1' }],
];

describe('entity layouts', () => {
  it.each(layouts)('%s keeps its keys, entity name and version', (name, item, expected) => {
    const { PK, SK, GSI1PK, GSI1SK, GSI2PK, GSI2SK } = item;
    expect({ PK, SK, ...(GSI1PK === undefined ? {} : { GSI1PK, GSI1SK }), ...(GSI2PK === undefined ? {} : { GSI2PK, GSI2SK }) }).toEqual(expected);
    expect(item.entity).toBe(name);
    expect(item.v).toBe(1);
  });

  it('covers every entity defined, and each has its own name', () => {
    const defined = Object.values(e).filter((x): x is typeof e.project => typeof x === 'object' && x !== null && 'fromItem' in x);
    expect(defined.map((x) => x.name).sort()).toEqual(layouts.map(([name]) => name).sort());
  });

  it('starts every key of a project with P#<projectId>, except the credential lookups (keys, tokens, trusted origins), the open-job markers and the operator-wide project lists', () => {
    // The Management API lists every project (and a removal job every tombstone): their GSI1 partitions are the operator's.
    const operatorLists = new Set(['project', 'deleted_project']);
    for (const [name, item] of layouts) {
      const values = [item.PK, ...(operatorLists.has(name) ? [] : [item.GSI1PK])].filter((v): v is string => typeof v === 'string');
      // A preflight carries no credentials: it asks whether any project's client key trusts its Origin.
      // Users (and their logins) belong to the operator's organisation: one user may be assigned to several projects.
      const tenantOwned = !['app_key', 'oauth_token', 'client_origin', 'open_job', 'management_key', 'user', 'user_login'].includes(name);
      if (tenantOwned) for (const v of values) expect(v === 'P#p1' || v.startsWith('P#p1#'), `${name}: ${v}`).toBe(true);
    }
    expect(String(layouts.find(([name]) => name === 'app_key')?.[1].GSI1PK)).toMatch(/^P#p1#/);
    // Markers are found across projects by shard (no request reads them); the project still leads the sort key.
    expect(layouts.find(([name]) => name === 'open_job')?.[2].SK).toMatch(/^p1#/);
  });

  it("puts a points bucket in the expiry index (sparse GSI2, its card's shard, by date) only while it holds points and has an expiry", () => {
    const live = never<PointsBucket>({ ...id('pb_1'), campaignId: 'camp_1', voucherId: 'v_1', points: 5, status: 'ACTIVE', expiresAt: '2026-03-01' });
    const shard = String(expiryShard('v_1')).padStart(2, '0');
    expect(e.pointsBucket.toItem(live)).toMatchObject({ GSI2PK: `EXPIRING_POINTS#${shard}`, GSI2SK: '2026-03-01#p1#v_1#pb_1' });
    for (const out of [{ points: 0 }, { status: 'USED' as const }, { status: 'EXPIRED' as const }, { expiresAt: null }]) {
      expect(e.pointsBucket.toItem({ ...live, ...out })).not.toHaveProperty('GSI2PK');
    }
  });

  it("keeps a pending points entry in its card's and program's PENDING partitions and the due index (sparse GSI2, by activation date) only while PENDING", () => {
    const live = never<PendingPoints>({ ...id('lopp_1'), campaignId: 'camp_1', voucherId: 'v_1', status: 'PENDING', activatesAt: '2026-03-01' });
    const shard = String(expiryShard('v_1')).padStart(2, '0');
    expect(e.pendingPoints.toItem(live)).toMatchObject({
      PK: 'P#p1#CARD#v_1#PENDING',
      SK: 'lopp_1',
      GSI1PK: 'P#p1#LOYALTY#camp_1#PENDING',
      GSI1SK: 'lopp_1',
      GSI2PK: `PENDING_POINTS_DUE#${shard}`,
      GSI2SK: '2026-03-01#p1#v_1#lopp_1',
    });
    for (const status of ['ACTIVATED', 'CANCELED'] as const) expect(e.pendingPoints.toItem({ ...live, status })).not.toHaveProperty('GSI2PK');
  });

  it("puts a voucher in its campaign's pool (sparse GSI2) only while it is active, unpublished and held by no one", () => {
    const fresh = never<Voucher>({ ...id('v_1'), code: 'C1', campaignId: 'camp_1', holderId: null, publishCount: 0, active: true });
    expect(e.voucher.toItem(fresh, 'camp_1')).toMatchObject({ GSI2PK: 'P#p1#CAMPAIGN#camp_1#UNPUBLISHED', GSI2SK: 'v_1' });
    for (const out of [{ publishCount: 1 }, { active: false }, { campaignId: null }]) {
      expect(e.voucher.toItem({ ...fresh, ...out }, 'camp_1')).not.toHaveProperty('GSI2PK');
    }
    // A held voucher is out of the pool; its GSI2 entry is its holder's list instead.
    expect(e.voucher.toItem({ ...fresh, holderId: 'cust_1', publishCount: 1 }, 'camp_1')).toMatchObject({
      GSI2PK: 'P#p1#HOLDER#cust_1#VOUCHERS',
      GSI2SK: `${at}#v_1`,
    });
    expect(e.voucher.fromItem(e.voucher.toItem(fresh, 'camp_1'))).toEqual(fresh);
  });

  it("lists every voucher in its project's keys-only GSI3 by creation, and a held one in its holder's GSI2 list, with or without a campaign", () => {
    const v = never<Voucher>({ ...id('v_1'), code: 'C1', campaignId: null, holderId: null, publishCount: 0, active: true });
    expect(e.voucher.toItem(v, 'none')).toMatchObject({ GSI3PK: 'P#p1#VOUCHERS', GSI3SK: `${at}#v_1` });
    expect(e.voucher.toItem({ ...v, holderId: 'cust_9' }, 'none')).toMatchObject({
      GSI2PK: 'P#p1#HOLDER#cust_9#VOUCHERS',
      GSI2SK: `${at}#v_1`,
      GSI3PK: 'P#p1#VOUCHERS',
    });
    expect(e.voucher.fromItem(e.voucher.toItem({ ...v, holderId: 'cust_9' }, 'none'))).toEqual({ ...v, holderId: 'cust_9' });
  });

  it("lists a categorised voucher in its category's keys-only GSI4 by creation (by the category's id), and an uncategorised one nowhere there", () => {
    const v = never<Voucher>({ ...id('v_1'), code: 'C1', campaignId: null, holderId: null, publishCount: 0, active: true, category: null });
    const item = e.voucher.toItem(v, 'none');
    expect(item.GSI4PK).toBeUndefined();
    expect(item.GSI4SK).toBeUndefined();
    const categorised: Voucher = { ...v, category: { id: 'cat_1', name: 'Seasonal', hierarchy: 1, createdAt: at, updatedAt: null } };
    expect(e.voucher.toItem(categorised, 'none')).toMatchObject({ GSI4PK: 'P#p1#CATEGORY#cat_1#VOUCHERS', GSI4SK: `${at}#v_1`, GSI3PK: 'P#p1#VOUCHERS' });
    expect(e.voucher.fromItem(e.voucher.toItem(categorised, 'none'))).toEqual(categorised);
  });

  it('lists every voucher in the keys-only GSI5 by last change (updatedAt, else createdAt), and voucherChangeSet moves it to a new time', () => {
    const v = never<Voucher>({ ...id('v_1'), code: 'C1', campaignId: null, holderId: null, publishCount: 0, active: true, category: null, updatedAt: null });
    expect(e.voucher.toItem(v, 'none')).toMatchObject({ GSI5PK: 'P#p1#VOUCHERS_CHANGED', GSI5SK: `${at}#v_1` });
    const later = '2026-02-01T00:00:00.000Z';
    expect(e.voucher.toItem({ ...v, updatedAt: later }, 'none')).toMatchObject({ GSI5PK: 'P#p1#VOUCHERS_CHANGED', GSI5SK: `${later}#v_1` });
    expect(e.voucher.fromItem(e.voucher.toItem({ ...v, updatedAt: later }, 'none'))).toEqual({ ...v, updatedAt: later });
    expect(e.voucherChangeSet(v, later)).toEqual({
      set: '#chpk = :chpk, #chsk = :chsk',
      names: { '#chpk': 'GSI5PK', '#chsk': 'GSI5SK' },
      values: { ':chpk': 'P#p1#VOUCHERS_CHANGED', ':chsk': `${later}#v_1` },
    });
  });

  it('stores the TTL of expiring items in ttl', () => {
    expect(e.oauthToken.toItem(never({ tokenHash: 'h', expiresAt: 99 })).ttl).toBe(99);
    expect(e.idempotencyRecord.toItem({ fingerprint: 'f', createdAt: at, expiresAt: 77 }, P, 'k').ttl).toBe(77);
    expect(e.campaign.toItem(never(id('c'))).ttl).toBeUndefined();
  });
});

describe('keys (the builders under their former names)', () => {
  it('give the same keys and partitions as the entities', () => {
    expect(keys.campaign(P, 'camp_1')).toEqual({ PK: 'P#p1#CAMPAIGN#camp_1', SK: 'CAMPAIGN' });
    expect(keys.campaignListPartition(P)).toBe('P#p1#CAMPAIGNS');
    expect(keys.campaignSequencePartition(P)).toBe('P#p1#CAMPAIGN_SEQ');
    expect(keys.campaignSequenceSortKey(4901)).toBe('000000004901');
    expect(keys.idempotencyRecord(P, 'k')).toEqual({ PK: 'P#p1#IDEMPOTENCY#k', SK: 'IDEMPOTENCY' });
    expect(keys.rateLimitWindow(P, 60)).toEqual({ PK: 'P#p1#RATE#60', SK: 'RATE_LIMIT' });
    expect(keys.campaignBucketsPartition(P, 'camp_1')).toBe('P#p1#LOYALTY#camp_1#BUCKETS');
    expect(keys.customerEventsPartition(P, 'cust_1')).toBe('P#p1#CUSTOMER#cust_1#EVENTS');
  });

  it('list a never-changed customer by its creation time in the change order, and cut long source ids to 1000 bytes of whole characters', () => {
    expect(e.customerListEntry.toItem({ view: 'ALL', customerId: 'cust_1', createdAt: at, updatedAt: null }, P).GSI1SK).toBe(`${at}#cust_1`);
    const long = `${'a'.repeat(999)}żżż`;
    expect(e.customerSourceId.toItem({ customerId: 'c' }, P, long).GSI1SK).toBe('a'.repeat(999));
    expect(e.customerSourceId.toItem({ customerId: 'c' }, P, `${'a'.repeat(998)}żż`).GSI1SK).toBe(`${'a'.repeat(998)}ż`);
  });
});

describe('redemption keys', () => {
  it('lists a parent under its own id in GSI1, every redemption in the project GSI3, and one without a customer outside GSI2', () => {
    const item = e.redemption.toItem({ id: 'r_1', projectId: P, date: at, customerId: null, relatedObjectType: 'redemption', relatedObjectId: 'r_1' } as never);
    expect(item).toMatchObject({ GSI1PK: 'P#p1#REDEEMED#r_1', GSI1SK: `${at}#r_1`, GSI3PK: 'P#p1#REDEMPTIONS', GSI3SK: `${at}#r_1` });
    expect(item.GSI2PK).toBeUndefined();
  });

  it("lists one that names a campaign in the campaign's GSI4 partition, and one without a campaign outside GSI4", () => {
    const child = e.redemption.toItem({ id: 'r_3', projectId: P, date: at, customerId: null, campaignId: 'camp_1', relatedObjectId: 'v_1' } as never);
    expect(child).toMatchObject({ GSI4PK: 'P#p1#CAMPAIGN#camp_1#REDEMPTIONS', GSI4SK: `${at}#r_3` });
    const parent = e.redemption.toItem({ id: 'r_4', projectId: P, date: at, customerId: null, campaignId: null, relatedObjectId: 'r_4' } as never);
    expect(parent.GSI4PK).toBeUndefined();
  });
});
