import { hashSecret } from '../auth/secrets.js';
import { parseCidr } from '../auth/ip-allow-list.js';
import { parseScopeString, type Scope } from '../auth/scopes.js';
import { BadRequestError, NotFoundError } from '../errors.js';
import { getProject, insertProject, updateClientSwitches } from '../projects/project.repo.js';
import { type ClientSwitch, type Project, projectDefaults } from '../projects/project.js';
import type { Runtime } from '../runtime.js';
import type { AppKey, AppKeyView } from './app-key.js';
import { viewOf } from './app-key.js';
import * as repo from './app-key.repo.js';
import { deleteClientKey, insertClientKey, replaceClientOrigins } from './client-key.repo.js';
import { MAX_TRUSTED_ORIGINS, normalizeOrigin } from '../auth/origins.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/** A freshly made key pair: the only moment the token exists in clear. */
export interface IssuedKeyPair {
  project_id: string;
  app_id: string;
  app_token: string;
}

export interface NewKeyOptions {
  name?: string;
  /** Use these values instead of generating (the local runtime's DEV_APP_ID / DEV_APP_TOKEN). */
  appId?: string;
  appToken?: string;
}

/** Creates a project with its first application key. */
export async function createProject(deps: Deps, name: string, keyOptions: NewKeyOptions = {}): Promise<IssuedKeyPair> {
  const projectId = deps.ids.id('proj');
  await insertProject(deps, { ...projectDefaults(), projectId, name, webhookToken: deps.ids.secret(), createdAt: deps.clock.now().toISOString() });
  return createAppKey(deps, projectId, keyOptions);
}

/**
 * Adds an application key to a project. Permissions default to all scopes, the allow-list to any address.
 * @throws NotFoundError when the project does not exist.
 */
export async function createAppKey(deps: Deps, projectId: string, options: NewKeyOptions = {}): Promise<IssuedKeyPair> {
  if (!(await getProject(deps, projectId))) throw new NotFoundError('project', projectId);
  const appId = options.appId ?? deps.ids.uuid();
  const appToken = options.appToken ?? deps.ids.secret();
  const now = deps.clock.now().toISOString();
  const key: AppKey = {
    appId,
    projectId,
    name: options.name ?? 'default',
    tokenHash: hashSecret(appToken),
    status: 'ACTIVE',
    permissions: null,
    ipAllowList: null,
    side: 'server',
    trustedOrigins: null,
    originless: true,
    createdAt: now,
    updatedAt: now,
  };
  await repo.insertAppKey(deps, key);
  return { project_id: projectId, app_id: appId, app_token: appToken };
}

export interface ClientKeyOptions extends NewKeyOptions {
  /** Browser origins the key works from (`https://shop.example`); each is normalised, a malformed one refused. */
  origins: readonly string[];
  /** Whether requests without `Origin` (mobile apps) are admitted; default true (docs/decisions.md "Client-side keys"). */
  originless?: boolean;
}

/**
 * The origins as kept: normalised, without repeats, at most MAX_TRUSTED_ORIGINS.
 * @throws BadRequestError naming a malformed origin, or too many.
 */
export function trustedOriginsOf(origins: readonly string[]): string[] {
  const bad = origins.filter((o) => normalizeOrigin(o) === null);
  if (bad.length > 0) throw new BadRequestError('invalid_origin', `Invalid origin (scheme://host[:port], no path): ${bad.join(' ')}`);
  const kept = [...new Set(origins.map((o) => normalizeOrigin(o) ?? ''))];
  if (kept.length > MAX_TRUSTED_ORIGINS) throw new BadRequestError('invalid_origin', `At most ${MAX_TRUSTED_ORIGINS} trusted origins per key`);
  return kept;
}

/**
 * Adds a client-side (publishable) key pair to a project: it opens `/client/v1/*` only, from its
 * trusted origins (and without an Origin unless `originless` is false).
 * @throws NotFoundError (project), BadRequestError (origins).
 */
export async function createClientKey(deps: Deps, projectId: string, options: ClientKeyOptions): Promise<IssuedKeyPair> {
  const trustedOrigins = trustedOriginsOf(options.origins);
  if (!(await getProject(deps, projectId))) throw new NotFoundError('project', projectId);
  const appId = options.appId ?? `client_${deps.ids.uuid()}`;
  const appToken = options.appToken ?? deps.ids.secret();
  const now = deps.clock.now().toISOString();
  await insertClientKey(deps, {
    appId,
    projectId,
    name: options.name ?? 'client',
    tokenHash: hashSecret(appToken),
    status: 'ACTIVE',
    permissions: null,
    ipAllowList: null,
    side: 'client',
    trustedOrigins,
    originless: options.originless ?? true,
    createdAt: now,
    updatedAt: now,
  });
  return { project_id: projectId, app_id: appId, app_token: appToken };
}

/**
 * Replaces a client key's trusted origins (and, when given, its no-Origin switch).
 * @throws NotFoundError (no such client key), BadRequestError (origins), ConflictRetryError (changed meanwhile).
 */
export async function setClientOrigins(deps: Deps, appId: string, origins: readonly string[], originless?: boolean): Promise<AppKeyView> {
  const trusted = trustedOriginsOf(origins);
  const current = await repo.getAppKey(deps, appId, true);
  if (!current) throw new NotFoundError('app_key', appId);
  return viewOf(await replaceClientOrigins(deps, current, trusted, originless ?? current.originless, deps.clock.now().toISOString()));
}

