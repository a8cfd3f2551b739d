import {
  collectionProductListReplySchema,
  productCollectionListReplySchema,
  productCollectionReplySchema,
} from '../product-collections/product-collection.reply.js';
import { webhookListReplySchema, webhookReplySchema } from '../webhooks/webhook.reply.js';
import type * as z from '../zod.js';
import { customerPermanentDeletionReplySchema } from '../customers/customer-erasure.reply.js';
import {
  managedMetadataSchemaListReplySchema,
  managedMetadataSchemaReplySchema,
  metadataSchemaListReplySchema,
  metadataSchemaReplySchema,
} from '../metadata-schemas/metadata-schema.reply.js';
import {
  pendingActivationReplySchema,
  pendingAdjustmentReplySchema,
  pendingPointsListReplySchema,
  pendingPointsReplySchema,
} from '../loyalties/pending-points.reply.js';
import {
  validationRuleAssignmentListReplySchema,
  validationRuleAssignmentReplySchema,
  validationRuleListReplySchema,
  validationRuleReplySchema,
} from '../validation-rules/validation-rule.reply.js';
import { asyncActionListReplySchema, asyncActionReplySchema } from '../async-actions/async-action.reply.js';
import { customerSegmentListReplySchema, segmentListReplySchema, segmentReplySchema } from '../segments/segment.reply.js';
import { binEntryReplySchema, binListReplySchema } from '../bin/bin.reply.js';
import { promotionTierListReplySchema } from '../campaigns/promotion-tier.reply.js';
import { campaignSummaryReplySchema } from '../campaigns/campaign-summary.reply.js';
import { campaignListReplySchema, campaignReplySchema, emptyJsonReplySchema, promotionTierReplySchema } from '../campaigns/campaign.reply.js';
import { categoryListReplySchema, categoryReplySchema } from '../categories/category.reply.js';
import { brandingListReplySchema, brandingReplySchema } from '../management-branding/branding.reply.js';
import { managementStackingRulesListReplySchema, managementStackingRulesReplySchema } from '../management-stacking-rules/stacking-rules.reply.js';
import { userListReplySchema, userReplySchema } from '../management-users/user.reply.js';
import { locationListReplySchema, locationReplySchema } from '../locations/location.reply.js';
import { managementProjectCreatedReplySchema, managementProjectListReplySchema, managementProjectReplySchema } from '../projects/project.reply.js';
import { customerListReplySchema, customerReplySchema, simpleCustomerReplySchema } from '../customers/customer.reply.js';
import { earningRuleListReplySchema, earningRuleReplySchema } from '../earning-rules/earning-rule.reply.js';
import { eventSchemaListReplySchema, eventSchemaReplySchema } from '../custom-event-schemas/event-schema.reply.js';
import { eventReplySchema } from '../events/event.reply.js';
import { exportListReplySchema, exportReplySchema } from '../exports/export.reply.js';
import { errorReplySchema } from '../http/error.reply.js';
import { voucherBalanceReplySchema, voucherTransactionListReplySchema } from '../vouchers/voucher-balance.reply.js';
import { balanceReplySchema, pointsBucketReplySchema, pointsExpirationReplySchema } from '../loyalties/loyalty.reply.js';
import {
  loyaltyTierEarningRuleListReplySchema,
  loyaltyTierListReplySchema,
  loyaltyTierReplySchema,
  loyaltyTierRewardListReplySchema,
  pointsEstimateReplySchema,
} from '../loyalties/tier.reply.js';
import { orderListReplySchema, orderReplySchema } from '../orders/order.reply.js';
import { productListReplySchema, productReplySchema, skuListReplySchema, skuReplySchema } from '../products/product.reply.js';
import { introspectionReplySchema, tokenReplySchema } from '../oauth/oauth.reply.js';
import { publicationListItemReplySchema, publicationListReplySchema, publicationReplySchema } from '../publications/publication.reply.js';
import { rewardAssignmentListReplySchema, rewardAssignmentReplySchema, rewardListReplySchema, rewardReplySchema } from '../rewards/reward.reply.js';
import {
  campaignSetupReplySchema,
  campaignTemplateListReplySchema,
  campaignTemplateReplySchema,
  promotionTierSetupReplySchema,
} from '../templates/campaign-template.reply.js';
import { asyncActionAcceptedReplySchema, voucherReplySchema } from '../vouchers/voucher.reply.js';
import {
  memberRewardListReplySchema,
  redemptionListReplySchema,
  redemptionReplySchema,
  redemptionRollbacksReplySchema,
  rewardRedemptionReplySchema,
  stackedRedemptionReplySchema,
  voucherRedemptionsReplySchema,
} from '../redemptions/redemption.reply.js';
import { voucherListReplySchema } from '../vouchers/voucher-list.reply.js';
import { promotionTierValidationReplySchema, voucherValidationReplySchema } from '../validations/legacy-validation.reply.js';
import { qualificationReplySchema } from '../qualifications/qualification.reply.js';
import { promotionsValidationReplySchema } from '../validations/legacy-promotions.reply.js';
import { projectStackingRulesReplySchema, stackedValidationReplySchema } from '../validations/validation.reply.js';
import { openApiDocumentReplySchema } from './document.reply.js';
import { customerRedeemableListReplySchema } from '../customers/customer-redeemable.reply.js';
import { activitiesListReplySchema, activityListReplySchema } from '../activity/activity.reply.js';
import { redeemableHolderListReplySchema, redeemableHolderReplySchema, redeemableHoldersAddedReplySchema } from '../referrals/redeemable-holder.reply.js';
import { promotionStackListReplySchema, promotionStackReplySchema } from '../promotion-stacks/promotion-stack.reply.js';

