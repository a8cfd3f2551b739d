import * as z from '../zod.js';

/*
 * Request schemas of the Management API's branding (/management/v1/projects/{projectId}/branding[/{brandingId}]),
 * after the reference's ManagementProjectsBrandingCreateRequestBody and ...UpdateRequestBody.
 */

const projectId = z.string().check(z.minLength(1), z.maxLength(100));

export const brandingListParams = z.strictObject({ projectId });
export const brandingParams = z.strictObject({ projectId, brandingId: z.string().check(z.minLength(1), z.maxLength(100)) });

const text = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));

function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** "It must be a valid URL format": an absolute http(s) URL. */
const webUrl = text(2000).check(z.refine(isWebUrl, { message: 'Must be an absolute http or https URL' }));
/** "It must be a valid email format": one `@` between a local part and a dotted domain, no spaces. */
const email = text(254).check(z.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Must be an email address'));

export const createBrandBody = z.strictObject({
  brand: z.strictObject({
    name: text(200),
    privacy_policy_url: z.optional(z.nullable(webUrl)),
    terms_of_use_url: z.optional(z.nullable(webUrl)),
    permission_reminder: z.optional(z.nullable(text(1000))),
    website_url: z.optional(z.nullable(webUrl)),
  }),
  address: z.strictObject({
    street: text(300),
    city: text(200),
    postal: z.nullable(text(50)),
    state: z.optional(text(200)),
    country: text(200),
  }),
  contact: z.strictObject({ email, phone: z.optional(z.nullable(text(50))) }),
});
export type CreateBrandBody = z.output<typeof createBrandBody>;

/** update-brand: the fields sent replace those stored (null clears a nullable one); the rest stay. */
export const updateBrandBody = z.strictObject({
  brand: z.optional(
    z.strictObject({
      name: z.optional(text(200)),
      privacy_policy_url: z.optional(z.nullable(webUrl)),
      terms_of_use_url: z.optional(z.nullable(webUrl)),
      permission_reminder: z.optional(text(1000)),
      website_url: z.optional(z.nullable(webUrl)),
    }),
  ),
  address: z.optional(
    z.strictObject({
      street: z.optional(text(300)),
      city: z.optional(text(200)),
      postal: z.optional(z.nullable(text(50))),
      state: z.optional(text(200)),
      country: z.optional(text(200)),
    }),
  ),
  contact: z.optional(z.strictObject({ email: z.optional(email), phone: z.optional(z.nullable(text(50))) })),
});
export type UpdateBrandBody = z.output<typeof updateBrandBody>;
