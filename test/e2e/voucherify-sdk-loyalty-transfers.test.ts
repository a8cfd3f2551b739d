import { VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../infra/local/start-local.js';
import { createProject, type IssuedKeyPair } from '../../lib/app-keys/app-key.service.js';
import { type OwnLocalRuntime, startLocalWithOwnQueue } from '../support/local-runtime.js';
import { testRuntime } from '../support/runtime.js';

let local: LocalRuntime;
let runtime: OwnLocalRuntime;
let pair: IssuedKeyPair;
let client: ReturnType<typeof VoucherifyServerSide>;

/** Points transfers through the official SDK's `loyalties.transferPoints`, against the whole local runtime. */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-transfers');
  local = runtime.local;
  pair = await createProject(testRuntime(), 'sdk transfers project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: local.apiUrl });
});

// Every reply the server gave in a test must match docs/openapi.json.
afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

const program = (name: string) =>
  ({
    name,
    campaign_type: 'LOYALTY_PROGRAM',
    type: 'AUTO_UPDATE',
    voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
  }) as unknown as Parameters<ReturnType<typeof VoucherifyServerSide>['campaigns']['create']>[0];

describe('the official Voucherify SDK: loyalty points transfers', () => {
  it("moves points from one of a member's cards to another, and refuses another member's card", async () => {
    const shop = await client.campaigns.create(program('SDK transfer shop'));
    const cafe = await client.campaigns.create(program('SDK transfer cafe'));
    const annShop = await client.loyalties.createMember(shop.id, { customer: { source_id: 'sdk-transfer-ann' } });
    const annCafe = await client.loyalties.createMember(cafe.id, { customer: { source_id: 'sdk-transfer-ann' } });
    const bobCafe = await client.loyalties.createMember(cafe.id, { customer: { source_id: 'sdk-transfer-bob' } });
    await client.loyalties.addOrRemoveCardBalance(
      annShop.code,
      { points: 50, expiration_type: 'CUSTOM_DATE', expiration_date: '2099-12-31' } as never,
      shop.id,
    );

    const target = await client.loyalties.transferPoints(cafe.id, annCafe.code, [{ code: annShop.code, points: 20, source_id: 'sdk-t1', reason: 'merge' }]);
    expect(target).toMatchObject({
      code: annCafe.code,
      loyalty_card: { points: 20, balance: 20, next_expiration_date: '2099-12-31', next_expiration_points: 20 },
    });
    expect((await client.loyalties.getMember(shop.id, annShop.code)).loyalty_card).toMatchObject({ balance: 30 });

    const out = await client.loyalties.listCardTransactions(annShop.code, null as unknown as string);
    expect(out.data[0]).toMatchObject({ type: 'POINTS_TRANSFER_OUT', source_id: 'sdk-t1', reason: 'merge' });
    const into = await client.loyalties.listCardTransactions(annCafe.code, null as unknown as string);
    expect(into.data[0]).toMatchObject({ type: 'POINTS_TRANSFER_IN', source_id: 'sdk-t1' });

    await expect(client.loyalties.transferPoints(cafe.id, bobCafe.code, [{ code: annShop.code, points: 1, source_id: 'sdk-t2' }])).rejects.toMatchObject({
      code: 400,
      key: 'invalid_customer',
    });
    expect((await client.loyalties.getMember(shop.id, annShop.code)).loyalty_card).toMatchObject({ balance: 30 });
  });
});
