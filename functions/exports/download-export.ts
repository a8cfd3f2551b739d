import { downloadExportRoute } from '../../lib/api/routes.js';
import { downloadExportQuery, exportParams } from '../../lib/exports/export.schema.js';
import { downloadExport, INLINE_DOWNLOAD_MAX_BYTES, verifyDownloadLink } from '../../lib/exports/export.service.js';
import { containerExportLinks } from '../../lib/exports/s3-presigner.js';
import { signedLinkEndpoint } from '../../lib/http/endpoint.js';
import { csvFile, redirect } from '../../lib/http/reply.js';

export const schemas = { params: exportParams, query: downloadExportQuery };

/**
 * The download cluster: the key pair, a bearer token, or the signed `token` of `result.url`. The file
 * comes in the reply when it fits one, else from a presigned S3 URL (Lambda's 6 MB response limit).
 */
export const makeHandler = signedLinkEndpoint(
  downloadExportRoute,
  schemas,
  (runtime, link) => verifyDownloadLink(runtime, link.pathParameters.exportId ?? '', link.token, link.sourceIp),
  async ({ runtime, ports, principal, params }) => {
    const download = await downloadExport({ ...runtime, files: ports.links }, principal.projectId, params.exportId, ports.inlineDownloadMaxBytes);
    return download.kind === 'file' ? csvFile(download.text, download.fileName) : redirect(download.location);
  },
  { links: containerExportLinks, inlineDownloadMaxBytes: INLINE_DOWNLOAD_MAX_BYTES },
);

export const handler = makeHandler();
