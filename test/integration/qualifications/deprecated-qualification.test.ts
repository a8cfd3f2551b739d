import { describe, expect, it } from 'vitest';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

describe('the deprecated qualification calls (examine-vouchers-qualification, examine-campaign-qualification)', () => {
  it('refuses both with 400 deprecated_endpoint naming POST /v1/qualifications, whatever the body asks', async () => {
    const runtime = testRuntime();
    const api = apiClient({ runtime }, keyPairHeaders(await newProject(runtime)));
    const body = { customer: { source_id: 'c1', metadata: { tier: 'gold' } }, order: { amount: 10_000, items: [{ product_id: 'p1', quantity: 1 }] } };
    for (const operationId of ['examine-vouchers-qualification', 'examine-campaign-qualification']) {
      const reply = (await api.call(operationId, { json: body, query: 'audienceRulesOnly=true&limit=10&order=-created_at' })) as unknown as {
        status: number;
        json: { code: number; key: string; message: string; details: string; request_id?: string };
      };
      expect([operationId, reply.status, reply.json.code, reply.json.key, reply.json.message]).toEqual([
        operationId,
        400,
        400,
        'deprecated_endpoint',
        'Deprecated endpoint',
      ]);
      expect(reply.json.details).toContain('POST /v1/qualifications');
    }
  });

  it('still answers 401 without credentials (the refusal is for callers who may ask)', async () => {
    const runtime = testRuntime();
    const api = apiClient({ runtime }, {});
    const reply = (await api.call('examine-vouchers-qualification', { json: {} })) as unknown as { status: number; json: { key: string } };
    expect([reply.status, reply.json.key]).toEqual([401, 'unauthorized']);
  });
});
