import { getOpenapiDocumentRoute } from '../../lib/api/routes.js';
import { openEndpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { getOpenapiDocument } from '../../lib/openapi/served-document.js';

export const schemas = {};

/**
 * The committed OpenAPI document (npm run openapi). Public, and readable from any origin: it
 * holds no tenant data, and browser tools (Swagger UI, editors) load it from other sites.
 */
export const makeHandler = openEndpoint(getOpenapiDocumentRoute, schemas, async () => ({
  ...ok(getOpenapiDocument()),
  headers: { 'Access-Control-Allow-Origin': '*' },
}));

export const handler = makeHandler();
