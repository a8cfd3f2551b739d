import * as z from 'zod';

/** GET /v1/async-actions/{asyncActionId}: any string; one that cannot exist is simply not found. */
export const asyncActionParams = z.strictObject({ asyncActionId: z.string().min(1).max(200) });
