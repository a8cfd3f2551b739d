import { describe, expect, it } from 'vitest';
import type { PointsExpirationField } from '../../../lib/exports/export.js';
import { compileFilters, exportFiltersSchema, normalizeFilters } from '../../../lib/exports/export-filters.js';
import { createPointsExpirationExportBody } from '../../../lib/exports/export.schema.js';

const row = (voucher: string, status = 'ACTIVE'): Record<PointsExpirationField, string> => ({
  id: `lopb_${voucher}`,
  campaign_id: 'camp_1',
  voucher_id: voucher,
  status,
  expires_at: '2030-01-01',
  points: '10',
});

const compile = (filters: unknown) => compileFilters(normalizeFilters(exportFiltersSchema.parse(filters)));

describe('export filters', () => {
  it('keeps rows whose field is $in the list and drops the others', () => {
    const match = compile({ voucher_id: { conditions: { $in: ['v_1', 'v_2'] } } });
    expect(match(row('v_1'))).toBe(true);
    expect(match(row('v_3'))).toBe(false);
  });

  it('applies $not_in, $is and $is_not', () => {
    expect(compile({ voucher_id: { conditions: { $not_in: ['v_1'] } } })(row('v_1'))).toBe(false);
    expect(compile({ status: { conditions: { $is: 'EXPIRED' } } })(row('v_1'))).toBe(false);
    expect(compile({ status: { conditions: { $is_not: 'EXPIRED' } } })(row('v_1'))).toBe(true);
  });

  it('combines fields with and by default, with or when the junction says so', () => {
    const filters = { voucher_id: { conditions: { $in: ['v_1'] } }, status: { conditions: { $is: 'EXPIRED' } } };
    expect(compile(filters)(row('v_1'))).toBe(false);
    expect(compile({ ...filters, junction: 'or' })(row('v_1'))).toBe(true);
    expect(compile({ ...filters, junction: 'or' })(row('v_2'))).toBe(false);
  });

  it('matches every row without filters', () => {
    expect(compile({ junction: 'and' })(row('v_9'))).toBe(true);
  });

  it('refuses unknown fields, unknown operators, empty conditions and other junctions', () => {
    expect(exportFiltersSchema.safeParse({ points: { conditions: { $in: ['1'] } } }).success).toBe(false);
    expect(exportFiltersSchema.safeParse({ voucher_id: { conditions: { $starts_with: 'v' } } }).success).toBe(false);
    expect(exportFiltersSchema.safeParse({ voucher_id: { conditions: {} } }).success).toBe(false);
    expect(exportFiltersSchema.safeParse({ junction: 'xor' }).success).toBe(false);
  });

  it('accepts the reference request body and accepts every field as an order (either way) and refuses other orders and repeated fields', () => {
    const body = {
      parameters: {
        fields: ['id', 'campaign_id', 'voucher_id', 'status', 'expires_at', 'points'],
        order: '-expires_at',
        filters: { junction: 'and', voucher_id: { conditions: { $in: ['v_a', 'v_b'] } } },
      },
    };
    expect(createPointsExpirationExportBody.safeParse(body).success).toBe(true);
    for (const order of ['points', '-points', 'id', '-voucher_id', 'campaign_id', '-status']) {
      expect(createPointsExpirationExportBody.safeParse({ parameters: { order } }).success, order).toBe(true);
    }
    for (const order of ['created_at', '-created_at', '--points', 'Points', '+id', '']) {
      expect(createPointsExpirationExportBody.safeParse({ parameters: { order } }).success, order).toBe(false);
    }
    expect(createPointsExpirationExportBody.safeParse({ parameters: { fields: ['id', 'id'] } }).success).toBe(false);
  });
});
