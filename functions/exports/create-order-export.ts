import { createOrderExportRoute } from '../../lib/api/routes.js';
import { createOrderExport } from '../../lib/exports/export-doors.service.js';
import { toExportReply } from '../../lib/exports/export.mapper.js';
import { createOrderExportBody } from '../../lib/exports/export.schema.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';

export const schemas = { body: createOrderExportBody };

export const makeHandler = endpoint(
  createOrderExportRoute,
  schemas,
  async ({ runtime, ports, principal, body }) =>
    ok(toExportReply(await createOrderExport({ ...runtime, jobs: ports.jobs }, principal.projectId, body, principal.appId))),
  { jobs: containerJobQueue },
);

export const handler = makeHandler();
