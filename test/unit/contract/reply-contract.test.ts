import { describe, expect, it } from 'vitest';
import { routeNotFoundRoute, getVoucherRoute, deleteVoucherRoute } from '../../../lib/api/routes.js';
import { candidateRoutes, contractProblems } from '../../support/reply-contract.js';

const json = { 'Content-Type': 'application/json; charset=utf-8' };
const error404 = JSON.stringify({ code: 404, key: 'not_found', message: 'Resource not found', request_id: 'v-1', resource_id: 'X', resource_type: 'voucher' });

describe('the reply contract check (docs/openapi.json)', () => {
  it('accepts a documented error reply', () => {
    expect(contractProblems(getVoucherRoute, { status: 404, headers: json, body: error404 })).toEqual([]);
  });

  it('flags an undocumented status, a wrong content type, a body that breaks the schema and a body where none is documented', () => {
    expect(contractProblems(getVoucherRoute, { status: 418, headers: json, body: error404 })).not.toEqual([]);
    expect(contractProblems(getVoucherRoute, { status: 404, headers: { 'Content-Type': 'text/plain' }, body: error404 })).not.toEqual([]);
    expect(contractProblems(getVoucherRoute, { status: 404, headers: json, body: JSON.stringify({ code: '404' }) })).not.toEqual([]);
    expect(contractProblems(deleteVoucherRoute, { status: 204, headers: {}, body: '{"deleted":true}' })).not.toEqual([]);
    expect(contractProblems(deleteVoucherRoute, { status: 204, headers: {}, body: '' })).toEqual([]);
  });

  it('checks unknown routes against the error object and finds both clusters for a shared path', () => {
    expect(contractProblems(routeNotFoundRoute, { status: 404, headers: json, body: error404 })).toEqual([]);
    expect(contractProblems(routeNotFoundRoute, { status: 200, headers: json, body: '{}' })).not.toEqual([]);
    expect(
      candidateRoutes('GET', '/v1/exports/exp_1')
        .map((r) => r.operationId)
        .sort(),
    ).toEqual(['download-export', 'get-export']);
    expect(candidateRoutes('GET', '/v1/nowhere')).toEqual([routeNotFoundRoute]);
  });
});
