import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { type Clock, systemClock } from './clock.js';
import { type Config, loadConfig, type RateLimitSettings } from './config.js';
import { createDocumentClient } from './db/client.js';
import { type Ids, randomIds } from './ids.js';
import { createLogger, type Logger } from './logger.js';
import { TtlCache } from './ttl-cache.js';
import type { AppKey } from './app-keys/app-key.js';
import type { MetadataSchema } from './metadata-schemas/metadata-schema.js';
import { CredentialHints } from './auth/credential-hints.js';
import { QualificationHints } from './qualifications/qualification-hints.js';
import { ReadHints } from './validations/read-hints.js';

/** Everything domain code needs from the outside world, built once per container. */
export interface Runtime {
  tableName: string;
  ddb: DynamoDBDocumentClient;
  clock: Clock;
  ids: Ids;
  logger: Logger;
  /**
   * Application keys seen by bearer-token requests, kept briefly so a token request costs one
   * read. Its age bounds how long a blocked or deleted key's tokens keep working (spec: < 60 s).
   */
  appKeyCache: TtlCache<AppKey | null>;
  /** Who each set of credentials was when last admitted, so some reads start while credentials are checked (lib/auth/credential-hints.ts); never admits anyone. */
  credentialHints: CredentialHints;
  /** Pointers this container learnt (a code's campaign, a source id's record) so a validation reads in one round trip; each is checked by the read. */
  readHints: ReadHints;
  /** Campaigns this container's qualifications led to, so the next one reads them with the wallet (lib/qualifications/qualification-hints.ts). */
  qualificationHints: QualificationHints;
  /**
   * Metadata schemas the direct writes of customers, campaigns, vouchers, products and orders were
   * checked against, by project and related object (null: none), kept briefly so such a write
   * reads none most of the time; its age bounds how long a schema change takes to reach other containers.
   */
  metadataSchemaCache: TtlCache<MetadataSchema | null>;
  /** Per-project request budget shared by all containers (lib/rate-limit/rate-limit.service.ts); null = none. */
  rateLimit?: RateLimitSettings | null;
}

/** Seconds an application key may be served from cache to bearer-token requests. */
export const APP_KEY_CACHE_SECONDS = 30;
/** Seconds a metadata schema (or its absence) may be served from cache to the writes it checks (docs/decisions.md "Metadata schemas"). */
export const METADATA_SCHEMA_CACHE_SECONDS = 30;

export function createRuntime(config: Config, overrides: Partial<Runtime> = {}): Runtime {
  const clock = overrides.clock ?? systemClock;
  return {
    tableName: config.tableName,
    ddb: overrides.ddb ?? createDocumentClient({ region: config.region, endpoint: config.dynamoDbEndpoint }),
    clock,
    ids: overrides.ids ?? randomIds,
    logger: overrides.logger ?? createLogger(config.logLevel),
    appKeyCache: overrides.appKeyCache ?? new TtlCache(APP_KEY_CACHE_SECONDS * 1000, () => clock.now().getTime()),
    metadataSchemaCache: overrides.metadataSchemaCache ?? new TtlCache(METADATA_SCHEMA_CACHE_SECONDS * 1000, () => clock.now().getTime()),
    credentialHints: overrides.credentialHints ?? new CredentialHints(() => clock.now().getTime()),
    readHints: overrides.readHints ?? new ReadHints(() => clock.now().getTime()),
    qualificationHints: overrides.qualificationHints ?? new QualificationHints(() => clock.now().getTime()),
    rateLimit: overrides.rateLimit !== undefined ? overrides.rateLimit : (config.rateLimit ?? null),
  };
}

let containerRuntime: Runtime | undefined;
let containerConfig: Config | undefined;

/** The configuration of this Lambda container (or local process), parsed from the environment once. */
export function defaultConfig(): Config {
  containerConfig ??= loadConfig(process.env);
  return containerConfig;
}

/** The runtime of this Lambda container (or local process), built from the environment once. */
export function defaultRuntime(): Runtime {
  containerRuntime ??= createRuntime(defaultConfig());
  return containerRuntime;
}

/**
 * In Lambda (which sets AWS_LAMBDA_FUNCTION_NAME in every function) the config is parsed and the
 * runtime built while the handler module loads, so a missing or malformed variable fails the cold
 * start with its name instead of the first request. Elsewhere it waits for first use: the local
 * runtime completes the environment after loading the modules (DOWNLOAD_BASE_URL), and tests
 * import handlers without any of it.
 */
if (process.env.AWS_LAMBDA_FUNCTION_NAME) defaultRuntime();
