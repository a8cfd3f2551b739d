import { parseCidr } from '../auth/ip-allow-list.js';
import { hashSecret } from '../auth/secrets.js';
import { BadRequestError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { type IssuedManagementKey, type ManagementKey, type ManagementKeyStatus, type ManagementKeyView, managementKeyView } from './management-key.js';
import * as repo from './management-key.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

export interface NewManagementKeyOptions {
  name?: string;
  /** CIDRs requests must come from (default: any address). */
  ipAllowList?: string[] | null;
  /** Use these values instead of generating (the local runtime's DEV_MANAGEMENT_ID / DEV_MANAGEMENT_TOKEN). */
  managementId?: string;
  managementToken?: string;
}

function checkedCidrs(cidrs: string[] | null | undefined): string[] | null {
  if (cidrs === null || cidrs === undefined) return null;
  const bad = cidrs.filter((c) => parseCidr(c) === null);
  if (bad.length > 0) throw new BadRequestError('invalid_cidr', `Invalid CIDR: ${bad.join(' ')}`);
  if (cidrs.length === 0) throw new BadRequestError('invalid_cidr', 'At least one CIDR is required');
  return cidrs;
}

/**
 * Makes a management key pair: it opens `/management/v1/*` only. The token is returned once.
 * @throws BadRequestError naming a malformed CIDR.
 */
export async function createManagementKey(deps: Deps, options: NewManagementKeyOptions = {}): Promise<IssuedManagementKey> {
  const ipAllowList = checkedCidrs(options.ipAllowList);
  const managementId = options.managementId ?? `mgmt_${deps.ids.uuid()}`;
  const managementToken = options.managementToken ?? deps.ids.secret();
  const now = deps.clock.now().toISOString();
  await repo.insertManagementKey(deps, {
    managementId,
    name: options.name ?? 'default',
    tokenHash: hashSecret(managementToken),
    status: 'ACTIVE',
    ipAllowList,
    createdAt: now,
    updatedAt: now,
  });
  return { management_id: managementId, management_token: managementToken };
}

export async function listManagementKeys(deps: Deps): Promise<ManagementKeyView[]> {
  return (await repo.listManagementKeys(deps)).map(managementKeyView);
}

/** @throws NotFoundError when the key does not exist. */
export async function setManagementKeyStatus(deps: Deps, managementId: string, status: ManagementKeyStatus): Promise<ManagementKeyView> {
  return managementKeyView(await repo.updateManagementKey(deps, managementId, { status }, deps.clock.now().toISOString()));
}

/** Sets the CIDRs requests with this key must come from; null = any. @throws BadRequestError, NotFoundError. */
export async function setManagementKeyIpAllowList(deps: Deps, managementId: string, cidrs: string[] | null): Promise<ManagementKeyView> {
  return managementKeyView(await repo.updateManagementKey(deps, managementId, { ipAllowList: checkedCidrs(cidrs) }, deps.clock.now().toISOString()));
}

/** Deletes a key for good: its next request gets 401. @throws NotFoundError when it does not exist. */
export function deleteManagementKey(deps: Deps, managementId: string): Promise<void> {
  return repo.deleteManagementKey(deps, managementId);
}

/** Replaces the key's token: the old one fails at once. @throws NotFoundError when the key does not exist. */
export async function regenerateManagementKey(deps: Deps, managementId: string): Promise<IssuedManagementKey> {
  const managementToken = deps.ids.secret();
  await repo.updateManagementKey(deps, managementId, { tokenHash: hashSecret(managementToken) }, deps.clock.now().toISOString());
  return { management_id: managementId, management_token: managementToken };
}

/**
 * Makes sure a management key with exactly these values exists and is active (the local runtime's
 * dev management key): created when missing, re-hashed and unblocked when changed.
 */
export async function ensureManagementKey(deps: Deps, managementId: string, managementToken: string, name: string): Promise<IssuedManagementKey> {
  const existing: ManagementKey | null = await repo.getManagementKey(deps, managementId);
  if (!existing) return createManagementKey(deps, { managementId, managementToken, name });
  const tokenHash = hashSecret(managementToken);
  if (existing.tokenHash !== tokenHash || existing.status !== 'ACTIVE') {
    await repo.updateManagementKey(deps, managementId, { tokenHash, status: 'ACTIVE' }, deps.clock.now().toISOString());
  }
  return { management_id: managementId, management_token: managementToken };
}
