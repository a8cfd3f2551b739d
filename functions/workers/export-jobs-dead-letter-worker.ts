import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { queueNamed } from '../../lib/api/resources.js';
import { exportJobsDeadLetterWorker } from '../../lib/api/workers.js';
import type { Ports } from '../../lib/http/endpoint.js';
import { handleDeadLetterRecords } from '../../lib/jobs/dead-letter.js';
import { defaultRuntime } from '../../lib/runtime.js';

const { maxReceiveCount } = queueNamed(exportJobsDeadLetterWorker.queue);

/**
 * The export jobs dead-letter queue's consumer: marks ERROR each export whose job's last delivery
 * died without an answer (lib/jobs/dead-letter.ts, the same code as the jobs dead-letter consumer).
 */
export const makeHandler = ({ runtime }: Ports = {}) =>
  middy<SQSEvent, SQSBatchResponse>({ timeoutEarlyInMillis: 0 }).handler(async (event, context) =>
    handleDeadLetterRecords(runtime ?? defaultRuntime(), event.Records, { maxReceiveCount, lambdaRequestId: context.awsRequestId }),
  );

export const handler = makeHandler();
