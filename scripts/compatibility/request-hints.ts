/**
 * What the request-side check needs to know beyond the reference's schemas, per operation: which
 * seeded resource an id names (`$seed.<name>`, made once by `request-seed.ts`; `$fresh.<name>`,
 * made for each request that uses it, for operations that use it up), which strings must differ per
 * request (names and codes are unique), which fields the reference's prose makes exclusive or
 * required, and which oneOf branch fields shared by all branches are tried in. Every entry here
 * shapes what is sent; none hides a refusal (refusals are documented in docs/decisions.md).
 */
import type { CaseHints } from './request-cases.js';

/**
 * A recurring window is a duration and an interval counted from a start date; a daily window a
 * start, an end and its days.
 */
/** An order.paid rule's item target: `object` and `id` go together (the reference: "required together"), in `applicable_to[]` too. */
function orderItemTargets(prefix: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const ratio of ['quantity', 'amount', 'subtotal_amount']) {
    for (const at of [`${prefix}${ratio}.`, `${prefix}${ratio}.applicable_to[].`]) {
      out[`${at}object`] = [`${at}id`];
      out[`${at}id`] = [`${at}object="product"`];
    }
  }
  return out;
}

function timeWindows(prefix: string): Record<string, string[]> {
  const daily = ['start_time', 'expiration_time', 'days_of_week'].map((f) => `${prefix}validity_hours.daily[].${f}`);
  return {
    [`${prefix}validity_timeframe.duration`]: [`${prefix}validity_timeframe.interval`, `${prefix}start_date`],
    [`${prefix}validity_timeframe.interval`]: [`${prefix}validity_timeframe.duration`, `${prefix}start_date`],
    ...Object.fromEntries(daily.map((f) => [f, daily.filter((other) => other !== f)])),
  };
}

/** A code pattern with room for many codes (the reference gives no example; `#` is a random character). */
function codePattern(prefix: string): Record<string, string> {
  return { [`${prefix}code_config.pattern`]: 'CMP-########' };
}

/** A FIXED_DAY_OF_YEAR rule names its month and day. */
function expirationRules(prefix: string): Record<string, string[]> {
  const fixed = [`${prefix}fixed_month`, `${prefix}fixed_day`];
  return {
    [`${prefix}period_type="FIXED_DAY_OF_YEAR"`]: fixed,
    [`${prefix}fixed_month`]: [`${prefix}period_type="FIXED_DAY_OF_YEAR"`, `${prefix}fixed_day`],
    [`${prefix}fixed_day`]: [`${prefix}period_type="FIXED_DAY_OF_YEAR"`, `${prefix}fixed_month`],
  };
}

/** The promotion_stack branch of a stacked request's redeemables names the seeded stack (its tiers have no use limit). */
const stackBranch = { 'object=promotion_stack': { 'body.redeemables[].id': '$seed.promotionStackId' } };

/** A project's time zone, currency and trusted domains are an IANA name, an ISO 4217 code and origins (the reference's examples: UTC, EUR). */
/** A webhook's target: a loopback receiver, which only the local runtime (where the check runs) accepts. */
const webhookValues = { 'body.target_url': 'http://127.0.0.1:9/compat' };
const projectValues = { 'body.timezone': 'UTC', 'body.currency': 'EUR', 'body.client_trusted_domains': ['https://shop.example'] };

/** For every operation: operators whose value the reference's prose fixes ("the value for this parameter is an empty string"). */
const common: CaseHints = { byName: { $has_value: [''], $is_unknown: [''] } };

/**
 * The order and customer of a validation or redemption (stacked or single-code): the seeded order and customers, each
 * named as a publication's customer is (by source id, or the id of an existing one), never both ways at once.
 */
const orderAndCustomer = {
  values: {
    'body.order.id': '$seed.orderId',
    'body.customer.id': '$seed.customerId',
    'body.order.customer.id': '$seed.customerId',
    'body.order.referrer_id': '$seed.referrerId',
    'body.order.referrer.id': '$seed.referrerId',
  },
  required: ['body.customer.source_id', 'body.order.customer.source_id', 'body.order.referrer.source_id'],
  exclusive: [
    ['body.order.source_id', 'body.order.id'],
    ['body.customer.source_id', 'body.customer.id'],
    ['body.order.customer.source_id', 'body.order.customer.id'],
    ['body.order.referrer.source_id', 'body.order.referrer.id'],
    ['body.order.referrer', 'body.order.referrer_id'],
  ],
} satisfies CaseHints;

