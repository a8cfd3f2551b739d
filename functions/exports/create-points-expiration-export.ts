import { createPointsExpirationExportRoute } from '../../lib/api/routes.js';
import { toExportReply } from '../../lib/exports/export.mapper.js';
import { createPointsExpirationExportBody, loyaltyCampaignParams } from '../../lib/exports/export.schema.js';
import { createPointsExpirationExport } from '../../lib/exports/export.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';

export const schemas = { params: loyaltyCampaignParams, body: createPointsExpirationExportBody };

export const makeHandler = endpoint(
  createPointsExpirationExportRoute,
  schemas,
  async ({ runtime, ports, principal, params, body }) =>
    ok(toExportReply(await createPointsExpirationExport({ ...runtime, jobs: ports.jobs }, principal.projectId, params.campaignId, body, principal.appId))),
  { jobs: containerJobQueue },
);

export const handler = makeHandler();
