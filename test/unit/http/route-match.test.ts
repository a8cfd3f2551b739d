import { describe, expect, it } from 'vitest';
import { routes } from '../../../lib/api/routes.js';
import { findRoute } from '../../../lib/http/route-match.js';

const operationOf = (method: string, path: string): string | null => {
  const found = findRoute(routes, method, path);
  return 'match' in found ? found.match.route.operationId : null;
};

describe('findRoute', () => {
  it('prefers the literal route over a parameter, as API Gateway does, whatever the order of the table', () => {
    expect(operationOf('POST', '/v1/vouchers/import')).toBe('import-vouchers');
    expect(operationOf('POST', '/v1/vouchers/IMPORT')).toBe('create-voucher');
    expect(operationOf('POST', '/v1/vouchers/CODE-1')).toBe('create-voucher');
    expect(operationOf('GET', '/v1/vouchers/import')).toBe('get-voucher');
    expect(operationOf('POST', '/v1/campaigns/camp_1/import')).toBe('import-vouchers-to-campaign');
  });

  it('lists the methods a path supports when none matches', () => {
    expect(findRoute(routes, 'PATCH', '/v1/vouchers')).toEqual({ allowed: ['GET', 'POST'] });
  });
});
