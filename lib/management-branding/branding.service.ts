import { RETRY, retryOnConflict } from '../db/transact.js';
import { BrandingExistsError, NotFoundError } from '../errors.js';
import { laterStamp } from '../management/later-stamp.js';
import { requireProject } from '../projects/require-project.js';
import type { Runtime } from '../runtime.js';
import { type Branding, DEFAULT_PERMISSION_REMINDER } from './branding.js';
import * as repo from './branding.repo.js';
import type { CreateBrandBody, UpdateBrandBody } from './branding.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** `value` when the field was sent (null included), else `kept`. */
const sentOr = <T>(value: T | undefined, kept: T): T => (value === undefined ? kept : value);

/**
 * create-brand: the project's brand configuration; a project has one at most.
 * @throws NotFoundError (project), BrandingExistsError (the project has one: 409 `branding_exist`).
 */
export async function createBrand(deps: Deps & Pick<Runtime, 'clock' | 'ids'>, projectId: string, body: CreateBrandBody): Promise<Branding> {
  await requireProject(deps, projectId);
  const value: Branding = {
    id: deps.ids.id('brd'),
    projectId,
    brand: {
      name: body.brand.name,
      privacyPolicyUrl: body.brand.privacy_policy_url ?? null,
      termsOfUseUrl: body.brand.terms_of_use_url ?? null,
      permissionReminder: body.brand.permission_reminder ?? DEFAULT_PERMISSION_REMINDER,
      websiteUrl: body.brand.website_url ?? null,
    },
    address: {
      street: body.address.street,
      city: body.address.city,
      postal: body.address.postal,
      state: body.address.state ?? null,
      country: body.address.country,
    },
    contact: { email: body.contact.email, phone: body.contact.phone ?? null },
    createdAt: deps.clock.now().toISOString(),
    updatedAt: null,
  };
  if (await repo.insertBranding(deps, value)) return value;
  const existing = await repo.getBranding(deps, projectId);
  throw new BrandingExistsError(existing?.id ?? '');
}

/** list-brands: the project's configuration, or none. @throws NotFoundError (project). */
export async function listBrands(deps: Deps, projectId: string): Promise<Branding[]> {
  const [, found] = await Promise.all([requireProject(deps, projectId), repo.getBranding(deps, projectId)]);
  return found ? [found] : [];
}

/** get-brand. @throws NotFoundError (project; branding_details when the project's configuration has another id or none). */
export async function getBrand(deps: Deps, projectId: string, brandingId: string): Promise<Branding> {
  const [, found] = await Promise.all([requireProject(deps, projectId), repo.getBranding(deps, projectId)]);
  if (!found || found.id !== brandingId) throw new NotFoundError('branding_details', brandingId);
  return found;
}

/**
 * update-brand: the fields sent replace the stored ones (null clears a nullable field); the rest stay.
 * @throws NotFoundError (project, branding_details), ConflictRetryError (kept losing to concurrent changes).
 */
export async function updateBrand(deps: Deps & Pick<Runtime, 'clock'>, projectId: string, brandingId: string, body: UpdateBrandBody): Promise<Branding> {
  await requireProject(deps, projectId);
  return retryOnConflict(`Too many concurrent changes of branding ${brandingId}`, async () => {
    const current = await repo.getBranding(deps, projectId);
    if (!current || current.id !== brandingId) throw new NotFoundError('branding_details', brandingId);
    const { brand, address, contact } = body;
    const next: Branding = {
      ...current,
      brand: {
        name: sentOr(brand?.name, current.brand.name),
        privacyPolicyUrl: sentOr(brand?.privacy_policy_url, current.brand.privacyPolicyUrl),
        termsOfUseUrl: sentOr(brand?.terms_of_use_url, current.brand.termsOfUseUrl),
        permissionReminder: sentOr(brand?.permission_reminder, current.brand.permissionReminder),
        websiteUrl: sentOr(brand?.website_url, current.brand.websiteUrl),
      },
      address: {
        street: sentOr(address?.street, current.address.street),
        city: sentOr(address?.city, current.address.city),
        postal: sentOr(address?.postal, current.address.postal),
        state: sentOr(address?.state, current.address.state),
        country: sentOr(address?.country, current.address.country),
      },
      contact: { email: sentOr(contact?.email, current.contact.email), phone: sentOr(contact?.phone, current.contact.phone) },
      updatedAt: laterStamp(deps.clock.now(), current.updatedAt),
    };
    return (await repo.replaceBranding(deps, current, next)) ? next : RETRY;
  });
}

/**
 * delete-brand: the project has no brand configuration from the reply on, and may create one again.
 * @throws NotFoundError (project, branding_details; also to the loser of two concurrent deletes).
 */
export async function deleteBrand(deps: Deps, projectId: string, brandingId: string): Promise<void> {
  await requireProject(deps, projectId);
  if (!(await repo.removeBranding(deps, projectId, brandingId))) throw new NotFoundError('branding_details', brandingId);
}
