import { lineObjectReply, writeOrderFigures } from '../orders/order.mapper.js';
import { snakeize } from '../case.js';
import { toCategoryReply } from '../categories/category.mapper.js';
import type { LineCalculation, OrderCalculation } from '../redemptions/calculator.js';
import type * as z from '../zod.js';
import type { EvaluatedOrder, EvaluatedRedeemable, Evaluation } from './evaluation.js';
import { redeemableError } from './redeemable-error.js';
import type { SkipKey, StackingRules } from './stacking-rules.js';
import type { ProjectStackingRules } from './stacking-rules.service.js';
import type {
  calculatedOrderReplySchema,
  projectStackingRulesReplySchema,
  stackedValidationReplySchema,
  stackingRulesReplySchema,
} from './validation.reply.js';

type Reply = z.input<typeof stackedValidationReplySchema>;
type RedeemableReply = Reply['redeemables'][number];

const skipMessages: Record<SkipKey, string> = {
  applicable_redeemables_limit_exceeded: 'Applicable redeemables limit exceeded',
  applicable_exclusive_redeemables_limit_exceeded: 'Applicable exclusive redeemables limit exceeded',
  applicable_redeemables_per_category_limit_exceeded: 'Applicable redeemables limit per category exceeded',
  exclusion_rules_not_met: 'Redeemable cannot be applied due to exclusion rules',
  preceding_validation_failed: 'Redeemable cannot be applied due to preceding validation failure',
};

/** The stacking rules on the wire. */
export const toStackingRulesReply = (r: StackingRules): z.input<typeof stackingRulesReplySchema> => ({
  redeemables_limit: r.redeemablesLimit,
  applicable_redeemables_limit: r.applicableRedeemablesLimit,
  applicable_redeemables_per_category_limit: r.applicableRedeemablesPerCategoryLimit,
  applicable_redeemables_category_limits: r.applicableRedeemablesCategoryLimits,
  applicable_exclusive_redeemables_limit: r.applicableExclusiveRedeemablesLimit,
  applicable_exclusive_redeemables_per_category_limit: r.applicableExclusiveRedeemablesPerCategoryLimit,
  exclusive_categories: r.exclusiveCategories,
  joint_categories: r.jointCategories,
  redeemables_application_mode: r.redeemablesApplicationMode,
  redeemables_sorting_rule: r.redeemablesSortingRule,
  redeemables_products_application_mode: r.redeemablesProductsApplicationMode,
  redeemables_no_effect_rule: r.redeemablesNoEffectRule,
  no_effect_skip_categories: r.noEffectSkipCategories,
  no_effect_redeem_anyway_categories: r.noEffectRedeemAnywayCategories,
  redeemables_rollback_order_mode: r.redeemablesRollbackOrderMode,
});

type CalculatedOrderReply = z.input<typeof calculatedOrderReplySchema>;
type CalculatedItemReply = CalculatedOrderReply['items'][number];

/**
 * An order and its figures (OrderCalculated); lines beyond the order's own were added by a UNIT discount.
 * Built field by field in the wire's order, not with conditional spreads: a qualification's reply
 * holds one per redeemable, and spreads of optional parts cost several times more.
 */
export function toCalculatedOrderReply(o: EvaluatedOrder, c: OrderCalculation): CalculatedOrderReply {
  const out: Partial<CalculatedOrderReply> = {};
  if (o.id !== null) out.id = o.id;
  out.source_id = o.sourceId;
  out.status = o.status;
  writeOrderFigures(out, c);
  const items: CalculatedItemReply[] = [];
  for (let i = 0; i < c.items.length; i += 1) items.push(calculatedItemReply(c.items[i] as LineCalculation, o.items[i]));
  out.items = items;
  out.metadata = o.metadata;
  out.customer_id = o.customerId;
  out.referrer_id = o.referrerId;
  out.object = 'order';
  return out as CalculatedOrderReply;
}

