import { downloadExportRoute } from '../../lib/api/routes.js';
import { downloadExportQuery, exportParams } from '../../lib/exports/export.schema.js';
import { downloadExport } from '../../lib/exports/export.service.js';
import { containerExportLinks } from '../../lib/exports/s3-presigner.js';
import { openEndpoint } from '../../lib/http/endpoint.js';
import { redirect } from '../../lib/http/reply.js';

export const schemas = { params: exportParams, query: downloadExportQuery };

/** The download cluster: the token is the credential; the file comes from a presigned S3 URL (no 6 MB response limit). */
export const makeHandler = openEndpoint(
  downloadExportRoute,
  schemas,
  async ({ runtime, ports, params, query }) => redirect(await downloadExport({ ...runtime, files: ports.links }, params.exportId, query.token ?? '')),
  { links: containerExportLinks },
);

export const handler = makeHandler();
