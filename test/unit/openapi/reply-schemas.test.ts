import { describe, expect, it } from 'vitest';
import * as z from '../../../lib/zod.js';
import { toAsyncActionReply } from '../../../lib/async-actions/async-action.mapper.js';
import type { AsyncAction } from '../../../lib/async-actions/async-action.js';
import { toBinListReply } from '../../../lib/bin/bin.mapper.js';
import type { Campaign, PromotionTier } from '../../../lib/campaigns/campaign.js';
import { toCampaignListReply, toCampaignReply } from '../../../lib/campaigns/campaign.mapper.js';
import type { Category } from '../../../lib/categories/category.js';
import { toCustomerListReply, toCustomerReply } from '../../../lib/customers/customer.mapper.js';
import type { Customer } from '../../../lib/customers/customer.js';
import { toEarningRuleListReply, toEarningRuleReply } from '../../../lib/earning-rules/earning-rule.mapper.js';
import { toEventSchemaListReply, toEventSchemaReply } from '../../../lib/custom-event-schemas/event-schema.mapper.js';
import { toEventReply } from '../../../lib/events/event.mapper.js';
import type { Export } from '../../../lib/exports/export.js';
import { toExportReply } from '../../../lib/exports/export.mapper.js';
import { errorReply } from '../../../lib/http/error-responder.js';
import { ConflictRetryError, NotFoundError } from '../../../lib/errors.js';
import { toBalanceReply, toBucketPageReply } from '../../../lib/loyalties/loyalty.mapper.js';
import type { PointsBucket } from '../../../lib/loyalties/points-bucket.js';
import { replySchemas } from '../../../lib/openapi/reply-schemas.js';
import { toRewardAssignmentListReply, toRewardAssignmentReply, toRewardListReply, toRewardReply } from '../../../lib/rewards/reward.mapper.js';
import type { Reward } from '../../../lib/rewards/reward.js';
import { toCampaignTemplateListReply, toCampaignTemplateReply } from '../../../lib/templates/campaign-template.mapper.js';
import type { CampaignTemplate } from '../../../lib/templates/campaign-template.js';
import { toVoucherReply } from '../../../lib/vouchers/voucher.mapper.js';
import type { Voucher } from '../../../lib/vouchers/voucher.js';

/*
 * Each mapper's output for sample domain objects must satisfy the reply schema the OpenAPI
 * document publishes for it: a field added to a mapper and not to its schema (or the reverse)
 * fails here before any integration test runs.
 */

const at = '2026-01-02T03:04:05.678Z';
const later = '2026-01-03T03:04:05.678Z';
const category: Category = { id: 'cat_1', name: 'Summer', hierarchy: 0, createdAt: at, updatedAt: null };
const codeConfig = { length: 8, charset: 'ABC', pattern: 'PRE-########', prefix: 'PRE-', postfix: null, initialCount: null };
const noValidity = { startDate: null, expirationDate: null, validityTimeframe: null, validityDayOfWeek: null, validityHours: null };

const campaignBase: Campaign = {
  ...noValidity,
  id: 'camp_1',
  projectId: 'p1',
  name: 'Coupons',
  description: 'Ten percent off everything',
  campaignType: 'DISCOUNT_COUPONS',
  type: 'AUTO_UPDATE',
  voucher: {
    type: 'DISCOUNT_VOUCHER',
    discount: { type: 'PERCENT', percentOff: 10, amountLimit: 500, effect: 'APPLY_TO_ORDER' },
    gift: null,
    loyaltyCard: null,
    redemptionQuantity: null,
    codeConfig,
    isReferralCode: false,
  },
  referralProgram: null,
  promotionTiers: null,
  autoJoin: false,
  joinOnce: false,
  useVoucherMetadataSchema: true,
  activityDurationAfterPublishing: null,
  vouchersCount: 3,
  active: true,
  metadata: { region: 'EU' },
  createdAt: at,
  updatedAt: null,
  creationStatus: 'DONE',
  vouchersGenerationStatus: 'DONE',
  protected: false,
  category: null,
};