function calculatedItemReply(l: LineCalculation, item: EvaluatedOrder['items'][number] | undefined): CalculatedItemReply {
  const out: Partial<CalculatedItemReply> = {};
  if (l.skuId !== null) out.sku_id = l.skuId;
  if (l.productId !== null) out.product_id = l.productId;
  if (item?.relatedObject) out.related_object = item.relatedObject;
  if (item?.sourceId) out.source_id = item.sourceId;
  out.quantity = l.quantity;
  out.initial_quantity = l.initialQuantity;
  out.discount_quantity = l.discountQuantity;
  out.applied_discount_quantity = l.appliedDiscountQuantity;
  out.applied_quantity = l.appliedQuantity;
  out.applied_quantity_amount = l.appliedQuantityAmount;
  out.price = l.price;
  out.amount = l.amount;
  out.initial_amount = l.initialAmount;
  out.discount_amount = l.discountAmount;
  out.applied_discount_amount = l.appliedDiscountAmount;
  out.subtotal_amount = l.subtotalAmount;
  if (item?.product) out.product = lineObjectReply(item.product);
  if (item?.sku) out.sku = lineObjectReply(item.sku);
  if (item?.metadata) out.metadata = item.metadata;
  out.object = 'order_item';
  return out as CalculatedItemReply;
}

const emptyList = () => ({ object: 'list' as const, data_ref: 'data' as const, data: [], total: 0 });

function toRedeemableReply(r: EvaluatedRedeemable, e: Evaluation, requestId: string | undefined): RedeemableReply {
  const exclusive = new Set(e.rules.exclusiveCategories);
  const joint = new Set(e.rules.jointCategories);
  const campaignName = r.campaign?.name ?? r.voucher?.campaignName ?? null;
  const campaignId = r.campaign?.id ?? r.voucher?.campaignId ?? null;
  const common = {
    id: r.id,
    object: r.object,
    categories: r.categories.map((c) => ({
      ...toCategoryReply(c),
      ...(exclusive.has(c.id) ? { stacking_rules_type: 'EXCLUSIVE' as const } : joint.has(c.id) ? { stacking_rules_type: 'JOINT' as const } : {}),
    })),
    ...(r.voucher ? { metadata: r.voucher.metadata } : r.tier ? { metadata: r.tier.metadata } : {}),
    ...(campaignName !== null ? { campaign_name: campaignName } : {}),
    ...(campaignId !== null ? { campaign_id: campaignId } : {}),
    ...(r.tier ? { name: r.tier.name } : {}),
  };
  if (r.status === 'APPLICABLE' && r.step) {
    const discount = r.voucher?.discount ?? r.tier?.discount ?? null;
    const gift = r.voucher?.gift ?? null;
    return {
      status: 'APPLICABLE',
      ...common,
      order: toCalculatedOrderReply(e.order, r.step.order),
      applicable_to: emptyList(),
      inapplicable_to: emptyList(),
      result: gift ? { gift: { balance: gift.balance, credits: r.step.credits } } : discount ? { discount: snakeize(discount) } : {},
    };
  }
  if (r.status === 'SKIPPED' && r.skipKey) {
    return { status: 'SKIPPED', ...common, result: { details: { key: r.skipKey, message: skipMessages[r.skipKey] } } };
  }
  const error = redeemableError(r.errorKey ?? 'resource_not_found', r.object, r.id, requestId, r.ruleMessage);
  return { status: 'INAPPLICABLE', ...common, result: { error, details: { key: error.key, message: error.error.message } } };
}

/**
 * POST /v1/validations' reply: the redeemables in application order, then the inapplicable and
 * skipped ones again, as the reference lists them; each of those two lists is left out when empty,
 * as the reference's examples leave them out.
 */
export function toStackedValidationReply(e: Evaluation, requestId?: string): Reply {
  const redeemables = e.redeemables.map((r) => toRedeemableReply(r, e, requestId));
  const inapplicable = redeemables.filter((r) => r.status === 'INAPPLICABLE');
  const skipped = redeemables.filter((r) => r.status === 'SKIPPED');
  return {
    valid: e.valid,
    redeemables,
    ...(inapplicable.length > 0 ? { inapplicable_redeemables: inapplicable } : {}),
    ...(skipped.length > 0 ? { skipped_redeemables: skipped } : {}),
    order: toCalculatedOrderReply(e.order, e.calculation),
    ...(e.trackingId !== null ? { tracking_id: e.trackingId } : {}),
    ...(e.session ? { session: { type: e.session.type, key: e.session.key, ttl: e.session.ttl, ttl_unit: e.session.ttlUnit } } : {}),
    stacking_rules: toStackingRulesReply(e.rules),
  };
}

/** The project's stacking rules (GET / PUT /v1/stacking-rules). */
export const toProjectStackingRulesReply = (p: ProjectStackingRules): z.input<typeof projectStackingRulesReplySchema> => ({
  ...toStackingRulesReply(p.rules),
  object: 'stacking_rules',
  updated_at: p.updatedAt,
});