/**
 * Every reply body the API writes, by its component name in the OpenAPI document. A schema used
 * inside another (a category in a campaign, the customer in an event) becomes a `$ref` to its
 * component, so each shape is described once.
 */
export const replySchemas = {
  AsyncAction: asyncActionReplySchema,
  AsyncActionAccepted: asyncActionAcceptedReplySchema,
  AsyncActionList: asyncActionListReplySchema,
  BinEntry: binEntryReplySchema,
  BinEntryList: binListReplySchema,
  Campaign: campaignReplySchema,
  CampaignList: campaignListReplySchema,
  CampaignSetup: campaignSetupReplySchema,
  CampaignSummary: campaignSummaryReplySchema,
  CampaignTemplate: campaignTemplateReplySchema,
  CampaignTemplateList: campaignTemplateListReplySchema,
  Category: categoryReplySchema,
  CategoryList: categoryListReplySchema,
  ManagementProject: managementProjectReplySchema,
  ManagementProjectCreated: managementProjectCreatedReplySchema,
  ManagementProjectList: managementProjectListReplySchema,
  ManagementBranding: brandingReplySchema,
  ManagementBrandingList: brandingListReplySchema,
  ManagementStackingRules: managementStackingRulesReplySchema,
  ManagementStackingRulesList: managementStackingRulesListReplySchema,
  ManagementUser: userReplySchema,
  ManagementUserList: userListReplySchema,
  Location: locationReplySchema,
  LocationList: locationListReplySchema,
  ManagementWebhook: webhookReplySchema,
  ManagementWebhookList: webhookListReplySchema,
  ValidationRule: validationRuleReplySchema,
  ValidationRuleList: validationRuleListReplySchema,
  ValidationRuleAssignment: validationRuleAssignmentReplySchema,
  ValidationRuleAssignmentList: validationRuleAssignmentListReplySchema,
  Customer: customerReplySchema,
  EmptyJson: emptyJsonReplySchema,
  CustomerList: customerListReplySchema,
  CustomEvent: eventReplySchema,
  CustomEventSchema: eventSchemaReplySchema,
  CustomEventSchemaList: eventSchemaListReplySchema,
  EarningRule: earningRuleReplySchema,
  EarningRuleList: earningRuleListReplySchema,
  Error: errorReplySchema,
  Export: exportReplySchema,
  ExportList: exportListReplySchema,
  LoyaltyCardBalance: balanceReplySchema,
  LoyaltyPointsBucket: pointsBucketReplySchema,
  LoyaltyPointsBucketList: pointsExpirationReplySchema,
  LoyaltyRewardList: memberRewardListReplySchema,
  LoyaltyRewardRedemption: rewardRedemptionReplySchema,
  LoyaltyPendingPoints: pendingPointsReplySchema,
  LoyaltyPendingPointsList: pendingPointsListReplySchema,
  LoyaltyPendingPointsActivation: pendingActivationReplySchema,
  LoyaltyPendingPointsAdjustment: pendingAdjustmentReplySchema,
  OAuthToken: tokenReplySchema,
  OAuthTokenIntrospection: introspectionReplySchema,
  OpenApiDocument: openApiDocumentReplySchema,
  PromotionTier: promotionTierReplySchema,
  PromotionTiersList: promotionTierListReplySchema,
  PromotionTierSetup: promotionTierSetupReplySchema,
  PromotionTierValidation: promotionTierValidationReplySchema,
  PromotionsValidation: promotionsValidationReplySchema,
  Product: productReplySchema,
  ProductList: productListReplySchema,
  Segment: segmentReplySchema,
  SegmentList: segmentListReplySchema,
  CustomerSegmentList: customerSegmentListReplySchema,
  ProductCollection: productCollectionReplySchema,
  ProductCollectionList: productCollectionListReplySchema,
  ProductCollectionProductList: collectionProductListReplySchema,
  Publication: publicationReplySchema,
  PublicationList: publicationListReplySchema,
  PublicationListItem: publicationListItemReplySchema,
  Reward: rewardReplySchema,
  RewardList: rewardListReplySchema,
  RewardAssignment: rewardAssignmentReplySchema,
  RewardAssignmentList: rewardAssignmentListReplySchema,
  Order: orderReplySchema,
  OrderList: orderListReplySchema,
  Qualification: qualificationReplySchema,
  Redemption: redemptionReplySchema,
  RedemptionList: redemptionListReplySchema,
  RedemptionRollbacks: redemptionRollbacksReplySchema,
  SimpleCustomer: simpleCustomerReplySchema,
  Sku: skuReplySchema,
  SkuList: skuListReplySchema,
  StackedRedemption: stackedRedemptionReplySchema,
  StackedValidation: stackedValidationReplySchema,
  ProjectStackingRules: projectStackingRulesReplySchema,
  Voucher: voucherReplySchema,
  VoucherList: voucherListReplySchema,
  VoucherBalance: voucherBalanceReplySchema,
  VoucherTransactionList: voucherTransactionListReplySchema,
  VoucherRedemptions: voucherRedemptionsReplySchema,
  VoucherValidation: voucherValidationReplySchema,
  ManagementMetadataSchema: managedMetadataSchemaReplySchema,
  ManagementMetadataSchemaList: managedMetadataSchemaListReplySchema,
  MetadataSchema: metadataSchemaReplySchema,
  MetadataSchemaList: metadataSchemaListReplySchema,
  RedeemableHolder: redeemableHolderReplySchema,
  RedeemableHolderList: redeemableHolderListReplySchema,
  RedeemableHoldersAdded: redeemableHoldersAddedReplySchema,
  CustomerRedeemableList: customerRedeemableListReplySchema,
  PromotionStack: promotionStackReplySchema,
  PromotionStacksList: promotionStackListReplySchema,
  LoyaltyTier: loyaltyTierReplySchema,
  LoyaltyTierList: loyaltyTierListReplySchema,
  LoyaltyTierEarningRuleList: loyaltyTierEarningRuleListReplySchema,
  LoyaltyTierRewardList: loyaltyTierRewardListReplySchema,
  LoyaltyPointsEstimate: pointsEstimateReplySchema,
  CustomersPermanentDeletionCreateResponseBody: customerPermanentDeletionReplySchema,
  ActivityList: activityListReplySchema,
  ActivitiesList: activitiesListReplySchema,
} as const satisfies Record<string, z.core.$ZodType>;

export type ReplyName = keyof typeof replySchemas;
