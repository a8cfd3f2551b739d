import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { EXPORT_JOBS_QUEUE, queueNamed } from '../../lib/api/resources.js';
import { runEraseCustomerJob } from '../../lib/customers/customer-erasure.runner.js';
import { lazyExportFiles } from '../../lib/exports/lazy-export-files.js';
import { runExportJob, runPointsExpirationExportJob } from '../../lib/exports/points-expiration-export.job.js';
import type { Ports } from '../../lib/http/endpoint.js';
import { handleJobRecords, type JobRunners } from '../../lib/jobs/job-worker.js';
import { defaultRuntime } from '../../lib/runtime.js';

const { maxReceiveCount } = queueNamed(EXPORT_JOBS_QUEUE);

/** One row per job kind of the export jobs queue (`jobKinds` rows with `queue: EXPORT_JOBS_QUEUE`). */
const runners: JobRunners<typeof EXPORT_JOBS_QUEUE> = {
  'export-points-expiration': runPointsExpirationExportJob,
  export: runExportJob,
  // A customer's erasure reaches the export files too, so it runs where the S3 client is.
  'erase-customer': runEraseCustomerJob,
};

/**
 * The export bucket of this container. The S3 client, with s3-export-files.ts, the rows of an export and the erasure's
 * code, is in the package's lazy chunk (lib/exports/export-lane.lazy.ts; LAZY_CHUNK_HANDLERS in
 * infra/constructs/bundling-settings.ts): not loaded at cold start, but from the start of the first job, while it waits
 * for DynamoDB (docs/decisions.md "Worker cold start").
 */
const containerFiles = lazyExportFiles(async () => (await import('../../lib/exports/export-lane.lazy.js')).containerExportFiles);

/**
 * The export-jobs worker: writes export files, and erases customers, whose last stage rewrites
 * them (`files`: the export bucket, built on the first job that uses it), so it alone of the workers carries the S3 client. `stop`: the local runtime's
 * shutdown signal (jobs stop at their next checkpoint).
 */
export const makeHandler = ({ runtime, files, stop }: Ports = {}) =>
  middy<SQSEvent, SQSBatchResponse>({ timeoutEarlyInMillis: 0 }).handler(async (event, context) => {
    // Every kind of this queue needs the lazy chunk: it loads while the job's first DynamoDB call is in flight.
    if (!files) containerFiles.warm();
    return handleJobRecords({ ...(runtime ?? defaultRuntime()), files: files ?? containerFiles, signal: stop }, event.Records, {
      runners,
      maxReceiveCount,
      lambdaRequestId: context.awsRequestId,
    });
  });

export const handler = makeHandler();
