import { getExportRoute } from '../../lib/api/routes.js';
import { containerDownloadBaseUrl } from '../../lib/exports/download-base.js';
import { toExportReply } from '../../lib/exports/export.mapper.js';
import { exportParams } from '../../lib/exports/export.schema.js';
import { getExportWithUrl } from '../../lib/exports/export.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import type { Runtime } from '../../lib/runtime.js';

export const schemas = { params: exportParams };

export const makeHandler = (runtime?: Runtime, downloadBaseUrl: () => string = containerDownloadBaseUrl) =>
  endpoint(getExportRoute, schemas, async ({ runtime, principal, params }) => {
    const { record, url } = await getExportWithUrl(runtime, principal.projectId, params.exportId, downloadBaseUrl);
    return ok(toExportReply(record, url));
  })(runtime);

export const handler = makeHandler();
