import { listExportsRoute } from '../../lib/api/routes.js';
import { containerDownloadBaseUrl } from '../../lib/exports/download-base.js';
import { toExportListReply } from '../../lib/exports/export.mapper.js';
import { listExportsQuery } from '../../lib/exports/export.schema.js';
import { listExports } from '../../lib/exports/export.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { query: listExportsQuery };

export const makeHandler = endpoint(
  listExportsRoute,
  schemas,
  async ({ runtime, ports, principal, query }) => ok(toExportListReply(await listExports(runtime, principal.projectId, query, ports.downloadBaseUrl))),
  { downloadBaseUrl: containerDownloadBaseUrl },
);

export const handler = makeHandler();
