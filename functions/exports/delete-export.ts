import { deleteExportRoute } from '../../lib/api/routes.js';
import { exportParams } from '../../lib/exports/export.schema.js';
import { deleteExport } from '../../lib/exports/export.service.js';
import { containerExportLinks } from '../../lib/exports/s3-presigner.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { noContent } from '../../lib/http/reply.js';

export const schemas = { params: exportParams };

export const makeHandler = endpoint(
  deleteExportRoute,
  schemas,
  async ({ runtime, ports, principal, params }) => {
    await deleteExport({ ...runtime, files: ports.links }, principal.projectId, params.exportId);
    return noContent();
  },
  { links: containerExportLinks },
);

export const handler = makeHandler();
