import { describe, expect, it } from 'vitest';
import { apiClient } from '../../support/api-client.js';
import { type WatchedCall, watchCalls } from '../../support/read-rounds.js';
import { keyPairHeaders, managementHeaders, newManagementKey, newProject, testRuntime } from '../../support/runtime.js';

type Json = Record<string, unknown>;

const strict = { size: { type: 'number', optional: false, array: false } };

/** A project with one voucher, with or without metadata schemas for every object a redemption writes or names; the calls of one validation and one redemption. */
async function callsOfCheckout(withSchemas: boolean): Promise<{ validation: WatchedCall[]; redemption: WatchedCall[] }> {
  const runtime = testRuntime();
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const made = await api.call('create-voucher', {
    params: { code: 'HOT-1' },
    json: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } },
  });
  expect(made.status).toBe(200);
  if (withSchemas) {
    const management = apiClient({ runtime }, managementHeaders(await newManagementKey(runtime)));
    for (const relatedObject of ['customer', 'order', 'redemption', 'voucher', 'campaign', 'product']) {
      const reply = await management.call('create-metadata-schema', {
        params: { projectId: pair.project_id },
        json: { related_object: relatedObject, allow_defined_only: true, properties: strict },
      });
      expect(reply.status).toBe(200);
    }
  }
  const request: Json = {
    redeemables: [{ object: 'voucher', id: 'HOT-1' }],
    order: { source_id: 'hot-order', amount: 1000, metadata: { size: 'XL', extra: 1 } },
    customer: { source_id: 'hot-customer', metadata: { size: 'XL', extra: 1 } },
    metadata: { size: 'XL', extra: 1 },
  };
  let calls: WatchedCall[] = [];
  watchCalls(runtime, (call) => calls.push(call));
  const validated = await api.call('validate-stacked-discounts', { json: request });
  expect(validated.status).toBe(200);
  const validation = calls;
  calls = [];
  const redeemed = await api.call('redeem-stacked-discounts', { json: request });
  expect(redeemed.status, JSON.stringify(redeemed.json)).toBe(200);
  return { validation, redemption: calls };
}

const shape = (calls: WatchedCall[]) => calls.map((c) => `${c.round}:${c.name}`).sort();
const touchesSchemas = (calls: WatchedCall[]) => calls.filter((c) => JSON.stringify(c.input).includes('METADATA_SCHEMA'));

describe('metadata schemas and the checkout', () => {
  it('add no read to a validation or a redemption: the same calls in the same rounds, none of them a schema', async () => {
    const without = await callsOfCheckout(false);
    const withSchemas = await callsOfCheckout(true);
    expect(touchesSchemas(withSchemas.validation)).toEqual([]);
    expect(touchesSchemas(withSchemas.redemption)).toEqual([]);
    expect(shape(withSchemas.validation)).toEqual(shape(without.validation));
    expect(shape(withSchemas.redemption)).toEqual(shape(without.redemption));
    expect(withSchemas.redemption.length).toBeGreaterThan(0);
  });
});
