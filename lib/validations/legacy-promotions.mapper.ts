import type { QualifiedRedeemable } from '../qualifications/qualification.service.js';
import type * as z from '../zod.js';
import type { Evaluation } from './evaluation.js';
import { toPromotionTierValidationReply } from './legacy-validation.mapper.js';
import type { promotionsValidationReplySchema } from './legacy-promotions.reply.js';

type Reply = z.input<typeof promotionsValidationReplySchema>;

/** POST /v1/promotions/validation's reply: each qualifying tier as the single-tier validation shows a valid one. */
export function toPromotionsValidationReply(found: { context: Evaluation; tiers: QualifiedRedeemable[] }): Reply {
  const promotions = found.tiers.flatMap((t) => {
    const reply = toPromotionTierValidationReply({ evaluation: t.evaluation, redeemable: t.evaluated });
    return reply.valid ? [reply] : [];
  });
  return {
    valid: promotions.length > 0,
    ...(found.context.trackingId !== null ? { tracking_id: found.context.trackingId } : {}),
    promotions,
  };
}
