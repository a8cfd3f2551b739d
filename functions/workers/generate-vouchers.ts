import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { localResources } from '../../infra/local/resources.js';
import { generateVouchersWorker } from '../../infra/workers.js';
import { handleJobRecords } from '../../lib/jobs/job-worker.js';
import { defaultRuntime, type Runtime } from '../../lib/runtime.js';

const queue = localResources.queues.find((q) => q.name === generateVouchersWorker.queue);
if (!queue) throw new Error(`Unknown queue ${generateVouchersWorker.queue}`);
const { maxReceiveCount } = queue;

/** The jobs-queue worker: generates the vouchers of bulk async actions. */
export const makeHandler = (runtime?: Runtime) =>
  middy<SQSEvent, SQSBatchResponse>({ timeoutEarlyInMillis: 0 }).handler(async (event) =>
    handleJobRecords(runtime ?? defaultRuntime(), event.Records, { maxReceiveCount }),
  );

export const handler = makeHandler();
