import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { queueNamed } from '../../lib/api/resources.js';
import { jobsWorker } from '../../lib/api/workers.js';
import { containerExportFiles } from '../../lib/exports/s3-export-files.js';
import type { Ports } from '../../lib/http/endpoint.js';
import { handleJobRecords } from '../../lib/jobs/job-worker.js';
import { defaultRuntime } from '../../lib/runtime.js';

const { maxReceiveCount } = queueNamed(jobsWorker.queue);

/**
 * The jobs-queue worker (the queue's only consumer): generates the vouchers of bulk async actions
 * and writes export files (`files`: the export bucket, built on the first export job). `stop`: the
 * local runtime's shutdown signal (jobs stop at their next checkpoint).
 */
export const makeHandler = ({ runtime, files = containerExportFiles, stop }: Ports = {}) =>
  middy<SQSEvent, SQSBatchResponse>({ timeoutEarlyInMillis: 0 }).handler(async (event, context) =>
    handleJobRecords({ ...(runtime ?? defaultRuntime()), files, signal: stop }, event.Records, {
      maxReceiveCount,
      lambdaRequestId: context.awsRequestId,
    }),
  );

export const handler = makeHandler();