const everything: Campaign = {
  ...campaignBase,
  startDate: at,
  expirationDate: later,
  validityTimeframe: { interval: 'P1D', duration: 'PT1H' },
  validityDayOfWeek: [1, 2],
  validityHours: { daily: [{ startTime: '08:00', expirationTime: '10:00', daysOfWeek: [1] }] },
  activityDurationAfterPublishing: 'P30D',
  updatedAt: later,
  category,
  campaignType: 'REFERRAL_PROGRAM',
  voucher: { ...campaignBase.voucher!, codeConfig: { ...codeConfig, postfix: '-X', initialCount: 5 }, isReferralCode: true, redemptionQuantity: 1 },
  referralProgram: { conversionEventType: 'custom_event', customEvent: { name: 'signup' } },
};

const loyaltyCampaign: Campaign = {
  ...campaignBase,
  campaignType: 'LOYALTY_PROGRAM',
  voucher: {
    type: 'LOYALTY_CARD',
    discount: null,
    gift: null,
    loyaltyCard: { points: 100, expirationRules: { periodType: 'MONTH', periodValue: 3, roundingType: 'END_OF_MONTH' } },
    redemptionQuantity: null,
    codeConfig,
    isReferralCode: false,
  },
};

const giftCampaign: Campaign = {
  ...campaignBase,
  campaignType: 'GIFT_VOUCHERS',
  voucher: {
    type: 'GIFT_VOUCHER',
    discount: null,
    gift: { amount: 1000, effect: 'APPLY_TO_ORDER' },
    loyaltyCard: null,
    redemptionQuantity: 2,
    codeConfig,
    isReferralCode: false,
  },
};

const tier: PromotionTier = {
  ...noValidity,
  id: 'promo_1',
  name: 'Tier 1',
  banner: 'Ten off',
  discount: { type: 'AMOUNT', amountOff: 1000 },
  metadata: {},
  active: true,
  hierarchy: 1,
  createdAt: at,
  updatedAt: later,
  startDate: at,
};
const promotion: Campaign = {
  ...campaignBase,
  campaignType: 'PROMOTION',
  voucher: null,
  promotionTiers: [tier, { ...tier, id: 'promo_2', banner: null, discount: null, updatedAt: null }],
};

const voucher: Voucher = {
  ...noValidity,
  id: 'v_1',
  code: 'PRE-ABCABCAB',
  projectId: 'p1',
  campaignId: 'camp_1',
  campaignName: 'Coupons',
  category: null,
  type: 'DISCOUNT_VOUCHER',
  discount: { type: 'AMOUNT', amountOff: 500 },
  gift: null,
  loyaltyCard: null,
  active: true,
  additionalInfo: null,
  metadata: {},
  isReferralCode: false,
  createdAt: at,
  updatedAt: null,
  holderId: null,
  referrerId: null,
  redemptionQuantity: null,
  redeemedQuantity: 0,
  redeemedPoints: 0,
  publishCount: 0,
};

const action: AsyncAction = {
  id: 'aa_1',
  projectId: 'p1',
  type: 'CAMPAIGN.VOUCHERS_GENERATE',
  status: 'IN_PROGRESS',
  requestId: 'v-1',
  campaignId: 'camp_1',
  requested: 10,
  doneCount: 3,
  campaignCreation: false,
  overrides: { category: null },
  failure: null,
  createdAt: at,
  updatedAt: at,
  finishedAt: null,
};

const rewardBase = { id: 'rew_1', projectId: 'p1', name: 'R', stock: null, redeemed: null, attributes: {}, metadata: {}, createdAt: at, updatedAt: null };
const rewards: Reward[] = [
  { ...rewardBase, type: 'CAMPAIGN', campaign: { campaignId: 'camp_1', campaignType: 'GIFT_VOUCHERS', balance: 1000 } },
  { ...rewardBase, type: 'CAMPAIGN', campaign: { campaignId: 'camp_1', campaignType: 'DISCOUNT_COUPONS', balance: null } },
  { ...rewardBase, type: 'COIN', coin: { exchangeRatio: 0.5, pointsRatio: 10 }, attributes: { imageUrl: 'https://x/y.png', description: 'd' } },
  { ...rewardBase, type: 'MATERIAL', product: { productId: 'prod_1', skuId: null }, stock: 5, updatedAt: later },
];