/**
 * Makes sure a client key with exactly these values and origins exists in the project (the local
 * runtime's DEV_CLIENT_APP_ID / DEV_CLIENT_APP_TOKEN).
 */
export async function ensureClientKey(deps: Deps, projectId: string, appId: string, appToken: string, origins: readonly string[]): Promise<IssuedKeyPair> {
  const existing = await repo.getAppKey(deps, appId, true);
  if (existing && (existing.projectId !== projectId || existing.side !== 'client')) await deleteAppKey(deps, appId);
  else if (existing) {
    const tokenHash = hashSecret(appToken);
    if (existing.tokenHash !== tokenHash || existing.status !== 'ACTIVE') {
      await repo.updateAppKey(deps, appId, { tokenHash, status: 'ACTIVE' }, deps.clock.now().toISOString());
    }
    await setClientOrigins(deps, appId, origins);
    return { project_id: projectId, app_id: appId, app_token: appToken };
  }
  return createClientKey(deps, projectId, { appId, appToken, origins });
}

export async function listAppKeys(deps: Deps, projectId: string): Promise<AppKeyView[]> {
  return (await repo.listAppKeys(deps, projectId)).map(viewOf);
}

/**
 * Lists a project's keys for an operator, who would read an empty list for a mistyped id as "no keys".
 * @throws NotFoundError when the project does not exist.
 */
export async function listProjectAppKeys(deps: Deps, projectId: string): Promise<AppKeyView[]> {
  if (!(await getProject(deps, projectId))) throw new NotFoundError('project', projectId);
  return listAppKeys(deps, projectId);
}

export async function setKeyStatus(deps: Deps, appId: string, status: AppKey['status']): Promise<AppKeyView> {
  return viewOf(await repo.updateAppKey(deps, appId, { status }, deps.clock.now().toISOString()));
}

/** Deletes a key (a client key with its origin items). @throws NotFoundError when it does not exist. */
export async function deleteAppKey(deps: Deps, appId: string): Promise<void> {
  const key = await repo.getAppKey(deps, appId, true);
  if (key?.side === 'client') await deleteClientKey(deps, key);
  else await repo.deleteAppKey(deps, appId);
}

/**
 * Replaces the key's secret. The old token stops working at once; OAuth tokens made with the
 * key keep working (spec, Authentication 7), since they refer to the key, not its secret.
 */
export async function regenerateAppKey(deps: Deps, appId: string): Promise<IssuedKeyPair> {
  const appToken = deps.ids.secret();
  const key = await repo.updateAppKey(deps, appId, { tokenHash: hashSecret(appToken) }, deps.clock.now().toISOString());
  return { project_id: key.projectId, app_id: appId, app_token: appToken };
}

/**
 * Sets the scopes a key may use; `null` restores "all".
 * @throws BadRequestError naming unknown scope values.
 */
export async function setKeyPermissions(deps: Deps, appId: string, scopes: string[] | null): Promise<AppKeyView> {
  let permissions: Scope[] | null = null;
  if (scopes !== null) {
    const parsed = parseScopeString(scopes.join(' '));
    if (parsed.invalid.length > 0) throw new BadRequestError('invalid_scope', `Invalid scope: ${parsed.invalid.join(' ')}`);
    if (parsed.scopes.length === 0) throw new BadRequestError('invalid_scope', 'At least one scope is required');
    permissions = parsed.scopes;
  }
  return viewOf(await repo.updateAppKey(deps, appId, { permissions }, deps.clock.now().toISOString()));
}

/**
 * Sets the CIDRs requests with this key (or its tokens) must come from; `null` means any.
 * @throws BadRequestError naming malformed CIDRs.
 */
export async function setKeyIpAllowList(deps: Deps, appId: string, cidrs: string[] | null): Promise<AppKeyView> {
  if (cidrs !== null) {
    const bad = cidrs.filter((c) => parseCidr(c) === null);
    if (bad.length > 0) throw new BadRequestError('invalid_cidr', `Invalid CIDR: ${bad.join(' ')}`);
    if (cidrs.length === 0) throw new BadRequestError('invalid_cidr', 'At least one CIDR is required');
  }
  return viewOf(await repo.updateAppKey(deps, appId, { ipAllowList: cidrs }, deps.clock.now().toISOString()));
}

/**
 * Makes sure a key pair with exactly these values exists (the local runtime's dev key):
 * creates a project for it when missing, and re-hashes its token when it was changed.
 */
export async function ensureKeyPair(deps: Deps, projectName: string, appId: string, appToken: string): Promise<IssuedKeyPair> {
  const existing = await repo.getAppKey(deps, appId, true);
  if (!existing) return createProject(deps, projectName, { appId, appToken });
  const tokenHash = hashSecret(appToken);
  if (existing.tokenHash !== tokenHash || existing.status !== 'ACTIVE') {
    await repo.updateAppKey(deps, appId, { tokenHash, status: 'ACTIVE' }, deps.clock.now().toISOString());
  }
  return { project_id: existing.projectId, app_id: appId, app_token: appToken };
}

/** Turns the project's client-side switches on or off (those not given stay). @throws NotFoundError (project). */
export function setClientSwitches(deps: Deps, projectId: string, switches: Partial<Pick<Project, ClientSwitch>>): Promise<Project> {
  return updateClientSwitches(deps, projectId, switches);
}
