import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { type RouteDef, route } from '../../lib/api/route.js';

/**
 * A route shaped like the voucher endpoints (bearer tokens accepted, `vouchers` scope), whose
 * handler echoes who called. It exercises the real authentication chain before those
 * endpoints exist, and keeps doing so independently of them.
 */
export const probeRoute: RouteDef = {
  ...route({
    operationId: 'test-probe',
    method: 'DELETE',
    path: '/v1/probe/{code}',
    folder: 'test',
    access: 'read',
    auth: { keyPair: true, bearer: true, serviceOAuthHeader: true },
    scopes: ['vouchers'],
    summary: 'test probe',
    tag: 'Test',
    success: [],
  }),
  handler: 'test/support/probe-endpoint.ts',
};

export const makeProbeHandler = endpoint(probeRoute, {}, async ({ principal }) =>
  ok({ project_id: principal.projectId, app_id: principal.appId, via: principal.via }),
);
