import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context, ScheduledEvent } from 'aws-lambda';
import type { ScheduledWorkerDef } from '../../lib/api/workers.js';
import { JobStoppedError } from '../../lib/jobs/job-stop.js';
import type { Logger } from '../../lib/logger.js';
import { lambdaContext } from './api-gateway-event.js';

/** A scheduled worker's `handler` export, as EventBridge's Lambda target calls it. */
export type ScheduledWorkerHandler = (event: ScheduledEvent, context: Context) => Promise<unknown>;

export interface LocalSchedule {
  /** Stops the timer, raises the stop signal for a run in hand and waits for it to end. */
  stop(): Promise<void>;
  /** Runs the worker now, unless a run is in hand (then waits for that one); resolves when it ends. */
  runNow(): Promise<void>;
  /** The run made at start: `npm start` waits for it (briefly) so its log lines come before the banner. */
  firstRun: Promise<void>;
}

/** The event EventBridge hands a scheduled Lambda target. */
const scheduledEvent = (worker: ScheduledWorkerDef): ScheduledEvent => ({
  version: '0',
  id: randomUUID(),
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
  account: '000000000000',
  time: new Date().toISOString(),
  region: 'local',
  resources: [`arn:aws:events:local:000000000000:rule/${worker.name}`],
  detail: {},
});

/** Loads a scheduled worker's handler, built with `stop` through its `makeHandler` (Ports.stop) where it has one. */
export async function loadScheduledHandler(root: string, worker: ScheduledWorkerDef, stop: AbortSignal): Promise<ScheduledWorkerHandler> {
  const mod = (await import(pathToFileURL(join(root, worker.handler)).href)) as Record<string, unknown>;
  if (typeof mod.makeHandler === 'function') return (mod.makeHandler as (ports: { stop: AbortSignal }) => ScheduledWorkerHandler)({ stop });
  if (typeof mod.handler !== 'function') throw new Error(`${worker.handler} has no handler export`);
  return mod.handler as ScheduledWorkerHandler;
}

/**
 * The local stand-in for an EventBridge schedule: calls the worker's handler once at start and then
 * every `everyMs` (default the worker's `everyMinutes`), never two runs at once (a tick that finds a
 * run in hand is skipped, as the work is resumable). A run that throws is logged and the next tick
 * tries again, as EventBridge's next invocation would.
 */
export function startSchedule(options: {
  worker: ScheduledWorkerDef;
  handler: ScheduledWorkerHandler;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  stop: AbortController;
  everyMs?: number | undefined;
}): LocalSchedule {
  const { worker, handler, logger } = options;
  let running: Promise<void> | null = null;
  const run = (): Promise<void> => {
    if (running) return running;
    running = (async () => {
      try {
        await handler(scheduledEvent(worker), lambdaContext(worker.name, worker.timeoutSeconds * 1000));
      } catch (error) {
        if (error instanceof JobStoppedError) logger.info('scheduled worker stopped for shutdown', { worker: worker.name });
        else
          logger.error('scheduled worker failed', { worker: worker.name, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
      } finally {
        running = null;
      }
    })();
    return running;
  };
  const timer = setInterval(() => void run(), options.everyMs ?? worker.everyMinutes * 60_000);
  timer.unref();
  const firstRun = run();
  return {
    firstRun,
    runNow: run,
    stop: async () => {
      clearInterval(timer);
      options.stop.abort();
      await running;
    },
  };
}
