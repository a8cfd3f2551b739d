import middy from '@middy/core';
import type { ScheduledEvent } from 'aws-lambda';
import type { Ports } from '../../lib/http/endpoint.js';
import { runDeadline } from '../../lib/jobs/job-stop.js';
import { childLogger } from '../../lib/logger.js';
import { type OrderLoyaltySweepReport, sweepOrderLoyalty } from '../../lib/orders/order-loyalty.job.js';
import { defaultRuntime } from '../../lib/runtime.js';

/** Time left for the run's last page once it stops starting new ones. */
const MARGIN_MS = 30_000;

/**
 * The order loyalty worker, invoked by its schedule (lib/api/workers.ts `orderLoyaltyWorker`): one
 * sweep of the marked orders. `stop`: the local runtime's shutdown signal.
 */
export const makeHandler = ({ runtime, stop }: Ports = {}) =>
  middy<ScheduledEvent, OrderLoyaltySweepReport>({ timeoutEarlyInMillis: 0 }).handler(async (_event, context) => {
    const base = runtime ?? defaultRuntime();
    const logger = childLogger(base.logger, { lambda_request_id: context.awsRequestId });
    return sweepOrderLoyalty({ ...base, logger }, { signal: stop, deadline: runDeadline(context.getRemainingTimeInMillis?.(), MARGIN_MS) });
  });

export const handler = makeHandler();
