import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { SQSClient } from '@aws-sdk/client-sqs';
import { type IssuedKeyPair, setClientSwitches } from '../../lib/app-keys/app-key.service.js';
import type { IssuedManagementKey } from '../../lib/management/management-key.js';
import { systemClock } from '../../lib/clock.js';
import { createDocumentClient } from '../../lib/db/client.js';
import type { ApiHandler } from '../../lib/http/endpoint.js';
import type { RouteDef } from '../../lib/api/route.js';
import { randomIds } from '../../lib/ids.js';
import { resumeOpenJobs } from '../../lib/jobs/resume-open-jobs.js';
import { createSqsJobQueue } from '../../lib/jobs/sqs-job-queue.js';
import { createLogger, type Logger, type LogLevel } from '../../lib/logger.js';
import { routeNotFoundRoute, routes as routeTable } from '../../lib/api/routes.js';
import {
  consumedQueueName,
  type ScheduledWorkerDef,
  scheduledWorkers as scheduledTable,
  type StreamWorkerDef,
  streamWorkers as streamTable,
  workers as workerTable,
  type WorkerDef,
} from '../../lib/api/workers.js';
import { type LocalSchedule, loadScheduledHandler, startSchedule } from './scheduler.js';
import { ensureDevClientKey, ensureDevKey, ensureDevManagementKey } from './dev-key.js';
import { startEngines, type Engines } from './engines.js';
import { handlerEnvironment, type EngineEndpoints } from './handler-env.js';
import { withLocalServers } from './openapi-servers.js';
import { moduleHandlerLoader, startHttpServer, type HandlerLoader, type LocalHttpServer } from './http-server.js';
import { assertDataDirFree, defaultDataDir, removeInMemoryRuntimeFile, removeRuntimeFile, writeInMemoryRuntimeFile, writeRuntimeFile } from './runtime-file.js';
import { startSqsPoller, type SqsPoller, type SqsWorkerHandler } from './sqs-poller.js';
import { type StreamPoller, startStreamPoller, type StreamWorkerHandler } from './stream-poller.js';

export type { EngineEndpoints } from './handler-env.js';

/** The repository root: route and worker handler paths are relative to it. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `.data/` at the repository root: where a persistent run keeps its data unless told otherwise. */
export { defaultDataDir };

export interface StartLocalOptions {
  /** API port (default 3000; 0 = any free port). */
  port?: number;
  /** Download cluster port (default 3001; 0 = any free port). */
  downloadPort?: number;
  /** Interface to listen on (default 127.0.0.1: the dev key pair must not be reachable from the network). */
  host?: string;
  /** Where data, the dev key and `runtime.json` live; null = in-memory run that keeps nothing. */
  dataDir: string | null;
  /** For an in-memory run: the data folder to announce it in, so the operator CLI finds it (`npm start -- --in-memory`). */
  announceIn?: string;
  /** Engines already running (e.g. the test suite's): used as they are and left running on stop. */
  engines?: EngineEndpoints;
  /** DEV_APP_ID / DEV_APP_TOKEN: the dev project's key pair, instead of a generated one. */
  devKey?: { appId: string; appToken: string };
  /** DEV_CLIENT_APP_ID / DEV_CLIENT_APP_TOKEN: its client-side pair, instead of a generated one. */
  devClientKey?: { appId: string; appToken: string };
  /** DEV_MANAGEMENT_ID / DEV_MANAGEMENT_TOKEN: the management key pair, instead of a generated one. */
  devManagementKey?: { managementId: string; managementToken: string };
  /** DEV_CLIENT_ORIGINS: the client-side pair's trusted origins (default: this runtime's own origins). */
  devClientOrigins?: readonly string[];
  /** Level for the handlers' and the server's logs (default info). */
  logLevel?: LogLevel;
  /** Sink for the runtime's own lines (default: JSON lines on stdout at `logLevel`). */
  logger?: Logger;
  /** Route table (default lib/api/routes.ts); each route is served on its cluster's server. */
  routes?: readonly RouteDef[];
  /** Worker table (default lib/api/workers.ts: each job queue's worker and its dead-letter worker). */
  workers?: readonly WorkerDef[];
  /** Wraps each route's handler (tests use it to check every reply against the OpenAPI document). */
  wrapHandler?: (route: RouteDef, handler: ApiHandler) => ApiHandler;
  /** Time for a whole request to arrive on either server (default 29 s, API Gateway's integration limit; tests shorten it). */
  requestTimeoutMs?: number;
  /**
   * Put the table's open jobs (lib/jobs/resume-open-jobs.ts) back on the queue before the pollers
   * start. Default: when this runtime starts its own engines, i.e. owns the table; a runtime on
   * engines it was given (the test suite's, shared by every test file) leaves other runs' jobs alone.
   */
  resumeOpenJobs?: boolean;
  /**
   * Scheduled workers run on their interval (the points expiry). Default: the table's when this
   * runtime starts its own engines; none on engines it was given (the test suite's table is shared,
   * and a sweep would write off other tests' points).
   */
  scheduledWorkers?: readonly ScheduledWorkerDef[];
  /** Milliseconds between scheduled runs instead of each worker's `everyMinutes` (tests). */
  scheduleEveryMs?: number;
  /**
   * The table stream's consumers (the webhooks outbox, infra/local/stream-poller.ts). Default: the
   * table's when this runtime starts its own engines; none on engines it was given (the test
   * suite's table is shared: its stream holds every test's changes).
   */
  streamWorkers?: readonly StreamWorkerDef[];
}

