import * as z from '../zod.js';

/** GET /v1/openapi.json: an OpenAPI 3.1 document (its own structure is checked by test/unit/openapi). */
export const openApiDocumentReplySchema = z.looseObject({
  openapi: z.literal('3.1.0'),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
});
