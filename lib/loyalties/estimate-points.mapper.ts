import type * as z from '../zod.js';
import type { PointsEstimate } from './estimate-points.service.js';
import type { pointsEstimateReplySchema } from './tier.reply.js';

/** The reference's LoyaltiesQualificationsCheckEligibilityResponseBody. */
export const toPointsEstimateReply = (e: PointsEstimate): z.input<typeof pointsEstimateReplySchema> => ({
  campaign: { id: e.campaign.id, name: e.campaign.name, object: 'campaign' },
  points_estimation: e.points,
});
