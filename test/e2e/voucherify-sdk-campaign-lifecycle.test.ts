import { DiscountVouchersTypesEnum, VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../lib/app-keys/app-key.service.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { testRuntime } from '../support/runtime.js';

let runtime: OwnLocalRuntime;
let client: ReturnType<typeof VoucherifyServerSide>;

/** The campaign lifecycle calls of the official SDK against the whole local runtime, with a jobs queue of this file's own. */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-campaign-lifecycle');
  const pair = await createProject(testRuntime(), 'sdk campaign lifecycle project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: runtime.local.apiUrl });
});

// Every reply the server gave in a test must match docs/openapi.json.
afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

async function untilFinal(id: string) {
  for (let i = 0; i < 100; i += 1) {
    const action = await client.asyncActions.get(id);
    if (action.status === 'DONE' || action.status === 'FAILED') return action;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`async action ${id} did not finish`);
}

describe('the official Voucherify SDK: campaign lifecycle', () => {
  it('disables, updates, enables and deletes a campaign; its vouchers go with it and its name is free again', async () => {
    const campaign = await client.campaigns.create({
      name: 'SDK lifecycle',
      campaign_type: 'DISCOUNT_COUPONS',
      type: 'AUTO_UPDATE',
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: DiscountVouchersTypesEnum.PERCENT, percent_off: 10 } },
    } as never);
    await client.campaigns.addVoucher(campaign.id, { code: 'SDK-LIFE-1' } as never);

    expect(await client.campaigns.disable(campaign.id)).toEqual({});
    expect(await client.campaigns.get('SDK lifecycle')).toMatchObject({ id: campaign.id, active: false });
    expect(await client.vouchers.get('SDK-LIFE-1')).toMatchObject({ code: 'SDK-LIFE-1' });

    const updated = await client.campaigns.update('SDK lifecycle', { description: 'Changed by the SDK', metadata: { via: 'sdk' } } as never);
    expect(updated).toMatchObject({ id: campaign.id, description: 'Changed by the SDK', metadata: { via: 'sdk' }, active: false });

    expect(await client.campaigns.enable(campaign.id)).toEqual({});
    expect(await client.campaigns.get(campaign.id)).toMatchObject({ active: true });

    const deleted = (await client.campaigns.delete(campaign.id)) as { async_action_id: string };
    expect(deleted.async_action_id).toMatch(/^aa_/);
    expect(await untilFinal(deleted.async_action_id)).toMatchObject({ status: 'DONE', type: 'CAMPAIGN.VOUCHERS_DELETE' });
    await expect(client.campaigns.get(campaign.id)).rejects.toMatchObject({ code: 404, key: 'not_found' });
    await expect(client.vouchers.get('SDK-LIFE-1')).rejects.toMatchObject({ code: 404 });

    const again = await client.campaigns.create({
      name: 'SDK lifecycle',
      campaign_type: 'DISCOUNT_COUPONS',
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: DiscountVouchersTypesEnum.PERCENT, percent_off: 20 } },
    } as never);
    expect(again.id).not.toBe(campaign.id);
    const forced = (await client.campaigns.delete(again.id, { force: true })) as { async_action_id: string };
    expect(await untilFinal(forced.async_action_id)).toMatchObject({ status: 'DONE' });
  });

  it("changes a campaign's discount through campaigns.update; its unpublished vouchers follow through the worker", async () => {
    const campaign = await client.campaigns.create({
      name: 'SDK discount change',
      campaign_type: 'DISCOUNT_COUPONS',
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: DiscountVouchersTypesEnum.PERCENT, percent_off: 10 } },
    } as never);
    for (const code of ['SDK-DISC-1', 'SDK-DISC-2']) await client.campaigns.addVoucher(campaign.id, { code } as never);

    const updated = await client.campaigns.update(campaign.id, { discount: { type: DiscountVouchersTypesEnum.AMOUNT, amount_off: 700 } } as never);
    expect(updated).toMatchObject({ id: campaign.id, voucher: { discount: { type: 'AMOUNT', amount_off: 700 } } });
    for (const code of ['SDK-DISC-1', 'SDK-DISC-2']) {
      let discount: unknown;
      for (let i = 0; i < 100; i += 1) {
        discount = (await client.vouchers.get(code)).discount;
        if ((discount as { type?: string } | undefined)?.type === 'AMOUNT') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(discount, code).toMatchObject({ type: 'AMOUNT', amount_off: 700 });
    }
  });
});
