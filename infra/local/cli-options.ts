import { resolve } from 'node:path';
import { normalizeOrigin } from '../../lib/auth/origins.js';
import type { LogLevel } from '../../lib/logger.js';

/** A mistake in flags or environment: main prints its one-line message and exits 1. */
export class UsageError extends Error {}

export interface CliOptions {
  help: boolean;
  port: number;
  downloadPort: number;
  /** null = in-memory run. */
  dataDir: string | null;
  devKey: { appId: string; appToken: string } | undefined;
  /** DEV_CLIENT_APP_ID / DEV_CLIENT_APP_TOKEN: the dev project's client-side pair. */
  devClientKey: { appId: string; appToken: string } | undefined;
  /** DEV_MANAGEMENT_ID / DEV_MANAGEMENT_TOKEN: the management key pair (`/management/v1/*`). */
  devManagementKey: { managementId: string; managementToken: string } | undefined;
  /** DEV_CLIENT_ORIGINS: the client key's trusted origins (undefined = the local runtime's own). */
  devClientOrigins: string[] | undefined;
  logLevel: LogLevel;
}

export const USAGE = `Usage: npm start [-- --in-memory]

Runs the API on local engines (DynamoDB Local, s3rver, a local SQS) with the same handlers Lambda runs.

  --in-memory        throwaway run: nothing is kept (also IN_MEMORY=1)
  -h, --help         this text

Environment:
  PORT               API port (default 3000; 0 = any free port)
  DOWNLOAD_PORT      download cluster port (default 3001)
  DATA_DIR           data folder kept across restarts (default .data/ at the repository root)
  DEV_APP_ID, DEV_APP_TOKEN   the dev project's key pair (both, or neither: then one is generated and kept)
  DEV_CLIENT_APP_ID, DEV_CLIENT_APP_TOKEN   its client-side key pair for /client/v1/* (both, or neither: generated and kept)
  DEV_MANAGEMENT_ID, DEV_MANAGEMENT_TOKEN   the management key pair for /management/v1/* (both, or neither: generated and kept)
  DEV_CLIENT_ORIGINS the client key's trusted origins, comma-separated (default: this runtime's own, http://localhost:PORT and http://127.0.0.1:PORT)
  LOG_LEVEL          debug, info, warn or error (default info)`;

const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

function portOf(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new UsageError(`${name} must be a port number (0-65535), got '${value}'`);
  return Number(value);
}

const truthy = (value: string | undefined): boolean => ['1', 'true', 'yes', 'on'].includes((value ?? '').toLowerCase());

/**
 * Reads `npm start`'s flags and environment.
 * @throws UsageError on an unknown flag, a bad port or log level, or half a dev key pair.
 */
export function parseCliOptions(argv: readonly string[], env: NodeJS.ProcessEnv, defaultDataDir: string): CliOptions {
  let inMemory = truthy(env.IN_MEMORY);
  let help = false;
  for (const arg of argv) {
    if (arg === '--in-memory') inMemory = true;
    else if (arg === '--help' || arg === '-h') help = true;
    else throw new UsageError(`Unknown argument '${arg}' (try --help)`);
  }
  const logLevel = (env.LOG_LEVEL || 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new UsageError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got '${env.LOG_LEVEL}'`);
  const appId = env.DEV_APP_ID || undefined;
  const appToken = env.DEV_APP_TOKEN || undefined;
  if ((appId === undefined) !== (appToken === undefined)) {
    throw new UsageError('Set both DEV_APP_ID and DEV_APP_TOKEN, or neither (then a dev key pair is generated)');
  }
  const clientAppId = env.DEV_CLIENT_APP_ID || undefined;
  const clientAppToken = env.DEV_CLIENT_APP_TOKEN || undefined;
  if ((clientAppId === undefined) !== (clientAppToken === undefined)) {
    throw new UsageError('Set both DEV_CLIENT_APP_ID and DEV_CLIENT_APP_TOKEN, or neither (then a client-side key pair is generated)');
  }
  const managementId = env.DEV_MANAGEMENT_ID || undefined;
  const managementToken = env.DEV_MANAGEMENT_TOKEN || undefined;
  if ((managementId === undefined) !== (managementToken === undefined)) {
    throw new UsageError('Set both DEV_MANAGEMENT_ID and DEV_MANAGEMENT_TOKEN, or neither (then a management key pair is generated)');
  }
  const origins = env.DEV_CLIENT_ORIGINS?.split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  const badOrigin = origins?.find((o) => normalizeOrigin(o) === null);
  if (badOrigin !== undefined)
    throw new UsageError(`DEV_CLIENT_ORIGINS must list origins like http://localhost:5173 (scheme://host[:port]), got '${badOrigin}'`);
  return {
    help,
    port: portOf('PORT', env.PORT, 3000),
    downloadPort: portOf('DOWNLOAD_PORT', env.DOWNLOAD_PORT, 3001),
    dataDir: inMemory ? null : env.DATA_DIR ? resolve(env.DATA_DIR) : defaultDataDir,
    devKey: appId && appToken ? { appId, appToken } : undefined,
    devClientKey: clientAppId && clientAppToken ? { appId: clientAppId, appToken: clientAppToken } : undefined,
    devManagementKey: managementId && managementToken ? { managementId, managementToken } : undefined,
    devClientOrigins: origins && origins.length > 0 ? origins : undefined,
    logLevel,
  };
}
