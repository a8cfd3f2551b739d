import * as z from '../zod.js';

/**
 * The body of the deprecated POST /v1/vouchers/qualification and POST /v1/campaigns/qualification
 * (customer, order, metadata...): read liberally and never used, since both are refused whatever
 * they ask (deprecated-qualification.service.ts).
 */
export const examineQualificationBody = z.strictObject({});
