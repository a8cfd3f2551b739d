import { hashSecret } from '../auth/secrets.js';
import { parseCidr } from '../auth/ip-allow-list.js';
import { parseScopeString, type Scope } from '../auth/scopes.js';
import { BadRequestError, NotFoundError } from '../errors.js';
import { getProject, insertProject } from '../projects/project.repo.js';
import type { Runtime } from '../runtime.js';
import type { AppKey, AppKeyView } from './app-key.js';
import { viewOf } from './app-key.js';
import * as repo from './app-key.repo.js';

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
  await insertProject(deps, { projectId, name, createdAt: deps.clock.now().toISOString() });
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
    createdAt: now,
    updatedAt: now,
  };
  await repo.insertAppKey(deps, key);
  return { project_id: projectId, app_id: appId, app_token: appToken };
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

export async function deleteAppKey(deps: Deps, appId: string): Promise<void> {
  await repo.deleteAppKey(deps, appId);
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
