import { snakeize } from '../case.js';
import { toCategoryReply } from '../categories/category.mapper.js';
import type { ValidationRuleAssignment } from '../validation-rules/validation-rule.js';
import { toAssignmentListReply } from '../validation-rules/validation-rule.mapper.js';
import { toCalculatedOrderReply, toStackingRulesReply } from '../validations/validation.mapper.js';
import type * as z from '../zod.js';
import type { QualifiedRedeemable, Qualification } from './qualification.service.js';
import type { qualificationReplySchema } from './qualification.reply.js';

type Reply = z.input<typeof qualificationReplySchema>;
type RedeemableReply = Reply['redeemables']['data'][number];

const emptyList = () => ({ object: 'list' as const, data_ref: 'data' as const, data: [], total: 0 });

function resultOf(q: QualifiedRedeemable): RedeemableReply['result'] {
  const r = q.evaluated;
  const v = r.voucher;
  if (v?.gift) return { gift: { balance: v.gift.balance, credits: r.step?.credits ?? 0 } };
  if (v?.loyaltyCard) return { loyalty_card: { points: v.loyaltyCard.points, balance: v.loyaltyCard.balance } };
  const discount = v ? v.discount : (r.tier?.discount ?? null);
  return discount ? { discount: snakeize(discount) } : {};
}

function toQualifiedReply(
  q: QualifiedRedeemable,
  exclusive: ReadonlySet<string>,
  joint: ReadonlySet<string>,
  assignments: ReadonlyMap<string, ValidationRuleAssignment[]> | null,
): RedeemableReply {
  const r = q.evaluated;
  const campaignName = r.campaign?.name ?? r.voucher?.campaignName ?? null;
  const campaignId = r.campaign?.id ?? r.voucher?.campaignId ?? null;
  return {
    id: r.id,
    object: r.object,
    created_at: q.createdAt,
    result: resultOf(q),
    ...(r.status === 'APPLICABLE' && r.step ? { order: toCalculatedOrderReply(q.evaluation.order, r.step.order) } : {}),
    applicable_to: emptyList(),
    inapplicable_to: emptyList(),
    metadata: r.voucher?.metadata ?? r.tier?.metadata ?? {},
    categories: r.categories.map((c) => ({
      ...toCategoryReply(c),
      ...(exclusive.has(c.id) ? { stacking_rules_type: 'EXCLUSIVE' as const } : joint.has(c.id) ? { stacking_rules_type: 'JOINT' as const } : {}),
    })),
    ...(r.tier?.banner ? { banner: r.tier.banner } : {}),
    ...(r.tier ? { name: r.tier.name } : {}),
    ...(campaignName !== null ? { campaign_name: campaignName } : {}),
    ...(campaignId !== null ? { campaign_id: campaignId } : {}),
    ...(assignments ? { validation_rules_assignments: toAssignmentListReply(assignments.get(r.id) ?? []) } : {}),
  };
}

/** POST /v1/qualifications' reply: one page of qualified redeemables, the order as sent (no discount applied) and the stacking rules. */
export function toQualificationReply(q: Qualification): Reply {
  const exclusive = new Set(q.context.rules.exclusiveCategories);
  const joint = new Set(q.context.rules.jointCategories);
  return {
    redeemables: {
      object: 'list',
      data_ref: 'data',
      data: q.redeemables.map((r) => toQualifiedReply(r, exclusive, joint, q.assignments)),
      total: q.redeemables.length,
      has_more: q.hasMore,
      ...(q.moreStartingAfter !== null ? { more_starting_after: q.moreStartingAfter } : {}),
    },
    ...(q.context.trackingId !== null ? { tracking_id: q.context.trackingId } : {}),
    order: toCalculatedOrderReply(q.context.order, q.context.calculation),
    stacking_rules: toStackingRulesReply(q.context.rules),
  };
}
