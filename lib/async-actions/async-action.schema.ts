import * as z from '../zod.js';

/** GET /v1/async-actions/{asyncActionId}: any string; one that cannot exist is simply not found. */
export const asyncActionParams = z.strictObject({ asyncActionId: z.string().check(z.minLength(1), z.maxLength(200)) });
