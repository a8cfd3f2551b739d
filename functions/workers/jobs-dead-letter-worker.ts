import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { queueNamed } from '../../lib/api/resources.js';
import { jobsDeadLetterWorker } from '../../lib/api/workers.js';
import type { Ports } from '../../lib/http/endpoint.js';
import { handleDeadLetterRecords } from '../../lib/jobs/dead-letter.js';
import { defaultRuntime } from '../../lib/runtime.js';

const { maxReceiveCount } = queueNamed(jobsDeadLetterWorker.queue);

/**
 * The jobs dead-letter queue's consumer: marks the async action FAILED / the export ERROR of each
 * job whose last delivery died without an answer (lib/jobs/dead-letter.ts).
 */
export const makeHandler = ({ runtime }: Ports = {}) =>
  middy<SQSEvent, SQSBatchResponse>({ timeoutEarlyInMillis: 0 }).handler(async (event, context) =>
    handleDeadLetterRecords(runtime ?? defaultRuntime(), event.Records, { maxReceiveCount, lambdaRequestId: context.awsRequestId }),
  );

export const handler = makeHandler();
