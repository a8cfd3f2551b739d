import { getExportRoute } from '../../lib/api/routes.js';
import { containerDownloadBaseUrl } from '../../lib/exports/download-base.js';
import { toExportReply } from '../../lib/exports/export.mapper.js';
import { exportParams } from '../../lib/exports/export.schema.js';
import { getExport } from '../../lib/exports/export.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { params: exportParams };

export const makeHandler = endpoint(
  getExportRoute,
  schemas,
  async ({ runtime, ports, principal, params }) => {
    const { record, url } = await getExport(runtime, principal.projectId, params.exportId, ports.downloadBaseUrl);
    return ok(toExportReply(record, url));
  },
  { downloadBaseUrl: containerDownloadBaseUrl },
);

export const handler = makeHandler();
