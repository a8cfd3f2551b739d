import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { JOBS_QUEUE, queueNamed } from '../../lib/api/resources.js';
import type { Ports } from '../../lib/http/endpoint.js';
import { handleJobRecords, type JobRunners } from '../../lib/jobs/job-worker.js';
import { defaultRuntime } from '../../lib/runtime.js';
import { runGenerateVouchersJob } from '../../lib/vouchers/generate-vouchers.job.js';
import { runDeleteCampaignVouchersJob } from '../../lib/campaigns/campaign-deletion.js';
import { runUpdateCampaignVouchersJob } from '../../lib/campaigns/campaign-vouchers-update.js';
import { runImportVouchersJob } from '../../lib/vouchers/voucher-import-job.js';
import { runBulkUpdateJob } from '../../lib/bulk/bulk-job.js';
import { runRemoveProjectDataJob } from '../../lib/projects/project-data-removal.js';

const { maxReceiveCount } = queueNamed(JOBS_QUEUE);

/** One row per job kind of the jobs queue (`jobKinds` rows with `queue: JOBS_QUEUE`; the type wants them all). */
const runners: JobRunners<typeof JOBS_QUEUE> = {
  'generate-vouchers': runGenerateVouchersJob,
  'voucher-import': runImportVouchersJob,
  'delete-campaign-vouchers': runDeleteCampaignVouchersJob,
  'update-campaign-vouchers': runUpdateCampaignVouchersJob,
  'bulk-update': runBulkUpdateJob,
  'remove-project-data': runRemoveProjectDataJob,
};

/**
 * The jobs-queue worker: the jobs that need only the table (bulk voucher generation, voucher imports, a deleted campaign's vouchers, a changed campaign's vouchers, a deleted project's data). No S3 or SQS
 * client in its bundle. `stop`: the local runtime's shutdown signal (jobs stop at their next checkpoint).
 */
export const makeHandler = ({ runtime, stop }: Ports = {}) =>
  middy<SQSEvent, SQSBatchResponse>({ timeoutEarlyInMillis: 0 }).handler(async (event, context) =>
    handleJobRecords({ ...(runtime ?? defaultRuntime()), signal: stop }, event.Records, {
      runners,
      maxReceiveCount,
      lambdaRequestId: context.awsRequestId,
    }),
  );

export const handler = makeHandler();
