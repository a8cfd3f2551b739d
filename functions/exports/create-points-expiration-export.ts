import { createPointsExpirationExportRoute } from '../../lib/api/routes.js';
import { toExportReply } from '../../lib/exports/export.mapper.js';
import { createPointsExpirationExportBody, loyaltyCampaignParams } from '../../lib/exports/export.schema.js';
import { createPointsExpirationExport } from '../../lib/exports/export.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import type { JobQueue } from '../../lib/jobs/job.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';
import type { Runtime } from '../../lib/runtime.js';

export const schemas = { params: loyaltyCampaignParams, body: createPointsExpirationExportBody };

export const makeHandler = (runtime?: Runtime, jobs: JobQueue = containerJobQueue) =>
  endpoint(createPointsExpirationExportRoute, schemas, async ({ runtime, principal, params, body }) => {
    const record = await createPointsExpirationExport({ ...runtime, jobs }, principal.projectId, params.campaignId, body);
    return ok(toExportReply(record));
  })(runtime);

export const handler = makeHandler();
