import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { localResources } from '../../infra/local/resources.js';
import { jobsWorker } from '../../infra/workers.js';
import type { ExportFiles } from '../../lib/exports/export-files.js';
import { containerExportFiles } from '../../lib/exports/s3-export-files.js';
import { handleJobRecords } from '../../lib/jobs/job-worker.js';
import { defaultRuntime, type Runtime } from '../../lib/runtime.js';

const queue = localResources.queues.find((q) => q.name === jobsWorker.queue);
if (!queue) throw new Error(`Unknown queue ${jobsWorker.queue}`);
const { maxReceiveCount } = queue;

/**
 * The jobs-queue worker (the queue's only consumer): generates the vouchers of bulk async actions
 * and writes export files (`files`: the export bucket, built on the first export job).
 */
export const makeHandler = (runtime?: Runtime, files: ExportFiles = containerExportFiles) =>
  middy<SQSEvent, SQSBatchResponse>({ timeoutEarlyInMillis: 0 }).handler(async (event, context) =>
    handleJobRecords({ ...(runtime ?? defaultRuntime()), files }, event.Records, { maxReceiveCount, lambdaRequestId: context.awsRequestId }),
  );

export const handler = makeHandler();
