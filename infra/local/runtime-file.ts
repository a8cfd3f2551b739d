import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const RUNTIME_FILE = 'runtime.json';
/**
 * An in-memory runtime (`npm start -- --in-memory`) announces itself in the data folder under its
 * own name, one file per process: it holds no data there, so it must not claim the folder the way
 * `runtime.json` does, yet the operator CLI must find it.
 */
const IN_MEMORY_FILE = /^runtime-in-memory-(\d+)\.json$/;
const inMemoryFileOf = (pid: number): string => `runtime-in-memory-${pid}.json`;

/** What `<dataDir>/runtime.json` holds while a local runtime runs; the operator CLI reads it. */
export interface RuntimeFile {
  pid: number;
  dynamoEndpoint: string;
  tableName: string;
  region: string;
  apiUrl: string;
  downloadUrl: string;
}

/** `.data/` at the repository root: where the local runtime keeps its data unless told otherwise. */
export const defaultDataDir = join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'), '.data');

/** The data folder chosen by `DATA_DIR`, else the default. */
export const dataDirFrom = (env: NodeJS.ProcessEnv): string => (env.DATA_DIR ? resolve(env.DATA_DIR) : defaultDataDir);

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The local runtime using `dataDir`, when its runtime file exists and its process is alive.
 * @throws Error when the file exists but is not what the runtime writes (rather than guess and
 * start a second DynamoDB Local on data a live runtime may hold).
 */
export function runningRuntime(dataDir: string): RuntimeFile | null {
  return readRuntimeFile(join(dataDir, RUNTIME_FILE));
}

/** The in-memory runtimes announced in `dataDir` whose process is alive. */
export function runningInMemoryRuntimes(dataDir: string): RuntimeFile[] {
  if (!existsSync(dataDir)) return [];
  return readdirSync(dataDir)
    .filter((name) => IN_MEMORY_FILE.test(name))
    .flatMap((name) => {
      try {
        const runtime = readRuntimeFile(join(dataDir, name));
        return runtime ? [runtime] : [];
      } catch {
        // A half-written or foreign file is not a runtime to talk to.
        return [];
      }
    });
}

/** Announces this in-memory runtime in `dataDir` (see IN_MEMORY_FILE). */
export function writeInMemoryRuntimeFile(dataDir: string, content: RuntimeFile): void {
  mkdirSync(dataDir, { recursive: true });
  writeAtomically(join(dataDir, inMemoryFileOf(content.pid)), content);
}

export function removeInMemoryRuntimeFile(dataDir: string): void {
  rmSync(join(dataDir, inMemoryFileOf(process.pid)), { force: true });
}

function readRuntimeFile(file: string): RuntimeFile | null {
  if (!existsSync(file)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new Error(`${file} is not valid JSON; delete it if the local runtime is not running`);
  }
  const r = (parsed ?? {}) as Partial<Record<keyof RuntimeFile, unknown>>;
  const { pid, dynamoEndpoint, tableName, region } = r;
  if (!Number.isInteger(pid) || (pid as number) <= 0 || typeof dynamoEndpoint !== 'string' || typeof tableName !== 'string' || typeof region !== 'string') {
    throw new Error(`${file} lacks pid, dynamoEndpoint, tableName or region; delete it if the local runtime is not running`);
  }
  const runtime: RuntimeFile = {
    pid: pid as number,
    dynamoEndpoint,
    tableName,
    region,
    apiUrl: typeof r.apiUrl === 'string' ? r.apiUrl : '',
    downloadUrl: typeof r.downloadUrl === 'string' ? r.downloadUrl : '',
  };
  return pidAlive(runtime.pid) ? runtime : null;
}

/** The pid recorded in the data folder's runtime file, or null when there is none or it is unreadable. */
function recordedPid(dataDir: string): number | null {
  const file = join(dataDir, RUNTIME_FILE);
  if (!existsSync(file)) return null;
  try {
    const pid = (JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown }).pid;
    return Number.isInteger(pid) && (pid as number) > 0 ? (pid as number) : null;
  } catch {
    return null;
  }
}

/**
 * Refuses a data folder a live local runtime uses: two DynamoDB Locals on one database file
 * would corrupt each other's view of it.
 * @throws Error naming the other process, and the file to delete if that process is not a runtime.
 */
export function assertDataDirFree(dataDir: string, inUseHere: boolean): void {
  const pid = recordedPid(dataDir);
  if (inUseHere || (pid !== null && pid !== process.pid && pidAlive(pid))) {
    throw new Error(
      `Another local runtime (pid ${inUseHere ? process.pid : pid}) is using ${dataDir}; stop it first ` +
        `(or delete ${join(dataDir, RUNTIME_FILE)} if no runtime is running)`,
    );
  }
}

export function writeRuntimeFile(dataDir: string, content: RuntimeFile): void {
  writeAtomically(join(dataDir, RUNTIME_FILE), content);
}

function writeAtomically(file: string, content: RuntimeFile): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(content, null, 2)}\n`);
  renameSync(temp, file);
}

/** Removes the runtime file if it is still this process's. */
export function removeRuntimeFile(dataDir: string): void {
  if (recordedPid(dataDir) === process.pid) rmSync(join(dataDir, RUNTIME_FILE), { force: true });
}