export interface LocalRuntime {
  apiUrl: string;
  downloadUrl: string;
  engines: EngineEndpoints;
  devKey: IssuedKeyPair;
  /** The dev project's client-side pair (`/client/v1/*`) and its trusted origins. */
  devClientKey: IssuedKeyPair & { origins: readonly string[] };
  /** The operator's management key pair (`/management/v1/*` only). */
  devManagementKey: IssuedManagementKey;
  /** The scheduled workers' local timers, by worker name (`runNow` runs one at once). */
  schedules: ReadonlyMap<string, LocalSchedule>;
  /**
   * Stops taking messages, lets each job in hand reach its next checkpoint (it stays open and is
   * resumed by the next start), then stops the servers and, if it started them, the engines. Idempotent.
   */
  stop(): Promise<void>;
}

/**
 * The engines handler modules were pointed at in this process. Handlers build their runtime
 * from the environment once per process (as once per Lambda container), so one process can
 * serve one set of engines.
 */
let boundDynamoEndpoint: string | undefined;
const dataDirsInUse = new Set<string>();

function bindHandlerEnvironment(engines: EngineEndpoints, logLevel: LogLevel): void {
  if (boundDynamoEndpoint !== undefined && boundDynamoEndpoint !== engines.dynamoEndpoint) {
    throw new Error(`Handlers in this process already use DynamoDB at ${boundDynamoEndpoint}; one process serves one set of engines`);
  }
  Object.assign(process.env, handlerEnvironment(engines, logLevel));
  boundDynamoEndpoint = engines.dynamoEndpoint;
}

const endpointsOf = (engines: EngineEndpoints | Engines): EngineEndpoints => ({
  dynamoEndpoint: engines.dynamoEndpoint,
  s3Endpoint: engines.s3Endpoint,
  sqsEndpoint: engines.sqsEndpoint,
  region: engines.region,
  tableName: engines.tableName,
  bucketName: engines.bucketName,
  queueUrls: { ...engines.queueUrls },
});

/**
 * A worker's handler, built with `stop` through its `makeHandler` (Ports.stop) where it has one,
 * so a job in hand stops at its next checkpoint when the runtime stops.
 */
async function loadWorkerHandler(worker: WorkerDef, stop: AbortSignal, onSettled: (key: string) => void): Promise<SqsWorkerHandler> {
  const mod = (await import(pathToFileURL(join(repoRoot, worker.handler)).href)) as Record<string, unknown>;
  if (typeof mod.makeHandler === 'function')
    return (mod.makeHandler as (ports: { stop: AbortSignal; onSettled: (key: string) => void }) => SqsWorkerHandler)({ stop, onSettled });
  if (typeof mod.handler !== 'function') throw new Error(`${worker.handler} has no handler export`);
  return mod.handler as SqsWorkerHandler;
}

/**
 * Runs the whole service locally: engines (or the given ones), the handler environment, the dev
 * key pair, one HTTP server per cluster calling the same handler modules Lambda runs, and one
 * SQS poller per worker. Before the pollers start, the open jobs of a table it owns go back on
 * the queue (the local queue is in memory: a killed run loses its messages). Writes
 * `<dataDir>/runtime.json` while it runs (not in memory).
 * @throws JavaMissingError when it has to start DynamoDB Local and Java 17+ is missing.
 * @throws Error when the data folder is in use by another runtime, a port is taken, or a
 * handler module does not load; whatever was started is stopped first.
 */
