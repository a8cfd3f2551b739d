import { DiscountVouchersTypesEnum, VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProject, type IssuedKeyPair } from '../../lib/app-keys/app-key.service.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { testRuntime } from '../support/runtime.js';

/**
 * One campaign template round trip against the local server: the SDK has no template methods, so
 * the template calls go over plain HTTP, and the campaign made from the template is then used
 * through the official SDK. Every reply is checked against docs/openapi.json by the server wrapper.
 */
let runtime: OwnLocalRuntime;
let pair: IssuedKeyPair;
let client: ReturnType<typeof VoucherifyServerSide>;

beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('templates');
  pair = await createProject(testRuntime(), 'templates project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: runtime.local.apiUrl });
});

afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

async function send(method: string, path: string, json?: unknown) {
  const headers: Record<string, string> = { 'X-App-Id': pair.app_id, 'X-App-Token': pair.app_token };
  if (json !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${runtime.local.apiUrl}${path}`, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : undefined) as Record<string, unknown> };
}

describe('campaign templates over plain HTTP, the campaign they make through the SDK', () => {
  it('creates a template from a campaign, sets a campaign up from it, and the new campaign takes vouchers with its code config', async () => {
    const source = await client.campaigns.create({
      name: 'Autumn',
      campaign_type: 'DISCOUNT_COUPONS',
      type: 'AUTO_UPDATE',
      voucher: {
        type: 'DISCOUNT_VOUCHER',
        discount: { type: DiscountVouchersTypesEnum.PERCENT, percent_off: 20 },
        code_config: { pattern: 'AUT-####', charset: '0123456789' },
      },
      metadata: { season: 'autumn' },
    });

    const template = await send('POST', '/v1/templates/campaigns', { name: 'Autumn template', campaign_id: source.id });
    expect(template.status).toBe(200);
    const templateId = String(template.json.id);
    expect((await send('GET', `/v1/templates/campaigns/${templateId}`)).json).toEqual(template.json);
    const listed = await send('GET', '/v1/templates/campaigns?include_total=true');
    expect(listed.json).toMatchObject({ object: 'list', data_ref: 'data', data: [{ id: templateId }], total: 1, has_more: false });

    const setup = await send('POST', `/v1/templates/campaigns/${templateId}/campaign-setup`, {
      name: 'Autumn 2027',
      metadata: { season: 'autumn', year: 2027 },
    });
    expect(setup.status).toBe(200);
    expect(setup.json).toMatchObject({ created_resources: [], object: 'campaign_setup' });
    const campaignId = String((setup.json.campaign as { id: string }).id);

    const campaign = await client.campaigns.get(campaignId);
    expect(campaign).toMatchObject({
      name: 'Autumn 2027',
      campaign_type: 'DISCOUNT_COUPONS',
      voucher: { discount: { type: 'PERCENT', percent_off: 20 }, code_config: { pattern: 'AUT-####' } },
      metadata: { season: 'autumn', year: 2027 },
    });
    const voucher = (await client.campaigns.addVoucher(campaignId)) as { code: string; campaign_id?: string };
    expect(voucher.code).toMatch(/^AUT-\d{4}$/);
    expect(((await client.vouchers.get(voucher.code)) as unknown as { campaign_id: string }).campaign_id).toBe(campaignId);
    expect((await client.campaigns.get(campaignId)).vouchers_count).toBe(1);

    expect((await send('DELETE', `/v1/templates/campaigns/${templateId}`)).status).toBe(204);
    expect((await send('GET', `/v1/templates/campaigns/${templateId}`)).status).toBe(404);
    expect((await client.campaigns.get(campaignId)).vouchers_count).toBe(1);
  });
});
