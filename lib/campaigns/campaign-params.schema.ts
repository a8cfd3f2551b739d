import * as z from '../zod.js';

/** Path of the campaign endpoints: an id or a name. */
export const campaignParams = z.strictObject({ campaignId: z.string().check(z.minLength(1), z.maxLength(1000)) });