const perOperation: Record<string, CaseHints> = {
  'generate-oauth-token': {},
  'introspect-oauth-token': { values: { 'body.access_token': '$seed.accessToken' } },
  'revoke-oauth-token': { values: { 'body.access_token': '$fresh.accessToken' } },
  'create-campaign': {
    // Campaigns of one project commit one at a time (the creation counter): more in flight only lose races and back off
    // (448 requests measured: 13 s with 2 in flight, 17 s with 8, 27 s with 16).
    concurrency: 2,
    unique: ['body.name'],
    values: {
      'body.category_id': '$seed.categoryId',
      'body.promotion.tiers[].category_id': '$seed.categoryId',
      'body.activity_duration_after_publishing': 'P24D',
      ...codePattern('body.voucher.'),
      'body.referral_program.custom_event.id': '$seed.eventSchemaId',
      'body.referral_program.custom_event.name': '$seed.eventName',
      'body.referral_program.referee_reward.related_object_parent.id': '$seed.loyaltyCampaignId',
      'body.referral_program.referee_reward.related_object_parent.name': '$seed.loyaltyCampaignName',
    },
    candidates: {
      'body.voucher.loyalty_card.expiration_rules.period_type': ['MONTH', 'FIXED_DAY_OF_YEAR'],
      // Custom event first: the program then names its event, which the together request keeps.
      'body.referral_program.conversion_event_type': ['custom_event', 'redemption'],
    },
    exclusive: [
      ['body.category_id', 'body.category'],
      ['body.promotion.tiers[].category_id', 'body.promotion.tiers[].category'],
    ],
    required: [
      // A campaign has a name (it is how it is found and unique); the code-making types describe their vouchers.
      'body.name',
      'body.voucher',
      'body.promotion',
      // A referee reward names what it gives and from which campaign.
      'body.referral_program.referee_reward.type',
      'body.referral_program.referee_reward.amount',
      'body.referral_program.referee_reward.related_object_parent',
      'body.referral_program.referee_reward.related_object_parent.id',
      // `period_value` is the number of months of a MONTH rule.
      'body.voucher.loyalty_card.expiration_rules.period_value',
    ],
    companions: {
      ...timeWindows('body.'),
      ...timeWindows('body.promotion.tiers[].'),
      ...expirationRules('body.voucher.loyalty_card.expiration_rules.'),
      'body.referral_program.conversion_event_type="custom_event"': ['body.referral_program.custom_event.id'],
      'body.referral_program.custom_event.id': ['body.referral_program.conversion_event_type="custom_event"'],
      'body.referral_program.custom_event.name': ['body.referral_program.conversion_event_type="custom_event"'],
      // A gift credit comes from a gift card campaign.
      'body.referral_program.referee_reward.type="GIFT_VOUCHER"': ['body.referral_program.referee_reward.related_object_parent.id="$seed.giftCampaignId"'],
    },
  },
  'list-campaigns': {},
  // POST /v1/campaigns's LOYALTY_PROGRAM body (the same service); the program type is the only one.
  'create-loyalty-program': {
    concurrency: 2,
    unique: ['body.name'],
    values: { 'body.category_id': '$seed.categoryId', 'body.activity_duration_after_publishing': 'P24D', ...codePattern('body.voucher.') },
    candidates: { 'body.voucher.loyalty_card.expiration_rules.period_type': ['MONTH', 'FIXED_DAY_OF_YEAR'] },
    exclusive: [['body.category_id', 'body.category']],
    required: ['body.name', 'body.voucher', 'body.voucher.loyalty_card.expiration_rules.period_value'],
    companions: { ...timeWindows('body.'), ...expirationRules('body.voucher.loyalty_card.expiration_rules.') },
  },
  'list-loyalty-programs': {},
  'get-loyalty-program': { path: { campaignId: '$seed.loyaltyCampaignId' } },
  // Each request changes or deletes a program of its own.
  'update-loyalty-program': {
    concurrency: 2,
    path: { campaignId: '$fresh.loyaltyCampaignId' },
    values: {
      'body.category_id': '$seed.categoryId',
      'body.activity_duration_after_publishing': 'P24D',
      // A duration and a rounding the reference's prose describes (its schema gives no example).
      'body.loyalty_tiers_expiration.expiration_date.extend': 'P3M',
      'body.loyalty_tiers_expiration.expiration_date.rounding.type': 'MONTH',
    },
    exclusive: [['body.category_id', 'body.category']],
    // The period a points-in-period or end-of-period setting counts in, and the month a CUSTOM rounding names.
    // A rounding means nothing without its type.
    required: ['body.loyalty_tiers_expiration.qualification_period', 'body.loyalty_tiers_expiration.expiration_date.rounding.type'],
    companions: {
      ...timeWindows('body.'),
      'body.loyalty_tiers_expiration.expiration_date.rounding.type="CUSTOM"': ['body.loyalty_tiers_expiration.expiration_date.rounding.value'],
    },
  },
  'delete-loyalty-program': { path: { campaignId: '$fresh.loyaltyCampaignId' } },
  'get-campaign': { path: { campaignId: '$seed.discountCampaignId' } },
  'get-campaign-summary': { path: { campaignId: '$seed.discountCampaignId' } },
  'add-vouchers-to-campaign': {
    path: { campaignId: '$seed.discountCampaignId' },
    unique: ['body.code'],
    values: codePattern('body.'),
    exclusive: [
      ['body.code', 'body.code_config'],
      ['body.category_id', 'body.category'],
    ],
  },
  'get-async-action': { path: { asyncActionId: '$seed.asyncActionId' } },
  'create-voucher': {
    path: { code: '$fresh.newVoucherCode' },
    values: { 'body.category_id': '$seed.categoryId' },
    // A voucher of a campaign is of the campaign's type: each branch names a campaign of its own type.
    variantValues: {
      'body: branch 1/3': { 'body.campaign_id': '$seed.loyaltyCampaignId', 'body.campaign': '$seed.loyaltyCampaignId' },
      'body: branch 2/3': { 'body.campaign_id': '$seed.giftCampaignId', 'body.campaign': '$seed.giftCampaignId' },
      'body: branch 3/3': { 'body.campaign_id': '$seed.discountCampaignId', 'body.campaign': '$seed.discountCampaignId' },
    },
    exclusive: [
      ['body.campaign_id', 'body.campaign'],
      ['body.category_id', 'body.category'],
    ],
    companions: timeWindows('body.'),
  },
  'generate-random-code': {
    unique: ['body.code'],
    values: { 'body.category_id': '$seed.categoryId', ...codePattern('body.') },
    variantValues: {
      'body: branch 1/3': { 'body.campaign_id': '$seed.loyaltyCampaignId', 'body.campaign': '$seed.loyaltyCampaignId' },
      'body: branch 2/3': { 'body.campaign_id': '$seed.giftCampaignId', 'body.campaign': '$seed.giftCampaignId' },
      'body: branch 3/3': { 'body.campaign_id': '$seed.discountCampaignId', 'body.campaign': '$seed.discountCampaignId' },
    },
    exclusive: [
      ['body.campaign_id', 'body.campaign'],
      ['body.category_id', 'body.category'],
      ['body.code', 'body.code_config'],
    ],
    companions: timeWindows('body.'),
  },
  'import-vouchers-to-campaign': {
    path: { campaignId: '$seed.discountCampaignId' },
    unique: ['body.[].code'],
    // An imported voucher is of its campaign's type: each branch goes to a campaign of that type.
    variantPath: {
      'body.[]: branch 1/3': { campaignId: '$seed.loyaltyCampaignId' },
      'body.[]: branch 2/3': { campaignId: '$seed.giftCampaignId' },
    },
    companions: timeWindows('body.[].'),
  },
  'import-vouchers': { unique: ['body.[].code'], companions: timeWindows('body.[].') },
  'add-voucher-with-specific-code-to-campaign': {
    path: { campaignId: '$seed.discountCampaignId', code: '$fresh.newVoucherCode' },
    values: { 'body.category_id': '$seed.categoryId' },
    exclusive: [['body.category_id', 'body.category']],
  },

  'get-voucher': { path: { code: '$seed.voucherCode' } },
  'get-voucher-redemptions': { path: { code: '$seed.voucherCode' } },
  // No hold is seeded yet (LOCK sessions come with POST /v1/validations): the release answers 404 for the session.
  'release-validation-session': { path: { code: '$seed.voucherCode', sessionKey: 'compat-session' } },
  'get-redemption': { path: { redemptionId: '$seed.redemptionId' } },
  'rollback-redemption': {
    path: { redemptionId: '$fresh.redemptionId' },
    values: { 'body.customer.id': '$seed.customerId' },
    required: ['body.customer.source_id'],
  },
  'rollback-stacked-redemptions': {
    path: { redemptionId: '$fresh.parentRedemptionId' },
    values: { 'body.customer.id': '$seed.customerId' },
    required: ['body.customer.source_id'],
  },
  'list-vouchers': {
    values: {
      'query.campaign_id': '$seed.discountCampaignId',
      'query.campaign': '$seed.loyaltyCampaignName',
      'query.customer': '$seed.customerId',
      'query.code': '$seed.voucherCode',
      'query.category': '$seed.categoryId',
    },
    // A campaign (by id or name), a holder or a category, one at a time: each is its own index.
    exclusive: [
      ['query.campaign_id', 'query.customer'],
      ['query.campaign', 'query.customer'],
      ['query.campaign_id', 'query.category'],
      ['query.campaign', 'query.category'],
      ['query.customer', 'query.category'],
    ],
  },
  'delete-voucher': { path: { code: '$fresh.voucherCode' } },
  'list-bin-entries': { values: { 'query.starting_after_id': '$seed.binEntryId' } },
  'create-campaign-template': {
    unique: ['body.name'],
    // One of the two names the source ("required when the other is not passed").
    required: ['body.campaign_id'],
    values: { 'body.campaign_id': '$seed.discountCampaignId', 'body.promotion_tier_id': '$seed.promotionTierId' },
    exclusive: [['body.campaign_id', 'body.promotion_tier_id']],
  },
  'create-reward': {
    unique: ['body.name'],
    required: ['body.name'],
    // The ratios are typed as strings; they hold numbers (points per currency unit).
    values: { 'body.parameters.coin.exchange_ratio': '0.5', 'body.parameters.coin.points_ratio': '10' },
    // The digital reward's branches are a loyalty program's points, a gift card's credits and a discount coupon.
    variantValues: {
      'body.parameters.campaign: branch 1/3': { 'body.parameters.campaign.id': '$seed.loyaltyCampaignId' },
      'body.parameters.campaign: branch 2/3': { 'body.parameters.campaign.id': '$seed.giftCampaignId' },
      'body.parameters.campaign: branch 3/3': { 'body.parameters.campaign.id': '$seed.discountCampaignId' },
    },
  },
  'get-reward': { path: { rewardId: '$seed.rewardId' } },
  'list-rewards': { values: { 'query.assignment_id': '$seed.assignmentId' } },
  'update-reward': {
    // Each branch updates a reward of its own type: digital (a gift card reward), material, pay with points.
    path: { rewardId: '$fresh.rewardId' },
    variantPath: { 'body: branch 2/3': { rewardId: '$fresh.materialRewardId' }, 'body: branch 3/3': { rewardId: '$fresh.coinRewardId' } },
    values: { 'body.parameters.coin.exchange_ratio': '0.5', 'body.parameters.coin.points_ratio': '10' },
    variantValues: {
      'body.parameters.campaign: branch 1/3': { 'body.parameters.campaign.id': '$seed.loyaltyCampaignId' },
      'body.parameters.campaign: branch 2/3': { 'body.parameters.campaign.id': '$seed.giftCampaignId' },
      'body.parameters.campaign: branch 3/3': { 'body.parameters.campaign.id': '$seed.discountCampaignId' },
    },
  },
  'delete-reward': { path: { rewardId: '$fresh.coinRewardId' } },
  'list-reward-assignments': { path: { rewardId: '$seed.rewardId' } },
  'get-reward-assignment': { path: { rewardId: '$seed.rewardId', assignmentId: '$seed.assignmentId' } },
  'update-reward-assignment': { path: { rewardId: '$seed.rewardId', assignmentId: '$seed.assignmentId' } },
  'delete-reward-assignment': { path: { rewardId: '$seed.rewardId', assignmentId: '$fresh.rewardAssignmentId' } },
  'list-reward-assignments-2': { path: { campaignId: '$seed.loyaltyCampaignId' }, values: { 'query.assignment_id': '$seed.assignmentId' } },
  'create-reward-assignment-1': {
    path: { campaignId: '$seed.loyaltyCampaignId' },
    values: { 'body.[].reward': '$fresh.rewardId' },
    variantValues: { 'body.[]: branch 2/2': { 'body.[].reward': '$fresh.coinRewardId' } },
    required: ['body.[].parameters.loyalty.points'],
  },
  'list-reward-assignments-1': { path: { campaignId: '$seed.loyaltyCampaignId' }, values: { 'query.assignmentId': '$seed.assignmentId' } },
  'get-reward-assignment-1': { path: { campaignId: '$seed.loyaltyCampaignId', assignmentId: '$seed.assignmentId' } },
  'get-reward-details': { path: { campaignId: '$seed.loyaltyCampaignId', assignmentId: '$seed.assignmentId' } },
  'get-reward-assignment-2': { path: { campaignId: '$seed.loyaltyCampaignId', assignmentId: '$seed.assignmentId' } },
  'update-reward-assignment-1': { path: { campaignId: '$seed.loyaltyCampaignId', assignmentId: '$seed.assignmentId' } },
  'delete-reward-assignment-1': { path: { campaignId: '$seed.loyaltyCampaignId', assignmentId: '$fresh.assignmentId' } },
  'create-custom-event-schema': { unique: ['body.name'] },
  'list-custom-event-schemas': {},
  'get-custom-event-schema': { path: { schemaId: '$seed.eventSchemaId' } },
  'create-category': { unique: ['body.name'] },
  'list-categories': {},
  'get-category': { path: { categoryId: '$seed.categoryId' } },
  'get-validation-rule': { path: { validationRuleId: '$seed.validationRuleId' } },
  'update-validation-rule': { path: { validationRuleId: '$seed.validationRuleId' } },
  'delete-validation-rules': { path: { validationRuleId: '$fresh.validationRuleId' } },
  // A new rule per request: the same rule twice on one object is a 409.
  'create-validation-rule-assignment': {
    path: { validationRuleId: '$fresh.validationRuleId' },
    values: { 'body.related_object_id': '$seed.discountCampaignId' },
    required: ['body.related_object_id'],
  },
  'list-validation-rule-assignments': { path: { validationRuleId: '$seed.validationRuleId' } },
  'delete-validation-rule-assignment': { path: { validationRuleId: '$seed.validationRuleId', assignmentId: '$fresh.validationRuleAssignmentId' } },
  'list-validation-rules-assignments': { values: { 'query.rule': '$seed.validationRuleId', 'query.related_object_id': '$seed.discountCampaignId' } },
  'update-category': { path: { categoryId: '$seed.categoryId' }, unique: ['body.name'] },
  'delete-category': { path: { categoryId: '$fresh.categoryId' } },
  'get-project': { path: { projectId: '$seed.projectId' } },
  'update-project': { path: { projectId: '$seed.projectId' }, values: projectValues },
  'create-project': { values: projectValues },
  'delete-project': { path: { projectId: '$fresh.projectId' } },
  'create-metadata-schema': { path: { projectId: '$seed.projectId' }, unique: ['body.related_object'] },
  'list-metadata-schemas-1': { path: { projectId: '$seed.projectId' } },
  'get-metadata-schema-1': { path: { projectId: '$seed.projectId', metadataSchemaId: '$seed.metadataSchemaId' } },
  // One request at a time: each may change the seeded property's type, which decides the next one's refusal message.
  'update-metadata-schema': { concurrency: 1, path: { projectId: '$seed.projectId', metadataSchemaId: '$seed.metadataSchemaId' } },
  'delete-metadata-schema': { path: { projectId: '$seed.projectId', metadataSchemaId: '$fresh.metadataSchemaId' } },
  'list-metadata-schemas': {},
  'get-metadata-schema': { path: { resource: '$seed.metadataSchemaResource' } },
  // Management API beyond projects (issue 40): the managed project's brand and users. A project has one brand, so a
  // create needs a fresh project; an assignment, a user of another project.
  'create-brand': { path: { projectId: '$fresh.projectId' } },
  'list-brands': { path: { projectId: '$seed.projectId' } },
  'get-brand': { path: { projectId: '$seed.projectId', brandingId: '$seed.brandingId' } },
  'update-brand': { path: { projectId: '$seed.projectId', brandingId: '$seed.brandingId' } },
  'list-users': { path: { projectId: '$seed.projectId' } },
  'get-user': { path: { projectId: '$seed.projectId', userId: '$seed.userId' } },
  'update-user': { path: { projectId: '$seed.projectId', userId: '$seed.userId' }, values: { 'body.role': 'VIEWER' } },
  'unassign-user': { path: { projectId: '$seed.projectId', userId: '$fresh.userId' } },
  'assign-user': {
    path: { projectId: '$seed.projectId' },
    values: { 'body.login': '$fresh.userLogin', 'body.role': 'USER' },
    exclusive: [['body.id', 'body.login']],
    required: ['body.login'],
  },
  'management-list-campaign-templates': { path: { projectId: '$seed.devProjectId' }, values: { 'query.starting_after_id': '$seed.campaignTemplateId' } },
  // The dev project (the key pair's) holds the seeded template and event schema; management reaches it by id.
  'management-copy-campaign-template': {
    path: { projectId: '$seed.devProjectId', campaignTemplateId: '$seed.campaignTemplateId' },
    values: { 'body.destination_project_id': '$seed.projectId' },
    unique: ['body.name'],
  },
  'update-custom-event-schema': { path: { projectId: '$seed.devProjectId', customEventSchemaId: '$seed.eventSchemaId' } },
  'delete-custom-event-schema': { path: { projectId: '$seed.devProjectId', customEventSchemaId: '$fresh.eventSchemaId' } },
  // A project has one brand: each delete gets a brand made afresh in a project of its own.
  'delete-brand': { path: { projectId: '$seed.brandProjectId', brandingId: '$fresh.brandProjectBrandingId' } },
  'create-webhook': { path: { projectId: '$seed.projectId' }, values: webhookValues },
  'list-webhooks': { path: { projectId: '$seed.projectId' } },
  'get-webhook': { path: { projectId: '$seed.projectId', webhookId: '$seed.webhookId' } },
  'update-webhook': { path: { projectId: '$seed.projectId', webhookId: '$seed.webhookId' }, values: webhookValues },
  'delete-webhook': { path: { projectId: '$seed.projectId', webhookId: '$fresh.webhookId' } },
  // Management API stacking rules (issue 40): one set per project, so a create needs a fresh project, and each delete a
  // set made afresh in a project of its own.
  'create-stacking-rules': { path: { projectId: '$fresh.projectId' } },
  'list-stacking-rules': { path: { projectId: '$seed.projectId' } },
  'get-stacking-rules': { path: { projectId: '$seed.projectId', stackingRulesId: '$seed.stackingRulesId' } },
  // One request at a time, in the check's order: what an earlier request stored (one category in the skip list) decides
  // whether a later one (the same category redeemed anyway) is refused, so in parallel the outcome depended on timing.
  'update-stacking-rules': { concurrency: 1, path: { projectId: '$seed.projectId', stackingRulesId: '$seed.stackingRulesId' } },
  'delete-stacking-rules': { path: { projectId: '$seed.stackingRulesProjectId', stackingRulesId: '$fresh.stackingRulesProjectStackingRulesId' } },
  'list-customers': {
    // One of email, city and name at a time; date bounds of the order's own field.
    exclusive: [
      ['query.email', 'query.city', 'query.name', 'query.segment_id'],
      ['query.created_at[before]', 'query.updated_at[before]'],
      ['query.created_at[after]', 'query.updated_at[after]'],
    ],
    companions: { 'query.updated_at[before]': ['query.order="updated_at"'], 'query.updated_at[after]': ['query.order="updated_at"'] },
  },
  'create-customer': {
    unique: ['body.source_id'],
    values: { 'body.id': '$seed.customerId' },
    // A customer is found again by its source id (or named by its id).
    required: ['body.source_id'],
    exclusive: [['body.source_id', 'body.id']],
  },
  'get-customer': { path: { customerId: '$seed.customerId' } },
  'list-products': {},
  // An id names the seeded product (updated in place); a new source id each time makes a product.
  'create-product': { unique: ['body.source_id'], values: { 'body.id': '$seed.productId' } },
  'get-product': { path: { productId: '$seed.productId' } },
  'update-product': { path: { productId: '$seed.productId' } },
  'delete-product': { path: { productId: '$fresh.productId' } },
  'get-sku': { path: { skuId: '$seed.skuId' } },
  'list-SKUs-in-product': { path: { productId: '$seed.productId' } },
  'create-sku': { path: { productId: '$seed.productId' }, unique: ['body.source_id'], values: { 'body.id': '$seed.skuId' } },
  'update-sku': { path: { productId: '$seed.productId', skuId: '$seed.skuId' } },
  'delete-sku': { path: { productId: '$seed.productId', skuId: '$fresh.skuId' } },
  'list-product-collections': {},
  // A STATIC collection's entries name the seeded product.
  'create-product-collection': { values: { 'body.products[].id': '$seed.productId', 'body.products[].object': 'product' } },
  'get-product-collection': { path: { productCollectionId: '$seed.productCollectionId' } },
  // The seeded AUTO_UPDATE collection: a filter is its to change.
  'put-product-collection': { path: { productCollectionId: '$seed.autoCollectionId' } },
  'delete-product-collection': { path: { productCollectionId: '$fresh.productCollectionId' } },
  'list-products-in-collection': { path: { productCollectionId: '$seed.productCollectionId' } },
  'update-customer': { path: { customerId: '$seed.customerId' } },
  'list-customer-segments': { path: { customerId: '$seed.customerId' } },
  'get-segment': { path: { segmentId: '$seed.segmentId' } },
  'get-location': { path: { locationId: '$seed.locationId' } },
  'delete-segment': { path: { segmentId: '$fresh.segmentId' } },
  'delete-bin-entry': { path: { binEntryId: '$fresh.binEntryId' } },
  'list-segment': {},
  // A static segment of the seeded customer; the reference's dynamic body gets a filter this service evaluates.
  'create-segment': { required: ['body.name'], values: { 'body.customers[]': '$seed.customerId' } },
  'delete-customer': { path: { customerId: '$fresh.customerId' } },
  // Erases the customer it names: a fresh one, so the seeded customer stays for the other operations.
  'customer-permanently-deletion': { path: { customerId: '$fresh.customerId' } },
  'create-order': {
    unique: ['body.source_id'],
    values: {
      'body.id': '$seed.orderId',
      'body.customer.id': '$seed.customerId',
      'body.referrer_id': '$seed.referrerId',
      'body.referrer.id': '$seed.referrerId',
    },
    // An order is found again by its id, or by its source id; its customer and referrer are named as a publication's customer is.
    required: ['body.customer.source_id', 'body.referrer.source_id'],
    exclusive: [
      ['body.source_id', 'body.id'],
      ['body.customer.source_id', 'body.customer.id'],
      ['body.referrer.source_id', 'body.referrer.id'],
      ['body.referrer', 'body.referrer_id'],
    ],
  },
  'validate-voucher': {
    path: { code: '$seed.voucherCode' },
    ...orderAndCustomer,
  },
  'validate-promotion-tier': {
    path: { promotionTierId: '$seed.promotionTierId' },
    ...orderAndCustomer,
  },
  'validate-stacked-discounts': {
    ...orderAndCustomer,
    values: { ...orderAndCustomer.values, 'body.redeemables[].id': '$seed.voucherCode' },
    variantValues: stackBranch,
  },
  // The customer and order of a validation, with no redeemables: qualification finds them.
  'check-eligibility': orderAndCustomer,
  // The legacy qualification of promotion tiers: the same customer and order.
  'validate-promotions': orderAndCustomer,
  // As a validation, on a fresh voucher each time (a redemption takes a use); the customer is upserted.
  'redeem-stacked-discounts': {
    ...orderAndCustomer,
    values: { ...orderAndCustomer.values, 'body.redeemables[].id': '$fresh.voucherCode' },
    variantValues: stackBranch,
  },
  // Each redemption uses a code of its own, as redeem-stacked-discounts does; the seeded tier has no limit.
  // The client-side calls take the server's bodies (the reference's client schemas are the server's): the same hints.
  'validate-stacked-discounts-client-side': {
    ...orderAndCustomer,
    values: { ...orderAndCustomer.values, 'body.redeemables[].id': '$seed.voucherCode' },
    variantValues: stackBranch,
  },
  'check-eligibility-client-side': orderAndCustomer,
  'redeem-stacked-discounts-client-side': {
    ...orderAndCustomer,
    values: { ...orderAndCustomer.values, 'body.redeemables[].id': '$fresh.voucherCode' },
    variantValues: stackBranch,
  },
  'redeem-voucher': {
    path: { code: '$fresh.voucherCode' },
    ...orderAndCustomer,
  },
  // The client-side single-code calls name their code in the query.
  'validate-voucher-client-side': { values: { 'query.code': '$seed.voucherCode' }, required: ['query.code'] },
  'redeem-voucher-client-side': {
    ...orderAndCustomer,
    values: { ...orderAndCustomer.values, 'query.code': '$fresh.voucherCode' },
    required: [...orderAndCustomer.required, 'query.code'],
  },
  'redeem-promotion': {
    path: { promotionTierId: '$seed.promotionTierId' },
    ...orderAndCustomer,
  },
  'get-order': { path: { orderId: '$seed.orderId' } },
  'update-order': {
    path: { orderId: '$seed.orderId' },
    values: {
      'body.source_id': 'compat-order',
      'body.customer.id': '$seed.customerId',
      'body.referrer_id': '$seed.referrerId',
      'body.referrer.id': '$seed.referrerId',
    },
    required: ['body.customer.source_id', 'body.referrer.source_id'],
    exclusive: [
      ['body.customer.source_id', 'body.customer.id'],
      ['body.referrer.source_id', 'body.referrer.id'],
      ['body.referrer', 'body.referrer_id'],
    ],
  },
  'track-custom-event': {
    values: {
      'body.event': '$seed.eventName',
      'body.customer.id': '$seed.customerId',
      'body.referral.code': '$seed.referralCode',
      'body.referral.referrer_id': '$seed.referrerId',
      'body.loyalty.code': '$seed.loyaltyCardCode',
    },
    unique: ['body.customer.source_id'],
    exclusive: [['body.customer.source_id', 'body.customer.id']],
    // The customer is named by `source_id` (or `id`); our referral codes have no holder until publications exist, so the referrer is named.
    required: ['body.customer.source_id', 'body.referral.referrer_id'],
  },
  'create-reward-assignment': {
    path: { rewardId: '$fresh.rewardId' },
    // The second branch assigns a pay-with-points (coin) reward.
    variantPath: { 'body: branch 2/2': { rewardId: '$fresh.coinRewardId' } },
    values: { 'body.campaign': '$seed.loyaltyCampaignId' },
    required: ['body.parameters.loyalty.points'],
  },
  'update-loyalty-card-balance': {
    path: { memberId: '$seed.loyaltyCardCode' },
    companions: { 'body.expiration_type="CUSTOM_DATE"': ['body.expiration_date'] },
  },
  'update-loyalty-card-balance-1': {
    path: { campaignId: '$seed.loyaltyCampaignId', memberId: '$seed.loyaltyCardCode' },
    companions: { 'body.expiration_type="CUSTOM_DATE"': ['body.expiration_date'] },
  },
  // A card of the seeded holder takes points from the holder's other card (each request a few of its 1,000).
  'transfer-points': {
    path: { campaignId: '$seed.transferCampaignId', memberId: '$seed.transferTargetCode' },
    values: { 'body.[].code': '$seed.transferSourceCode' },
  },
  'list-points-expiration': { path: { campaignId: '$seed.loyaltyCampaignId', memberId: '$seed.loyaltyCardCode' } },
  'list-campaign-pending-points': { path: { campaignId: '$seed.pendingCampaignId' } },
  'list-member-pending-points': { path: { memberId: '$seed.pendingCardCode' } },
  'list-member-pending-points-1': { path: { campaignId: '$seed.pendingCampaignId', memberId: '$seed.pendingCardCode' } },
  // Each request its own PENDING entry (an activated or cancelled one is refused a second time).
  'activate-member-pending-points': { path: { memberId: '$seed.pendingCardCode', pendingPointsId: '$fresh.pendingPointsId' } },
  'cancel-member-pending-points': { path: { memberId: '$seed.pendingCardCode', pendingPointsId: '$fresh.pendingPointsId' } },
  // An entry holds 5 points: an addition keeps it above 0 (a removal of 5 or more is the reference's invalid_amount).
  'adjust-member-pending-points': {
    path: { memberId: '$seed.pendingCardCode', pendingPointsId: '$fresh.pendingPointsId' },
    values: { 'body.points': 10 },
  },
  'add-member': {
    path: { campaignId: '$seed.loyaltyCampaignId' },
    // Each join is a new customer (a program is join-once) and names a card not given yet.
    values: { 'body.voucher': '$fresh.loyaltyCardCode', 'body.customer.id': '$fresh.customerId' },
    unique: ['body.source_id', 'body.customer.source_id'],
    required: ['body.customer.source_id'],
    exclusive: [['body.customer.source_id', 'body.customer.id']],
    // One at a time: a join without a code picks an unpublished card of the program, which could be the one a concurrent request names.
    concurrency: 1,
  },
  'get-member': { path: { memberId: '$seed.loyaltyCardCode' } },
  'get-member-1': { path: { campaignId: '$seed.loyaltyCampaignId', memberId: '$seed.loyaltyCardCode' } },
  'list-members': {
    path: { campaignId: '$seed.loyaltyCampaignId' },
    values: { 'query.customer': '$seed.customerId', 'query.code': '$seed.loyaltyCardCode' },
    // The customer's card is read by key; code and ids name cards by key too: one way at a time.
    exclusive: [
      ['query.customer', 'query.code'],
      ['query.customer', 'query.ids'],
    ],
  },
  'list-loyalty-card-transactions': {
    path: { memberId: '$seed.loyaltyCardCode' },
    values: { 'query.starting_after_id': '$seed.loyaltyCardTransactionId' },
  },
  'list-loyalty-card-transactions-1': {
    path: { campaignId: '$seed.loyaltyCampaignId', memberId: '$seed.loyaltyCardCode' },
    values: { 'query.starting_after_id': '$seed.loyaltyCardTransactionId' },
  },
  'list-loyalty-campaign-transactions': {
    path: { campaignId: '$seed.loyaltyCampaignId' },
    values: { 'query.starting_after_id': '$seed.loyaltyCardTransactionId' },
  },
  'redeem-reward-1': {
    path: { campaignId: '$seed.loyaltyCampaignId', memberId: '$seed.loyaltyCardCode' },
    values: { ...orderAndCustomer.values, 'body.reward.id': '$seed.loyaltyRewardId' },
    required: ['body.reward.id'],
    exclusive: orderAndCustomer.exclusive,
  },
  'redeem-reward': {
    path: { memberId: '$seed.loyaltyCardCode' },
    values: { ...orderAndCustomer.values, 'body.reward.id': '$seed.loyaltyRewardId' },
    required: ['body.reward.id'],
    exclusive: orderAndCustomer.exclusive,
  },
  'list-member-rewards': { path: { memberId: '$seed.loyaltyCardCode' } },
  // Each request adds tiers to a program of its own: the seeded one's ranges would overlap, and a program holds 20 at most.
  'create-in-bulk-loyalty-tiers': { path: { campaignId: '$fresh.loyaltyCampaignId' } },
  'list-loyalty-tiers': { path: { campaignId: '$seed.loyaltyCampaignId' } },
  'get-loyalty-tier': { path: { campaignId: '$seed.loyaltyCampaignId', loyaltyTierId: '$seed.loyaltyTierId' } },
  'list-member-loyalty-tier': { path: { memberId: '$seed.loyaltyCardCode' } },
  'list-loyalty-tier-earning-rules': { path: { campaignId: '$seed.loyaltyCampaignId', loyaltyTierId: '$seed.loyaltyTierId' } },
  'list-loyalty-tier-rewards': { path: { campaignId: '$seed.loyaltyCampaignId', loyaltyTierId: '$seed.loyaltyTierId' } },
  'estimate-points': { path: { campaignId: '$seed.loyaltyCampaignId' }, values: { 'body.customer.id': '$seed.customerId', 'body.order.id': '$seed.orderId' } },
  'create-earning-rule': {
    path: { campaignId: '$seed.loyaltyCampaignId' },
    values: { 'body.[].custom_event.schema_id': '$seed.eventSchemaId' },
    // Fields every rule shares are tried on the custom event rule (branch 3), the kind this service runs.
    branches: { 'body.[]#0': 2 },
    required: ['body.[].event', 'body.[].loyalty', 'body.[].expiration_rules.period_value'],
    candidates: { 'body.[].expiration_rules.period_type': ['MONTH', 'FIXED_DAY_OF_YEAR'] },
    // The custom event rule names an event that has a schema (the other rules name theirs by enum).
    variantValues: { 'body.[]: branch 3/4': { 'body.[].event': '$seed.eventName' } },
    companions: { ...timeWindows('body.[].'), ...expirationRules('body.[].expiration_rules.'), ...orderItemTargets('body.[].loyalty.order_items.') },
  },
  'list-earning-rules': { path: { campaignId: '$seed.loyaltyCampaignId' } },
  'get-earning-rule': { path: { campaignId: '$seed.loyaltyCampaignId', earningRuleId: '$seed.earningRuleId' } },
  'update-earning-rule': {
    path: { campaignId: '$seed.loyaltyCampaignId', earningRuleId: '$fresh.earningRuleId' },
    companions: { ...timeWindows('body.'), ...expirationRules('body.expiration_rules.') },
    required: ['body.expiration_rules.period_value'],
    candidates: { 'body.expiration_rules.period_type': ['MONTH', 'FIXED_DAY_OF_YEAR'] },
  },
  'delete-earning-rule': { path: { campaignId: '$seed.loyaltyCampaignId', earningRuleId: '$fresh.earningRuleId' } },
  'enable-earning-rule': { path: { campaignId: '$seed.loyaltyCampaignId', earningRuleId: '$seed.earningRuleId' } },
  'disable-earning-rule': { path: { campaignId: '$seed.loyaltyCampaignId', earningRuleId: '$fresh.earningRuleId' } },
  'create-points-expiration-export': {
    path: { campaignId: '$seed.loyaltyCampaignId' },
    values: {
      'body.parameters.filters.voucher_id.conditions.$is': '$seed.loyaltyCardId',
      'body.parameters.filters.voucher_id.conditions.$is_not': '$seed.loyaltyCardId',
      'body.parameters.filters.campaign_id.conditions.$is': '$seed.loyaltyCampaignId',
      'body.parameters.filters.campaign_id.conditions.$is_not': '$seed.loyaltyCampaignId',
    },
    candidates: {
      'body.parameters.filters.voucher_id.conditions.$in': [['$seed.loyaltyCardId'], []],
      'body.parameters.filters.voucher_id.conditions.$not_in': [['$seed.loyaltyCardId'], []],
      'body.parameters.filters.campaign_id.conditions.$in': [['$seed.loyaltyCampaignId'], []],
      'body.parameters.filters.campaign_id.conditions.$not_in': [['$seed.loyaltyCampaignId'], []],
    },
  },
  'enable-campaign': { path: { campaignId: '$fresh.discountCampaignId' } },
  'disable-campaign': { path: { campaignId: '$fresh.discountCampaignId' } },
  'delete-campaign': { path: { campaignId: '$fresh.discountCampaignId' } },
  'update-campaign': {
    // Each request changes a campaign of its own, of the type its body is for (the reference's five bodies, in its order).
    concurrency: 2,
    path: { campaignId: '$fresh.discountCampaignId' },
    variantPath: {
      'body: branch 2/5': { campaignId: '$fresh.referralCampaignId' },
      'body: branch 3/5': { campaignId: '$fresh.giftCampaignId' },
      'body: branch 4/5': { campaignId: '$fresh.loyaltyCampaignId' },
      'body: branch 5/5': { campaignId: '$fresh.promotionCampaignId' },
    },
    values: {
      'body.category_id': '$seed.categoryId',
      'body.activity_duration_after_publishing': 'P24D',
      'body.referral_program.custom_event.id': '$seed.eventSchemaId',
      'body.referral_program.custom_event.name': '$seed.eventName',
      'body.referral_program.referee_reward.related_object_parent.id': '$seed.loyaltyCampaignId',
      'body.referral_program.referee_reward.related_object_parent.name': '$seed.loyaltyCampaignName',
    },
    candidates: { 'body.referral_program.conversion_event_type': ['custom_event', 'redemption'] },
    exclusive: [['body.category_id', 'body.category']],
    required: [
      'body.referral_program.referee_reward.type',
      'body.referral_program.referee_reward.amount',
      'body.referral_program.referee_reward.related_object_parent',
      'body.referral_program.referee_reward.related_object_parent.id',
    ],
    companions: {
      ...timeWindows('body.'),
      'body.referral_program.conversion_event_type="custom_event"': ['body.referral_program.custom_event.id'],
      'body.referral_program.custom_event.id': ['body.referral_program.conversion_event_type="custom_event"'],
      'body.referral_program.custom_event.name': ['body.referral_program.conversion_event_type="custom_event"'],
      'body.referral_program.referee_reward.type="GIFT_VOUCHER"': ['body.referral_program.referee_reward.related_object_parent.id="$seed.giftCampaignId"'],
    },
  },
  'update-voucher': {
    path: { code: '$seed.voucherCode' },
    values: { 'body.category_id': '$seed.categoryId' },
    exclusive: [['body.category_id', 'body.category']],
    companions: timeWindows('body.'),
  },
  'enable-voucher': { path: { code: '$seed.voucherCode' } },
  'disable-voucher': { path: { code: '$fresh.voucherCode' } },
  'update-voucher-balance': { path: { code: '$seed.giftCardCode' } },
  'list-voucher-transactions': { path: { code: '$seed.giftCardCode' }, values: { 'query.starting_after_id': '$seed.giftCardTransactionId' } },
  'list-campaign-templates': { values: { 'query.starting_after_id': '$seed.campaignTemplateId' } },
  'get-campaign-template': { path: { campaignTemplateId: '$seed.campaignTemplateId' } },
  'update-campaign-template': { path: { campaignTemplateId: '$seed.campaignTemplateId' }, unique: ['body.name'] },
  'delete-campaign-template': { path: { campaignTemplateId: '$fresh.campaignTemplateId' } },
  'create-campaign-from-template': {
    path: { campaignTemplateId: '$seed.campaignTemplateId' },
    unique: ['body.name'],
    values: { 'body.category_id': '$seed.categoryId', 'body.activity_duration_after_publishing': 'P24D' },
    exclusive: [['body.category_id', 'body.category']],
    companions: timeWindows('body.'),
  },
  'add-tier-from-template': {
    // Every request adds a tier to the one seeded promotion, whose tiers change one write at a time.
    concurrency: 1,
    path: { campaignTemplateId: '$seed.tierTemplateId' },
    values: { 'body.campaign_id': '$seed.promotionCampaignId', 'body.category_id': '$seed.categoryId' },
    exclusive: [['body.category_id', 'body.category']],
    companions: timeWindows('body.'),
  },
  'list-promotion-tiers-from-campaign': { path: { campaignId: '$seed.promotionCampaignId' } },
  // Each request adds a tier to a promotion of its own (the seeded one stays as it is).
  'add-promotion-tier-to-campaign': {
    path: { campaignId: '$fresh.promotionCampaignId' },
    values: { 'body.category_id': '$seed.categoryId' },
    exclusive: [['body.category_id', 'body.category']],
    companions: timeWindows('body.'),
  },
  'get-promotion-tier': { path: { promotionTierId: '$seed.promotionTierId' } },
  'update-promotion-tier': {
    path: { promotionTierId: '$fresh.promotionTierId' },
    values: { 'body.category_id': '$seed.categoryId' },
    exclusive: [['body.category_id', 'body.category']],
    companions: timeWindows('body.'),
  },
  'delete-promotion-tier': { path: { promotionTierId: '$fresh.promotionTierId' } },
  'enable-promotion-tier': { path: { promotionTierId: '$fresh.promotionTierId' } },
  'disable-promotion-tier': { path: { promotionTierId: '$fresh.promotionTierId' } },
  'list-publications': {},
  'create-publication': {
    values: {
      'body.voucher': '$fresh.voucherCode',
      'body.campaign.name': '$seed.publishingCampaignName',
      'body.customer.id': '$seed.customerId',
    },
    unique: ['body.source_id', 'body.customer.source_id'],
    // The customer is named by `source_id` (upserted) or by the `id` of an existing one.
    required: ['body.customer.source_id'],
    exclusive: [['body.customer.source_id', 'body.customer.id']],
  },
  'create-publication-1': {
    values: { 'query.voucher': '$fresh.voucherCode', 'query.campaign.name': '$seed.publishingCampaignName', 'query.customer.id': '$seed.customerId' },
    unique: ['query.source_id', 'query.customer.source_id'],
    // What to publish (a voucher or a campaign's) and to whom, as in the POST form.
    required: ['query.voucher', 'query.customer', 'query.customer.source_id'],
    exclusive: [
      ['query.voucher', 'query.campaign'],
      ['query.customer.source_id', 'query.customer.id'],
    ],
  },
  'create-export': {
    // Each filter operator's operand is "Any" (string, date, date-time, number or object) in the reference: try its first kind only.
    fixedBranches: ['.conditions.'],
    values: {
      // A points_expiration export reads the one loyalty campaign its campaign_id filter names.
      'body.parameters.filters.campaign_id.conditions.$is': '$seed.loyaltyCampaignId',
      'body.parameters.filters.voucher_id.conditions.$is': '$seed.loyaltyCardId',
      'body.parameters.campaign_id': '$seed.loyaltyCampaignId',
    },
  },
  // The specific export doors: each operator's "Any" operand tried in its first kind only, as on create-export.
  'create-order-export': { fixedBranches: ['.conditions.'] },
  'export-voucher-transactions': { path: { code: '$seed.giftCardCode' } },
  'export-campaign-transactions': { path: { campaignId: '$seed.giftCampaignId' }, fixedBranches: ['.conditions.'] },
  'export-loyalty-campaign-transactions': { path: { campaignId: '$seed.loyaltyCampaignId' }, fixedBranches: ['.conditions.'] },
  'export-loyalty-card-transactions': { path: { memberId: '$seed.loyaltyCardCode' }, fixedBranches: ['.conditions.'] },
  'export-loyalty-card-transactions-1': {
    path: { campaignId: '$seed.loyaltyCampaignId', memberId: '$seed.loyaltyCardCode' },
    fixedBranches: ['.conditions.'],
  },
  'list-campaign-transactions': {
    path: { campaignId: '$seed.giftCampaignId' },
    values: { 'query.starting_after_id': '$seed.giftCardTransactionId' },
  },
  // Promotion stacks (issue 38): the seeded promotion's stack; its tier and the seeded category in bodies; a fresh stack to delete.
  'list-promotion-stacks-in-campaign': { path: { campaignId: '$seed.promotionCampaignId' } },
  'create-promotion-stack': {
    path: { campaignId: '$seed.promotionCampaignId' },
    values: { 'body.tiers.ids[]': '$seed.promotionTierId', 'body.category_id': '$seed.categoryId' },
  },
  'get-promotion-stack': { path: { campaignId: '$seed.promotionCampaignId', stackId: '$seed.promotionStackId' } },
  'update-promotion-stack': {
    path: { campaignId: '$seed.promotionCampaignId', stackId: '$seed.promotionStackId' },
    values: { 'body.tiers.ids[]': '$seed.promotionTierId', 'body.category_id': '$seed.categoryId' },
  },
  'delete-promotion-stack': { path: { campaignId: '$seed.promotionCampaignId', stackId: '$fresh.promotionStackId' } },
  'delete-export': { path: { exportId: '$fresh.exportId' } },
  'get-export': { path: { exportId: '$seed.exportId' } },
  'download-export': { path: { exportId: '$seed.exportId' }, values: { 'query.token': '$seed.exportToken' } },
  // Referees are added to a code published to a referrer; each request adds customers of its own.
  'referrals-add-holders': { path: { memberId: '$seed.publishedReferralCode' }, unique: ['body.holders.[].source_id'] },
  'referrals-add-holders-1': {
    path: { campaignId: '$seed.referralCampaignId', memberId: '$seed.publishedReferralCode' },
    unique: ['body.holders.[].source_id'],
  },
  'referrals-code-holders-1': { path: { memberId: '$seed.publishedReferralCode' } },
  'referrals-code-holders': { path: { campaignId: '$seed.referralCampaignId', memberId: '$seed.publishedReferralCode' } },
  'referrals-remove-holder': { path: { memberId: '$seed.publishedReferralCode', holderId: '$fresh.referralHolderId' } },
  'referrals-remove-holder-1': {
    path: { campaignId: '$seed.referralCampaignId', memberId: '$seed.publishedReferralCode', holderId: '$fresh.referralHolderId' },
  },
  'list-customer-redeemables': { path: { customerId: '$seed.referrerId' } },
  // Activity (lib/activity): a well-formed event id pages after a moment of 2024 (ids carry their position, so any such id is a cursor).
  'list-customer-activity': { path: { customerId: '$seed.customerId' }, values: { 'query.starting_after_id': 'evcus_018cc251f400aact_seed.000' } },
  'list-customer-activities': { path: { customerId: '$seed.customerId' }, values: { 'query.starting_after_id': 'evcus_018cc251f400aact_seed.000' } },
  'list-member-activity': { path: { memberId: '$seed.loyaltyCardCode' }, values: { 'query.starting_after_id': 'evcus_018cc251f400aact_seed.000' } },
  'list-member-activity-1': {
    path: { campaignId: '$seed.loyaltyCampaignId', memberId: '$seed.loyaltyCardCode' },
    values: { 'query.starting_after_id': 'evcus_018cc251f400aact_seed.000' },
  },
  // CSV imports and bulk updates (lib/imports, lib/bulk).
  'import-vouchers-to-campaign-using-csv': { path: { campaignId: '$seed.discountCampaignId' } },
};

/** The hints of every operation, the common ones included. */
// The client-side doors take the server calls' bodies: the same hints.
perOperation['create-publication-client-side'] = perOperation['create-publication'] ?? {};
perOperation['track-custom-event-client-side'] = perOperation['track-custom-event'] ?? {};

export const requestHints: Record<string, CaseHints> = Object.fromEntries(
  Object.entries(perOperation).map(([id, hints]) => [id, { ...hints, byName: { ...common.byName, ...hints.byName } }]),
);

/** The hints for a snapshot: the token endpoint tries every scope the reference names (its security schemes' and operations'). */
export function requestHintsFor(snapshot: { scopes: readonly string[] }): Record<string, CaseHints> {
  const token = requestHints['generate-oauth-token'] ?? {};
  return { ...requestHints, 'generate-oauth-token': { ...token, candidates: { ...token.candidates, 'body.scope': [...snapshot.scopes] } } };
}
