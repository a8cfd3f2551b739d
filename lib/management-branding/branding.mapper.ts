import type * as z from '../zod.js';
import type { Branding } from './branding.js';
import type { brandingListReplySchema, brandingReplySchema } from './branding.reply.js';

/** The reference's ManagementProjectsBranding object. */
export const toBrandingReply = (b: Branding): z.input<typeof brandingReplySchema> => ({
  id: b.id,
  brand: {
    name: b.brand.name,
    privacy_policy_url: b.brand.privacyPolicyUrl,
    terms_of_use_url: b.brand.termsOfUseUrl,
    permission_reminder: b.brand.permissionReminder,
    website_url: b.brand.websiteUrl,
  },
  address: { street: b.address.street, city: b.address.city, postal: b.address.postal, state: b.address.state, country: b.address.country },
  contact: { email: b.contact.email, phone: b.contact.phone },
});

/** list-brands: the project's brand, or none. */
export const toBrandingListReply = (brands: Branding[]): z.input<typeof brandingListReplySchema> => ({
  object: 'list',
  data_ref: 'data',
  data: brands.map(toBrandingReply),
  total: brands.length,
});
