import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from '../../lib/zod.js';
import { createClientKey, createProject, ensureClientKey, ensureKeyPair, type IssuedKeyPair } from '../../lib/app-keys/app-key.service.js';
import type { IssuedManagementKey } from '../../lib/management/management-key.js';
import { createManagementKey, ensureManagementKey } from '../../lib/management/management-key.service.js';
import type { Runtime } from '../../lib/runtime.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

export const DEV_PROJECT_NAME = 'Local dev project';
export const DEV_KEY_FILE = 'dev-key.json';

const devKeyFile = z.object({
  project_id: z.string().check(z.minLength(1)),
  app_id: z.string().check(z.minLength(1)),
  app_token: z.string().check(z.minLength(1)),
  // Files written before client-side keys existed lack these: a pair is then generated and added.
  client_app_id: z.optional(z.string().check(z.minLength(1))),
  client_app_token: z.optional(z.string().check(z.minLength(1))),
  // Files written before management keys existed lack these: a pair is then generated and added.
  management_id: z.optional(z.string().check(z.minLength(1))),
  management_token: z.optional(z.string().check(z.minLength(1))),
});
type DevKeyFile = z.output<typeof devKeyFile>;

export interface DevKeyOptions {
  /** Where the generated pair is kept (`<dataDir>/dev-key.json`); null = in-memory run, nothing kept. */
  dataDir: string | null;
  /** DEV_APP_ID / DEV_APP_TOKEN: this pair instead of a generated one (never written to disk). */
  fixed?: { appId: string; appToken: string } | undefined;
}

function readDevKey(file: string): DevKeyFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new Error(`${file} is not valid JSON; delete it to get a new dev key`);
  }
  const result = devKeyFile.safeParse(parsed);
  if (!result.success) throw new Error(`${file} lacks project_id, app_id or app_token; delete it to get a new dev key`);
  return result.data;
}

/** Owner-only from the first byte: the file holds a live secret. */
function writeDevKey(file: string, pair: DevKeyFile): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(pair, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, file);
}

/**
 * Makes sure the local runtime's dev project and key pair exist and returns the pair:
 * the fixed pair when given; else the pair kept in `<dataDir>/dev-key.json` (re-created in the
 * table if the data was wiped, so the file stays usable); else a new project, whose pair is
 * kept there (mode 0600) unless the run is in memory.
 * @throws Error when `dev-key.json` is unreadable (it names the file to delete).
 */
export async function ensureDevKey(deps: Deps, options: DevKeyOptions): Promise<IssuedKeyPair> {
  if (options.fixed) return ensureKeyPair(deps, DEV_PROJECT_NAME, options.fixed.appId, options.fixed.appToken);
  if (options.dataDir === null) return createProject(deps, DEV_PROJECT_NAME);
  const file = join(options.dataDir, DEV_KEY_FILE);
  if (existsSync(file)) {
    const kept = readDevKey(file);
    const pair = await ensureKeyPair(deps, DEV_PROJECT_NAME, kept.app_id, kept.app_token);
    if (pair.project_id !== kept.project_id) writeDevKey(file, { ...kept, ...pair });
    return pair;
  }
  const pair = await createProject(deps, DEV_PROJECT_NAME);
  writeDevKey(file, pair);
  return pair;
}

export interface DevClientKeyOptions {
  dataDir: string | null;
  /** DEV_CLIENT_APP_ID / DEV_CLIENT_APP_TOKEN (never written to disk). */
  fixed?: { appId: string; appToken: string } | undefined;
  /** Its trusted origins, set on every start (the local runtime's own unless DEV_CLIENT_ORIGINS says otherwise). */
  origins: readonly string[];
}

/**
 * Makes sure the dev project's client-side key pair exists with `origins` and returns it: the
 * fixed pair when given; else the pair kept beside the server pair in `<dataDir>/dev-key.json`;
 * else a new one, kept there unless the run is in memory.
 */
export async function ensureDevClientKey(deps: Deps, projectId: string, options: DevClientKeyOptions): Promise<IssuedKeyPair> {
  if (options.fixed) return ensureClientKey(deps, projectId, options.fixed.appId, options.fixed.appToken, options.origins);
  if (options.dataDir === null) return createClientKey(deps, projectId, { origins: options.origins, name: 'dev client' });
  const file = join(options.dataDir, DEV_KEY_FILE);
  const kept = existsSync(file) ? readDevKey(file) : null;
  if (kept?.client_app_id && kept.client_app_token) return ensureClientKey(deps, projectId, kept.client_app_id, kept.client_app_token, options.origins);
  const pair = await createClientKey(deps, projectId, { origins: options.origins, name: 'dev client' });
  if (kept) writeDevKey(file, { ...kept, client_app_id: pair.app_id, client_app_token: pair.app_token });
  return pair;
}

export const DEV_MANAGEMENT_KEY_NAME = 'dev management';

export interface DevManagementKeyOptions {
  dataDir: string | null;
  /** DEV_MANAGEMENT_ID / DEV_MANAGEMENT_TOKEN (never written to disk). */
  fixed?: { managementId: string; managementToken: string } | undefined;
}

/**
 * Makes sure the local runtime's management key pair (`/management/v1/*`) exists and returns it:
 * the fixed pair when given; else the pair kept beside the project pairs in
 * `<dataDir>/dev-key.json` (re-created in the table if the data was wiped); else a new one, kept
 * there unless the run is in memory.
 */
export async function ensureDevManagementKey(deps: Deps, options: DevManagementKeyOptions): Promise<IssuedManagementKey> {
  if (options.fixed) return ensureManagementKey(deps, options.fixed.managementId, options.fixed.managementToken, DEV_MANAGEMENT_KEY_NAME);
  if (options.dataDir === null) return createManagementKey(deps, { name: DEV_MANAGEMENT_KEY_NAME });
  const file = join(options.dataDir, DEV_KEY_FILE);
  const kept = existsSync(file) ? readDevKey(file) : null;
  if (kept?.management_id && kept.management_token) return ensureManagementKey(deps, kept.management_id, kept.management_token, DEV_MANAGEMENT_KEY_NAME);
  const pair = await createManagementKey(deps, { name: DEV_MANAGEMENT_KEY_NAME });
  if (kept) writeDevKey(file, { ...kept, ...pair });
  return pair;
}
