import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from '../../lib/zod.js';
import { createProject, ensureKeyPair, type IssuedKeyPair } from '../../lib/app-keys/app-key.service.js';
import type { Runtime } from '../../lib/runtime.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

export const DEV_PROJECT_NAME = 'Local dev project';
export const DEV_KEY_FILE = 'dev-key.json';

const devKeyFile = z.object({
  project_id: z.string().check(z.minLength(1)),
  app_id: z.string().check(z.minLength(1)),
  app_token: z.string().check(z.minLength(1)),
});

export interface DevKeyOptions {
  /** Where the generated pair is kept (`<dataDir>/dev-key.json`); null = in-memory run, nothing kept. */
  dataDir: string | null;
  /** DEV_APP_ID / DEV_APP_TOKEN: this pair instead of a generated one (never written to disk). */
  fixed?: { appId: string; appToken: string } | undefined;
}

function readDevKey(file: string): IssuedKeyPair {
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
function writeDevKey(file: string, pair: IssuedKeyPair): void {
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
    if (pair.project_id !== kept.project_id) writeDevKey(file, pair);
    return pair;
  }
  const pair = await createProject(deps, DEV_PROJECT_NAME);
  writeDevKey(file, pair);
  return pair;
}
