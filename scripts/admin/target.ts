import { startDynamoOnly } from '../../infra/local/engines.js';
import { resources } from '../../lib/api/resources.js';
import { dataDirFrom, runningInMemoryRuntimes, runningRuntime } from '../../infra/local/runtime-file.js';
import { systemClock } from '../../lib/clock.js';
import { createDocumentClient } from '../../lib/db/client.js';
import { randomIds } from '../../lib/ids.js';
import type { Runtime } from '../../lib/runtime.js';
import { UsageError } from './usage-error.js';

/** What the app-key service needs; the CLI builds nothing else. */
export type AdminDeps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/** Deployed clusters, one stack pair each. */
export const STAGES = ['api', 'us1', 'as1'] as const;
export type Stage = (typeof STAGES)[number];

/** Where a command's data lives, decided from flags and environment before anything is started. */
export type TargetSpec =
  | { kind: 'endpoint'; endpoint: string; tableName: string; region: string }
  | { kind: 'stage'; stage: Stage; tableName: string; region: string }
  | { kind: 'local'; dataDir: string };

export interface TargetFlags {
  endpoint?: string | undefined;
  stage?: string | undefined;
  table?: string | undefined;
  region?: string | undefined;
}

/** The local runtime's data folder: `DATA_DIR`, else `.data/` at the repo root. */
export const localDataDir = dataDirFrom;

const isStage = (value: string): value is Stage => (STAGES as readonly string[]).includes(value);

/**
 * Picks the target: `--endpoint` (a DynamoDB Local), `--stage` (a deployed table, with
 * `--table`/`--region` or PROMO_TABLE_NAME/AWS_REGION), else the local runtime's data.
 * AWS_REGION alone never sends a command to AWS: only `--stage` does.
 * @throws UsageError on contradictory or incomplete flags.
 */
export function targetSpecOf(flags: TargetFlags, env: NodeJS.ProcessEnv): TargetSpec {
  if (flags.endpoint !== undefined && flags.stage !== undefined) {
    throw new UsageError('--endpoint and --stage exclude each other');
  }
  if (flags.endpoint !== undefined) {
    let url: URL;
    try {
      url = new URL(flags.endpoint);
    } catch {
      throw new UsageError(`--endpoint must be a URL such as http://127.0.0.1:8000, got '${flags.endpoint}'`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new UsageError(`--endpoint must be an http(s) URL, got '${flags.endpoint}'`);
    }
    return {
      kind: 'endpoint',
      endpoint: flags.endpoint,
      tableName: flags.table || resources.tableName,
      region: flags.region || resources.region,
    };
  }
  if (flags.stage !== undefined) {
    if (!isStage(flags.stage)) throw new UsageError(`--stage must be one of ${STAGES.join(', ')}, got '${flags.stage}'`);
    const tableName = flags.table || env.PROMO_TABLE_NAME;
    const region = flags.region || env.AWS_REGION;
    if (!tableName || !region) {
      throw new UsageError('--stage needs --table <name> (or PROMO_TABLE_NAME) and --region <region> (or AWS_REGION)');
    }
    return { kind: 'stage', stage: flags.stage, tableName, region };
  }
  if (flags.table !== undefined || flags.region !== undefined) {
    throw new UsageError('--table and --region go with --stage or --endpoint');
  }
  return { kind: 'local', dataDir: localDataDir(env) };
}

export { runningRuntime };

/** An open target: the deps to run a command with, and how to let go of them. */
export interface Connection {
  /** One line for stderr naming the target; never a secret. */
  description: string;
  deps: AdminDeps;
  close(): Promise<void>;
}

const depsOn = (region: string, tableName: string, endpoint?: string): AdminDeps => ({
  ddb: createDocumentClient({ region, endpoint }),
  tableName,
  clock: systemClock,
  ids: randomIds,
});

/**
 * Opens the target. For local data with no live runtime it starts DynamoDB Local on the data
 * folder itself, and `close()` stops it again.
 * @throws JavaMissingError when that start needs Java and there is none.
 */
export async function connect(spec: TargetSpec): Promise<Connection> {
  switch (spec.kind) {
    case 'endpoint': {
      const deps = depsOn(spec.region, spec.tableName, spec.endpoint);
      return {
        description: `target: DynamoDB at ${spec.endpoint}, table ${spec.tableName}`,
        deps,
        close: async () => deps.ddb.destroy(),
      };
    }
    case 'stage': {
      const deps = depsOn(spec.region, spec.tableName);
      return {
        description: `target: stage ${spec.stage}, table ${spec.tableName} in ${spec.region} (default AWS credentials)`,
        deps,
        close: async () => deps.ddb.destroy(),
      };
    }
    case 'local': {
      const onDisk = runningRuntime(spec.dataDir);
      const inMemory = runningInMemoryRuntimes(spec.dataDir);
      const live = [
        ...(onDisk ? [{ runtime: onDisk, kind: 'local runtime' }] : []),
        ...inMemory.map((runtime) => ({ runtime, kind: 'in-memory local runtime' })),
      ];
      if (live.length > 1) {
        const choices = live.map(({ runtime, kind }) => `${kind} pid ${runtime.pid}: --endpoint ${runtime.dynamoEndpoint}`).join('; ');
        throw new Error(`More than one local runtime is running; choose one with --endpoint (${choices})`);
      }
      const [only] = live;
      if (only) {
        const { runtime, kind } = only;
        const deps = depsOn(runtime.region, runtime.tableName, runtime.dynamoEndpoint);
        return {
          description: `target: ${kind} (pid ${runtime.pid}) at ${runtime.dynamoEndpoint}, table ${runtime.tableName}`,
          deps,
          close: async () => deps.ddb.destroy(),
        };
      }
      const dynamo = await startDynamoOnly({ dataDir: spec.dataDir });
      const deps = depsOn(dynamo.region, dynamo.tableName, dynamo.dynamoEndpoint);
      return {
        description: `target: local data in ${spec.dataDir} (runtime not running; DynamoDB Local started for this command), table ${dynamo.tableName}`,
        deps,
        close: async () => {
          deps.ddb.destroy();
          await dynamo.stop();
        },
      };
    }
  }
}