const exportRecord: Export = {
  id: 'exp_abc',
  projectId: 'p1',
  exportedObject: 'points_expiration',
  channel: 'API',
  status: 'SCHEDULED',
  parameters: { fields: ['id'] },
  campaignId: 'camp_1',
  voucherId: null,
  fields: ['id'],
  orderBy: 'expires_at',
  ascending: true,
  filters: { junction: 'and', conditions: {} },
  createdByAppId: 'app_1',
  downloadSecret: 's',
  objectKey: 'k',
  rowCount: null,
  failure: null,
  createdAt: at,
  updatedAt: at,
  finishedAt: null,
};

const bucket: PointsBucket = {
  id: 'lpb_1',
  projectId: 'p1',
  campaignId: 'camp_1',
  voucherId: 'v_1',
  points: 50,
  status: 'ACTIVE',
  expiresAt: '2026-03-31',
  createdAt: at,
  updatedAt: at,
};

const template: CampaignTemplate = {
  id: 'camp_tpl_1',
  projectId: 'p1',
  name: 'T',
  description: null,
  campaignType: 'DISCOUNT_COUPONS',
  source: { kind: 'campaign', id: 'camp_1' },
  snapshot: { ...campaignBase, campaignType: 'DISCOUNT_COUPONS', voucher: campaignBase.voucher! },
  createdAt: at,
  updatedAt: null,
};

const validityOf = ({ startDate, expirationDate, validityTimeframe, validityDayOfWeek, validityHours }: Campaign) => ({
  startDate,
  expirationDate,
  validityTimeframe,
  validityDayOfWeek,
  validityHours,
});

function expectValid(schema: z.core.$ZodType, reply: unknown): void {
  const result = z.safeParse(schema, reply);
  expect(result.success ? [] : result.error.issues, JSON.stringify(reply).slice(0, 300)).toEqual([]);
}

