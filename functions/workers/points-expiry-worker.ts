import middy from '@middy/core';
import type { ScheduledEvent } from 'aws-lambda';
import type { Ports } from '../../lib/http/endpoint.js';
import { runDeadline } from '../../lib/jobs/job-stop.js';
import { childLogger } from '../../lib/logger.js';
import { expirePoints } from '../../lib/loyalties/points-expiry.job.js';
import type { ExpirySweepReport } from '../../lib/loyalties/points-expiry.js';
import { defaultRuntime } from '../../lib/runtime.js';

/** Time left for the run's last page of write-offs once it stops starting new ones. */
const MARGIN_MS = 60_000;

/**
 * The points expiry worker, invoked by its schedule (lib/api/workers.ts `pointsExpiryWorker`): one
 * sweep of the expiry index. Returns the sweep's report (logged too). `stop`: the local runtime's
 * shutdown signal (the sweep stops between cards; the next run goes on).
 */
export const makeHandler = ({ runtime, stop }: Ports = {}) =>
  middy<ScheduledEvent, ExpirySweepReport>({ timeoutEarlyInMillis: 0 }).handler(async (_event, context) => {
    const base = runtime ?? defaultRuntime();
    const logger = childLogger(base.logger, { lambda_request_id: context.awsRequestId });
    return expirePoints({ ...base, logger }, { signal: stop, deadline: runDeadline(context.getRemainingTimeInMillis?.(), MARGIN_MS) });
  });

export const handler = makeHandler();
