import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const RUNTIME_FILE = 'runtime.json';

/** What `<dataDir>/runtime.json` holds while a local runtime runs; the operator CLI reads it. */
export interface RuntimeFile {
  pid: number;
  dynamoEndpoint: string;
  tableName: string;
  region: string;
  apiUrl: string;
  downloadUrl: string;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
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
  const file = join(dataDir, RUNTIME_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(content, null, 2)}\n`);
  renameSync(temp, file);
}

/** Removes the runtime file if it is still this process's. */
export function removeRuntimeFile(dataDir: string): void {
  if (recordedPid(dataDir) === process.pid) rmSync(join(dataDir, RUNTIME_FILE), { force: true });
}