export async function startLocal(options: StartLocalOptions): Promise<LocalRuntime> {
  const logLevel = options.logLevel ?? 'info';
  const logger = options.logger ?? createLogger(logLevel);
  const dataDir = options.dataDir === null ? null : resolve(options.dataDir);
  const host = options.host ?? '127.0.0.1';
  const routes = options.routes ?? routeTable;
  const workers = options.workers ?? workerTable;

  const cleanups: Array<() => Promise<void> | void> = [];
  const stopAll = async (): Promise<void> => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  };

  try {
    if (dataDir !== null) {
      mkdirSync(dataDir, { recursive: true });
      assertDataDirFree(dataDir, dataDirsInUse.has(dataDir));
      dataDirsInUse.add(dataDir);
      cleanups.push(() => {
        dataDirsInUse.delete(dataDir);
      });
    }

    let engines: EngineEndpoints;
    const resume = options.resumeOpenJobs ?? options.engines === undefined;
    if (options.engines) engines = endpointsOf(options.engines);
    else {
      const polled = (options.streamWorkers ?? streamTable).length > 0;
      const started = await startEngines({ dataDir, stream: polled });
      cleanups.push(() => started.stop());
      engines = endpointsOf(started);
    }
    bindHandlerEnvironment(engines, logLevel);

    const ddb = createDocumentClient({ region: engines.region, endpoint: engines.dynamoEndpoint });
    cleanups.push(() => ddb.destroy());
    const devKey = await ensureDevKey({ ddb, tableName: engines.tableName, clock: systemClock, ids: randomIds }, { dataDir, fixed: options.devKey });

    // Known once the servers listen (port 0 lets the system choose); read by the OpenAPI document's handler per request.
    const listening = { api: '', download: '' };
    const wrap = withLocalServers(() => listening, options.wrapHandler);
    const loadModule = moduleHandlerLoader(repoRoot);
    const wrapped = new Map<RouteDef, Promise<ApiHandler>>();
    const loadHandler: HandlerLoader = (route) => {
      let handler = wrapped.get(route);
      if (!handler) wrapped.set(route, (handler = loadModule(route).then((h) => wrap(route, h))));
      return handler;
    };
    // Loaded up front: a broken handler module fails the start, not some later request.
    await Promise.all([...routes, routeNotFoundRoute].map((route) => loadHandler(route)));
    const serve = async (cluster: RouteDef['cluster'], port: number, portVariable: string): Promise<LocalHttpServer> => {
      const server = await startHttpServer({
        routes: routes.filter((r) => r.cluster === cluster),
        fallback: routeNotFoundRoute,
        port,
        portVariable,
        host,
        logger,
        loadHandler,
        requestTimeoutMs: options.requestTimeoutMs,
      });
      cleanups.push(() => server.close());
      return server;
    };
    const api = await serve('api', options.port ?? 3000, 'PORT');
    const download = await serve('download', options.downloadPort ?? 3001, 'DOWNLOAD_PORT');
    const urlHost = host === '127.0.0.1' || host === '0.0.0.0' || host === '::' ? 'localhost' : host;
    const apiUrl = `http://${urlHost}:${api.port}`;
    const downloadUrl = `http://${urlHost}:${download.port}`;
    listening.api = apiUrl;
    listening.download = downloadUrl;
    // Known only now (the port may be chosen by the system); handlers read their config on first request.
    process.env.DOWNLOAD_BASE_URL = downloadUrl;
    // The client key's default origins are this runtime's own, so a page it serves (or a dev server told by DEV_CLIENT_ORIGINS) works at once.
    const clientOrigins = options.devClientOrigins ?? [`http://localhost:${api.port}`, `http://127.0.0.1:${api.port}`];
    const devClientKey = {
      ...(await ensureDevClientKey({ ddb, tableName: engines.tableName, clock: systemClock, ids: randomIds }, devKey.project_id, {
        dataDir,
        fixed: options.devClientKey,
        origins: clientOrigins,
      })),
      origins: clientOrigins,
    };
    const devManagementKey = await ensureDevManagementKey(
      { ddb, tableName: engines.tableName, clock: systemClock, ids: randomIds },
      { dataDir, fixed: options.devManagementKey },
    );
    // A laptop's storefront should work at once: the dev project has the client-side switches on (a new project has them off).
    await setClientSwitches({ ddb, tableName: engines.tableName, clock: systemClock, ids: randomIds }, devKey.project_id, {
      clientRedeemEnabled: true,
      clientPublishEnabled: true,
      clientLoyaltyEventsEnabled: true,
    });

    // The outbox's poller, once started: the delivery worker tells it of each delivery that settled (its checkpoint waits for them).
    let streamPoller: StreamPoller | undefined;
    const onSettled = (key: string): void => streamPoller?.settled(key);

    if (workers.length > 0) {
      const sqsClient = new SQSClient({
        region: engines.region,
        endpoint: engines.sqsEndpoint,
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      });
      cleanups.push(() => sqsClient.destroy());
      if (resume) {
        // Each open job goes back on its kind's queue (lib/jobs/job.ts `jobKinds`), where its worker polls.
        const jobs = createSqsJobQueue({ region: engines.region, queueUrls: engines.queueUrls, sqsEndpoint: engines.sqsEndpoint });
        const report = await resumeOpenJobs({ ddb, tableName: engines.tableName, logger }, jobs);
        if (report.resumed.length + report.cleared.length + report.failed.length > 0) {
          logger.info('open jobs resumed', { resumed: report.resumed.length, cleared: report.cleared.length, failed: report.failed.length });
        }
      }
      const stopJobs = new AbortController();
      const pollers: SqsPoller[] = [];
      cleanups.push(() => {
        stopJobs.abort();
        return Promise.all(pollers.map((p) => p.stop())).then(() => undefined);
      });
      for (const worker of workers) {
        // The jobs worker reads the jobs queue; the dead-letter worker reads its dead-letter queue, as in AWS.
        const consumed = consumedQueueName(worker);
        const queueUrl = engines.queueUrls[consumed];
        if (!queueUrl) throw new Error(`Worker ${worker.name} consumes ${consumed}, which the engines did not create`);
        pollers.push(
          startSqsPoller({
            sqsClient,
            queueUrl,
            handler: await loadWorkerHandler(worker, stopJobs.signal, onSettled),
            batchSize: worker.batchSize,
            timeoutSeconds: worker.timeoutSeconds,
            functionName: worker.name,
            logger,
          }),
        );
      }
    }

    for (const worker of options.streamWorkers ?? (options.engines === undefined ? streamTable : [])) {
      const mod = (await import(pathToFileURL(join(repoRoot, worker.handler)).href)) as {
        makeHandler: (ports: { onEnqueued: (sequence: string, keys: string[]) => void }) => StreamWorkerHandler;
      };
      const handler = mod.makeHandler({ onEnqueued: (sequence, keys) => streamPoller?.onEnqueued(sequence, keys) });
      const poller = startStreamPoller({
        dynamoEndpoint: engines.dynamoEndpoint,
        region: engines.region,
        tableName: engines.tableName,
        entities: worker.entities,
        batchSize: worker.batchSize,
        handler,
        checkpointFile: dataDir === null ? null : join(dataDir, `${worker.name}.checkpoint.json`),
        logger,
        functionName: worker.name,
      });
      streamPoller = poller;
      cleanups.push(() => poller.stop());
    }

    const schedules = new Map<string, LocalSchedule>();
    for (const worker of options.scheduledWorkers ?? (options.engines === undefined ? scheduledTable : [])) {
      const stop = new AbortController();
      const schedule = startSchedule({
        worker,
        handler: await loadScheduledHandler(repoRoot, worker, stop.signal),
        logger,
        stop,
        everyMs: options.scheduleEveryMs,
      });
      schedules.set(worker.name, schedule);
      cleanups.push(() => schedule.stop());
    }

    const announced = { pid: process.pid, dynamoEndpoint: engines.dynamoEndpoint, tableName: engines.tableName, region: engines.region, apiUrl, downloadUrl };
    if (dataDir !== null) {
      writeRuntimeFile(dataDir, announced);
      cleanups.push(() => removeRuntimeFile(dataDir));
    } else if (options.announceIn !== undefined) {
      const folder = resolve(options.announceIn);
      writeInMemoryRuntimeFile(folder, announced);
      cleanups.push(() => removeInMemoryRuntimeFile(folder));
    }

    let stopping: Promise<void> | undefined;
    return {
      apiUrl,
      downloadUrl,
      engines,
      devKey,
      devClientKey,
      devManagementKey,
      schedules,
      stop: () => {
        stopping ??= stopAll();
        return stopping;
      },
    };
  } catch (error) {
    await stopAll().catch(() => undefined);
    throw error;
  }
}
