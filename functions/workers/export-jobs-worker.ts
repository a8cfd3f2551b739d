import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { EXPORT_JOBS_QUEUE, queueNamed } from '../../lib/api/resources.js';
import { runEraseCustomerJob } from '../../lib/customers/customer-erasure.job.js';
import { runExportJob, runPointsExpirationExportJob } from '../../lib/exports/points-expiration-export.job.js';
import { containerExportFiles } from '../../lib/exports/s3-export-files.js';
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
 * The export-jobs worker: writes export files, and erases customers, whose last stage rewrites
 * them (`files`: the export bucket, built on the first job that uses it), so it alone of the workers carries the S3 client. `stop`: the local runtime's
 * shutdown signal (jobs stop at their next checkpoint).
 */
export const makeHandler = ({ runtime, files = containerExportFiles, stop }: Ports = {}) =>
  middy<SQSEvent, SQSBatchResponse>({ timeoutEarlyInMillis: 0 }).handler(async (event, context) =>
    handleJobRecords({ ...(runtime ?? defaultRuntime()), files, signal: stop }, event.Records, {
      runners,
      maxReceiveCount,
      lambdaRequestId: context.awsRequestId,
    }),
  );

export const handler = makeHandler();
