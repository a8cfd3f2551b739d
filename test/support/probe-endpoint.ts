import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import type { RouteDef } from '../../lib/http/route.js';

/**
 * A route shaped like the voucher endpoints (bearer tokens accepted, `vouchers` scope), whose
 * handler echoes who called. It exercises the real authentication chain before those
 * endpoints exist, and keeps doing so independently of them.
 */
export const probeRoute: RouteDef = {
  operationId: 'test-probe',
  method: 'DELETE',
  path: '/v1/probe/{code}',
  handler: 'test/support/probe-endpoint.ts',
  access: 'read',
  auth: { keyPair: true, bearer: true, serviceOAuthHeader: true },
  scope: { side: 'server', scopes: ['vouchers'] },
  body: 'none',
  cluster: 'api',
  summary: 'test probe',
};

export const makeProbeHandler = endpoint(probeRoute, {}, async ({ principal }) =>
  ok({ project_id: principal.projectId, app_id: principal.appId, via: principal.via }),
);
