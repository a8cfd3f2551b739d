import { zlib } from '../builtins.js';
import type * as z from '../zod.js';
import { compressedOpenApiDocument } from './compressed-document.js';
import type { openApiDocumentReplySchema } from './document.reply.js';

/*
 * The document travels inside the GET /v1/openapi.json bundle compressed: as plain JSON (~125 KB
 * minified) it would push that function over the 400 KiB bundle limit; brotli makes it ~8 KB.
 */

/** What `npm run openapi` writes to compressed-document.ts for a document text. */
export function compressDocument(text: string): string {
  return zlib()
    .brotliCompressSync(Buffer.from(text, 'utf8'), { params: { [zlib().constants.BROTLI_PARAM_QUALITY]: 11 } })
    .toString('base64');
}

/** The text that compressed-document.ts holds. */
export function decompressDocument(base64: string): string {
  return zlib().brotliDecompressSync(Buffer.from(base64, 'base64')).toString('utf8');
}

type OpenApiDocument = z.input<typeof openApiDocumentReplySchema>;

let parsed: OpenApiDocument | undefined;

/** The committed OpenAPI document (docs/openapi.json), decompressed once per container. */
export function getOpenapiDocument(): OpenApiDocument {
  // Generated from this very code by `npm run openapi`; a staleness test keeps it in step.
  parsed ??= JSON.parse(decompressDocument(compressedOpenApiDocument)) as OpenApiDocument;
  return parsed;
}
