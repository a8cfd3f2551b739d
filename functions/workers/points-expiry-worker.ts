import middy from '@middy/core';
import type { Context, ScheduledEvent } from 'aws-lambda';
import type { Ports } from '../../lib/http/endpoint.js';
import { childLogger } from '../../lib/logger.js';
import { expirePoints } from '../../lib/loyalties/points-expiry.job.js';
import type { ExpirySweepReport } from '../../lib/loyalties/points-expiry.js';
import { defaultRuntime } from '../../lib/runtime.js';

/** Time left for the run's last page of write-offs once it stops starting new ones. */
const MARGIN_MS = 60_000;

/** When the run stops starting new pages: a margin before the function's time limit (none when the host gives no limit). */
function deadlineOf(context: Partial<Pick<Context, 'getRemainingTimeInMillis'>>): number | undefined {
  const left = context.getRemainingTimeInMillis?.();
  return left === undefined ? undefined : Date.now() + Math.max(left - MARGIN_MS, left / 2);
}

/**
 * The points expiry worker, invoked by its schedule (lib/api/workers.ts `pointsExpiryWorker`): one
 * sweep of the expiry index. Returns the sweep's report (logged too). `stop`: the local runtime's
 * shutdown signal (the sweep stops between cards; the next run goes on).
 */
export const makeHandler = ({ runtime, stop }: Ports = {}) =>
  middy<ScheduledEvent, ExpirySweepReport>({ timeoutEarlyInMillis: 0 }).handler(async (_event, context) => {
    const base = runtime ?? defaultRuntime();
    const logger = childLogger(base.logger, { lambda_request_id: context.awsRequestId });
    return expirePoints({ ...base, logger }, { signal: stop, deadline: deadlineOf(context) });
  });

export const handler = makeHandler();