describe('reply schemas of the OpenAPI document', () => {
  it('accept the campaign mapper output for every campaign type, with and without optional fields', () => {
    for (const c of [campaignBase, everything, loyaltyCampaign, giftCampaign, promotion]) expectValid(replySchemas.Campaign, toCampaignReply(c));
  });

  it('accept the campaign list, with access settings assignments expanded', () => {
    expectValid(replySchemas.CampaignList, toCampaignListReply({ campaigns: [campaignBase, promotion], total: 7 }, ['access_settings_assignments']));
    expectValid(replySchemas.CampaignList, toCampaignListReply({ campaigns: [], total: 0 }));
  });

  it('accept discount, gift and loyalty card vouchers with every optional field set or unset', () => {
    const vouchers: Voucher[] = [
      voucher,
      {
        ...voucher,
        ...validityOf(everything),
        id: 'v_2',
        code: 'X',
        category,
        additionalInfo: 'i',
        holderId: 'cust_1',
        referrerId: 'cust_2',
        updatedAt: later,
        redemptionQuantity: 3,
      },
      { ...voucher, type: 'GIFT_VOUCHER', discount: null, gift: { amount: 100, subtractedAmount: 10, balance: 90, effect: 'APPLY_TO_ORDER' } },
      { ...voucher, type: 'GIFT_VOUCHER', discount: null, gift: { amount: 100, subtractedAmount: 0, balance: 100, effect: null } },
      {
        ...voucher,
        type: 'LOYALTY_CARD',
        discount: null,
        loyaltyCard: {
          points: 10,
          balance: 10,
          nextExpirationDate: '2026-03-31',
          nextExpirationPoints: 5,
          pendingPoints: 0,
          expiredPoints: 0,
          subtractedPoints: 0,
        },
      },
      {
        ...voucher,
        type: 'LOYALTY_CARD',
        discount: null,
        loyaltyCard: { points: 0, balance: 0, nextExpirationDate: null, nextExpirationPoints: null, pendingPoints: 0, expiredPoints: 0, subtractedPoints: 0 },
      },
    ];
    for (const v of vouchers) expectValid(replySchemas.Voucher, toVoucherReply(v));
  });

  it('accept async actions in every status', () => {
    expectValid(replySchemas.AsyncAction, toAsyncActionReply(action));
    expectValid(replySchemas.AsyncAction, toAsyncActionReply({ ...action, status: 'ENQUEUED', doneCount: 0 }));
    expectValid(replySchemas.AsyncAction, toAsyncActionReply({ ...action, status: 'DONE', doneCount: 10, finishedAt: later }));
    expectValid(replySchemas.AsyncAction, toAsyncActionReply({ ...action, status: 'FAILED', failure: 'code space full', finishedAt: later }));
  });

  it('accept bin pages with and without more entries', () => {
    const entry = {
      id: 'tbe_0000000000001234567890',
      createdAt: at,
      deletedByUserId: null,
      resourceId: 'v_1',
      resourceType: 'voucher' as const,
      resourceName: 'CODE',
      resourceParentId: 'camp_1',
      snapshot: {},
    };
    expectValid(replySchemas.BinEntryList, toBinListReply({ entries: [entry], hasMore: true }));
    expectValid(replySchemas.BinEntryList, toBinListReply({ entries: [], hasMore: false }));
  });

  it('accept campaign templates, rewards of each type and reward assignments', () => {
    expectValid(replySchemas.CampaignTemplate, toCampaignTemplateReply(template));
    expectValid(replySchemas.CampaignTemplate, toCampaignTemplateReply({ ...template, description: 'd' }));
    expectValid(replySchemas.CampaignTemplate, toCampaignTemplateReply({ ...template, updatedAt: at }));
    expectValid(replySchemas.CampaignTemplateList, toCampaignTemplateListReply({ templates: [template], hasMore: true, total: 3 }));
    expectValid(replySchemas.CampaignTemplateList, toCampaignTemplateListReply({ templates: [], hasMore: false, total: null }));
    for (const r of rewards) expectValid(replySchemas.Reward, toRewardReply(r));
    expectValid(
      replySchemas.RewardAssignment,
      toRewardAssignmentReply({ id: 'rewa_1', projectId: 'p1', rewardId: 'rew_1', campaignId: 'camp_1', points: 10, createdAt: at, updatedAt: null }),
    );
    expectValid(replySchemas.RewardList, toRewardListReply({ items: rewards, total: rewards.length + 1 }));
    expectValid(
      replySchemas.RewardAssignmentList,
      toRewardAssignmentListReply({
        items: [{ id: 'rewa_1', projectId: 'p1', rewardId: 'rew_1', campaignId: 'camp_1', points: 10, createdAt: at, updatedAt: at }],
        total: 1,
      }),
    );
  });

  it('accept customers with every optional field set or unset', () => {
    const bare: Customer = {
      id: 'cust_1',
      projectId: 'p1',
      sourceId: 's1',
      name: null,
      email: null,
      description: null,
      phone: null,
      birthdate: null,
      address: null,
      metadata: {},
      createdAt: at,
      updatedAt: null,
      revision: 0,
      listed: true,
    };
    expectValid(replySchemas.Customer, toCustomerReply(bare));
    expectValid(
      replySchemas.Customer,
      toCustomerReply({
        ...bare,
        name: 'Ann',
        email: 'a@b.c',
        description: 'd',
        phone: '1',
        birthdate: '1990-01-01',
        address: { city: 'c', state: 's', line1: 'l1', line2: 'l2', country: 'PL', postalCode: '00-001' },
        metadata: { a: 1 },
        updatedAt: later,
      }),
    );
    expectValid(replySchemas.CustomerList, toCustomerListReply({ customers: [bare, { ...bare, id: 'cust_2' }], total: 9, hasMore: true }));
    expectValid(replySchemas.CustomerList, toCustomerListReply({ customers: [], total: 0, hasMore: false }));
  });

  it('accept custom event schemas, tracked events and earning rules', () => {
    const schema = {
      id: 'ms_1',
      projectId: 'p1',
      name: 'signup',
      properties: { plan: { type: 'string' as const, optional: true, deleted: false }, old: { type: 'number' as const, optional: true, deleted: true } },
      createdAt: at,
      updatedAt: null,
    };
    expectValid(replySchemas.CustomEventSchema, toEventSchemaReply(schema));
    expectValid(replySchemas.CustomEventSchemaList, toEventSchemaListReply([schema, { ...schema, updatedAt: later }]));
    const customer = {
      id: 'cust_1',
      projectId: 'p1',
      sourceId: 's1',
      name: null,
      email: 'a@b.c',
      description: null,
      phone: null,
      birthdate: null,
      address: null,
      metadata: {},
      createdAt: at,
      updatedAt: null,
      revision: 0,
      listed: true,
    };
    const event = {
      id: 'evcus_1',
      projectId: 'p1',
      type: 'signup',
      customerId: 'cust_1',
      metadata: { plan: 'x' },
      referral: null,
      loyalty: null,
      idempotencyKey: null,
      createdAt: at,
    };
    expectValid(replySchemas.CustomEvent, toEventReply({ event, customer }));
    const rule = {
      id: 'ern_1',
      projectId: 'p1',
      campaignId: 'camp_1',
      event: 'signup',
      customEventSchemaId: 'ms_1',
      loyalty: { type: 'FIXED' as const, points: 10 },
      banner: null,
      active: true,
      startDate: null,
      expirationDate: null,
      expirationRules: null,
      metadata: {},
      createdAt: at,
      updatedAt: null,
    };
    expectValid(replySchemas.EarningRule, toEarningRuleReply(rule));
    expectValid(replySchemas.EarningRule, toEarningRuleReply({ ...rule, updatedAt: later }));
    expectValid(replySchemas.EarningRuleList, toEarningRuleListReply({ rules: [rule], total: 3 }));
    expectValid(
      replySchemas.EarningRule,
      toEarningRuleReply({ ...rule, banner: 'b', startDate: at, expirationDate: later, expirationRules: { periodType: 'MONTH', periodValue: 1 } }),
    );
  });

  it('accept exports in every status, loyalty balances and points-bucket pages', () => {
    expectValid(replySchemas.Export, toExportReply(exportRecord));
    expectValid(replySchemas.Export, toExportReply({ ...exportRecord, status: 'DONE' }, 'https://download.example.com/v1/exports/exp_abc?token=t'));
    expectValid(replySchemas.Export, toExportReply({ ...exportRecord, status: 'ERROR', failure: 'boom' }));
    expectValid(replySchemas.LoyaltyCardBalance, toBalanceReply({ voucherId: voucher.id, points: -5, total: 20, balance: 15 }));
    expectValid(replySchemas.LoyaltyPointsBucketList, toBucketPageReply({ buckets: [bucket, { ...bucket, expiresAt: null, updatedAt: later }], total: 2 }));
  });

  it('accept the error object the responder writes, and its opaque 500', () => {
    const logger = { error: () => undefined };
    for (const error of [new NotFoundError('voucher', 'CODE'), new ConflictRetryError('busy'), new Error('bug')]) {
      expectValid(replySchemas.Error, errorReply(error, 'v-req', logger).body);
    }
  });

  it('refuse a reply with a field its schema does not list', () => {
    expect(replySchemas.Voucher.safeParse({ ...toVoucherReply(voucher), surprise: 1 }).success).toBe(false);
    expect(replySchemas.Campaign.safeParse({ ...toCampaignReply(campaignBase), vouchers_count: 'three' }).success).toBe(false);
  });
});
