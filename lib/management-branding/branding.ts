/** A project's brand configuration (the Management API's branding_details): one per project at most. */
export interface Branding {
  /** `brd_…` */
  id: string;
  projectId: string;
  brand: {
    name: string;
    privacyPolicyUrl: string | null;
    termsOfUseUrl: string | null;
    permissionReminder: string;
    websiteUrl: string | null;
  };
  address: { street: string; city: string; postal: string | null; state: string | null; country: string };
  contact: { email: string; phone: string | null };
  createdAt: string;
  updatedAt: string | null;
}

/** The reference's default `permission_reminder`. */
export const DEFAULT_PERMISSION_REMINDER = 'You are receiving this email because you opted in at our website.';
