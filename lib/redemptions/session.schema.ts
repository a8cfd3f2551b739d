import * as z from '../zod.js';

/** A session key as clients choose it (or as validation made it): 1–200 characters, no control characters. */
export const sessionKeySchema = z.string().check(
  z.minLength(1),
  z.maxLength(200),
  z.refine((s) => !/\p{Cc}/u.test(s), 'a session key has no control characters'),
);

/** DELETE /v1/vouchers/{code}/sessions/{sessionKey}. */
export const releaseValidationSessionParams = z.strictObject({
  code: z.string().check(z.minLength(1), z.maxLength(1000)),
  sessionKey: sessionKeySchema,
});
