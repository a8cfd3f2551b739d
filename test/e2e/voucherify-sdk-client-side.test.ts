import { VoucherifyClientSide, VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClientKey, createProject, setClientSwitches } from '../../lib/app-keys/app-key.service.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { testRuntime } from '../support/runtime.js';

let runtime: OwnLocalRuntime;
let server: ReturnType<typeof VoucherifyServerSide>;
let shop: ReturnType<typeof VoucherifyClientSide>;
let serverHeaders: Record<string, string>;
const ORIGIN = 'https://sdk-shop.example';

/** The official SDK's client side (a publishable key from a trusted origin) against the whole local runtime. */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-client-side');
  const pair = await createProject(testRuntime(), 'sdk client-side project');
  const clientKey = await createClientKey(testRuntime(), pair.project_id, { origins: [ORIGIN] });
  // Off for a new project, as in Voucherify: this shop lets its pages redeem, publish and earn.
  await setClientSwitches(testRuntime(), pair.project_id, { clientRedeemEnabled: true, clientPublishEnabled: true, clientLoyaltyEventsEnabled: true });
  serverHeaders = { 'X-App-Id': pair.app_id, 'X-App-Token': pair.app_token, 'Content-Type': 'application/json' };
  server = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: runtime.local.apiUrl });
  // In Node the SDK sends `origin` as the Origin header, as a browser would.
  shop = VoucherifyClientSide({ clientApplicationId: clientKey.app_id, clientSecretKey: clientKey.app_token, apiUrl: runtime.local.apiUrl, origin: ORIGIN });
});

afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

const order = { items: [{ product_id: 'prod_sdk', quantity: 2, price: 2000 }] };

describe('the official Voucherify SDK: client side', () => {
  it('validates and redeems stacked codes with a client key, on the server counters', async () => {
    await server.vouchers.create({
      code: 'SDK-CS-ONCE',
      type: 'DISCOUNT_VOUCHER',
      discount: { type: 'AMOUNT', amount_off: 500 },
      redemption: { quantity: 1 },
    } as never);
    const validation = await shop.validateStackable({
      redeemables: [{ object: 'voucher', id: 'SDK-CS-ONCE' }],
      order,
      customer: { source_id: 'sdk-cs-ann' },
    } as never);
    expect(validation.valid).toBe(true);
    expect(validation.order).toMatchObject({ amount: 4000, total_discount_amount: 500, total_amount: 3500 });
    const redemption = await shop.redeemStackable({
      redeemables: [{ object: 'voucher', id: 'SDK-CS-ONCE' }],
      order,
      customer: { source_id: 'sdk-cs-ann' },
    } as never);
    expect(redemption.redemptions).toHaveLength(1);
    expect(redemption.order).toMatchObject({ total_amount: 3500 });
    const stored = await server.vouchers.get('SDK-CS-ONCE');
    expect(stored.redemption?.redeemed_quantity).toBe(1);
    // The one use is gone for the client side too.
    await expect(shop.redeemStackable({ redeemables: [{ object: 'voucher', id: 'SDK-CS-ONCE' }], order } as never)).rejects.toMatchObject({ code: 400 });
  });

  it('answers qualifications for a client key', async () => {
    await server.vouchers.create({ code: 'SDK-CS-Q', type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } } as never);
    const qualified = await shop.qualifications({ customer: { source_id: 'sdk-cs-bob' }, order, scenario: 'ALL' } as never);
    expect(qualified.redeemables.data.map((r) => r.id)).toContain('SDK-CS-Q');
  });

  it('validates and redeems one code, publishes and tracks through the legacy client calls', async () => {
    await server.vouchers.create({ code: 'SDK-CS-ONE', type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 300 } } as never);
    const validation = await shop.validate({
      code: 'SDK-CS-ONE',
      amount: 2000,
      items: [{ product_id: 'prod_sdk', quantity: 2, price: 1000 }],
      customer: { source_id: 'sdk-cs-carl' },
    } as never);
    expect(validation).toMatchObject({ valid: true, code: 'SDK-CS-ONE' });
    expect((validation as unknown as { order: { total_amount: number } }).order.total_amount).toBe(1700);
    // An unknown code is a 404, as on POST /v1/vouchers/{code}/validate.
    await expect(shop.validate('SDK-CS-NONE')).rejects.toMatchObject({ code: 404 });

    const redemption = await shop.redeem('SDK-CS-ONE', { order: { amount: 2000 }, customer: { source_id: 'sdk-cs-carl' } } as never);
    expect(redemption).toMatchObject({ result: 'SUCCESS', voucher: { code: 'SDK-CS-ONE' } });

    await server.campaigns.create({
      name: 'SDK-CS-Welcome',
      type: 'AUTO_UPDATE',
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 5 }, code_config: { length: 8 } },
    } as never);
    const published = await shop.publish('SDK-CS-Welcome', { customer: { source_id: 'sdk-cs-dora' } } as never);
    expect(published).toMatchObject({ object: 'publication', customer: { source_id: 'sdk-cs-dora' } });

    // The SDK has no call for custom event schemas: defined over plain HTTP.
    const schema = await fetch(`${runtime.local.apiUrl}/v1/custom-event-schemas`, {
      method: 'POST',
      headers: serverHeaders,
      body: JSON.stringify({ name: 'sdk_cs_viewed', schema: { properties: {} } }),
    });
    expect(schema.status).toBe(200);
    const tracked = await shop.track('sdk_cs_viewed', { source_id: 'sdk-cs-dora' });
    expect(tracked).toMatchObject({ object: 'event', type: 'sdk_cs_viewed' });
  });

  it('refuses the client key from an origin it does not trust', async () => {
    const pair = await createProject(testRuntime(), 'sdk client-side elsewhere');
    const key = await createClientKey(testRuntime(), pair.project_id, { origins: [ORIGIN] });
    const elsewhere = VoucherifyClientSide({
      clientApplicationId: key.app_id,
      clientSecretKey: key.app_token,
      apiUrl: runtime.local.apiUrl,
      origin: 'https://evil.example',
    });
    await expect(elsewhere.validateStackable({ redeemables: [{ object: 'voucher', id: 'X' }], order } as never)).rejects.toMatchObject({ code: 403 });
  });
});
