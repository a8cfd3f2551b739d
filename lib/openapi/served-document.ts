import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { compressedOpenApiDocument } from './compressed-document.js';

/*
 * The document travels inside the GET /v1/openapi.json bundle compressed: as plain JSON (~125 KB
 * minified) it would push that function over the 400 KiB bundle limit; brotli makes it ~8 KB.
 */

/** What `npm run openapi` writes to compressed-document.ts for a document text. */
export function compressDocument(text: string): string {
  return brotliCompressSync(Buffer.from(text, 'utf8'), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).toString('base64');
}

/** The text that compressed-document.ts holds. */
export function decompressDocument(base64: string): string {
  return brotliDecompressSync(Buffer.from(base64, 'base64')).toString('utf8');
}

let parsed: unknown;

/** The committed OpenAPI document (docs/openapi.json), decompressed once per container. */
export function getOpenapiDocument(): unknown {
  parsed ??= JSON.parse(decompressDocument(compressedOpenApiDocument)) as unknown;
  return parsed;
}
