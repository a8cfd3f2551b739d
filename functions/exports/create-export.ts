import { createExportRoute } from '../../lib/api/routes.js';
import { toExportReply } from '../../lib/exports/export.mapper.js';
import { createExportBody } from '../../lib/exports/export.schema.js';
import { createExport } from '../../lib/exports/export.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';

export const schemas = { body: createExportBody };

export const makeHandler = endpoint(
  createExportRoute,
  schemas,
  async ({ runtime, ports, principal, body }) =>
    ok(toExportReply(await createExport({ ...runtime, jobs: ports.jobs }, principal.projectId, body, principal.appId))),
  { jobs: containerJobQueue },
);

export const handler = makeHandler();
