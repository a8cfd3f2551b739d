import middy from '@middy/core';
import type { ScheduledEvent } from 'aws-lambda';
import type { Ports } from '../../lib/http/endpoint.js';
import { runDeadline } from '../../lib/jobs/job-stop.js';
import { childLogger } from '../../lib/logger.js';
import { activateDuePendingPoints, type PendingSweepReport } from '../../lib/loyalties/pending-points.job.js';
import { defaultRuntime } from '../../lib/runtime.js';

/** Time left for the run's last page of activations once it stops starting new ones. */
const MARGIN_MS = 60_000;

/**
 * The pending points worker, invoked by its schedule (lib/api/workers.ts `pendingPointsWorker`):
 * one sweep of the due index. Returns the sweep's report (logged too). `stop`: the local runtime's
 * shutdown signal (the sweep stops between cards; the next run goes on).
 */
export const makeHandler = ({ runtime, stop }: Ports = {}) =>
  middy<ScheduledEvent, PendingSweepReport>({ timeoutEarlyInMillis: 0 }).handler(async (_event, context) => {
    const base = runtime ?? defaultRuntime();
    const logger = childLogger(base.logger, { lambda_request_id: context.awsRequestId });
    return activateDuePendingPoints({ ...base, logger }, { signal: stop, deadline: runDeadline(context.getRemainingTimeInMillis?.(), MARGIN_MS) });
  });

export const handler = makeHandler();
