import { setTimeout as sleep } from 'node:timers/promises';
import { DiscountVouchersTypesEnum, VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { createProject } from '../../lib/app-keys/app-key.service.js';
import { testRuntime } from '../support/runtime.js';

let runtime: OwnLocalRuntime;
let client: ReturnType<typeof VoucherifyServerSide>;

/** The voucher-creating calls of the official SDK against the whole local runtime, with a jobs queue of this file's own. */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-vouchers-create');
  const pair = await createProject(testRuntime(), 'sdk vouchers create project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: runtime.local.apiUrl });
});

// Every reply the server gave in a test must match docs/openapi.json.
afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

/** The async action once final (the local runtime's worker runs it). */
async function whenFinal(id: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 300; i += 1) {
    const got = (await client.asyncActions.get(id)) as unknown as Record<string, unknown>;
    if (got.status === 'DONE' || got.status === 'FAILED') return got;
    await sleep(100);
  }
  throw new Error(`async action ${id} did not finish`);
}

describe('the official Voucherify SDK: creating vouchers', () => {
  it('creates a standalone voucher (a second one with its code is refused) and adds a voucher with a given code to a campaign', async () => {
    const made = await client.vouchers.create({
      code: 'SDK-SOLO',
      type: 'DISCOUNT_VOUCHER',
      discount: { type: DiscountVouchersTypesEnum.PERCENT, percent_off: 15 },
      metadata: { via: 'sdk' },
    } as never);
    expect(made).toMatchObject({ code: 'SDK-SOLO', campaign: null, discount: { percent_off: 15 }, metadata: { via: 'sdk' } });
    expect(await client.vouchers.get('SDK-SOLO')).toMatchObject({ id: made.id });
    await expect(
      client.vouchers.create({ code: 'SDK-SOLO', type: 'DISCOUNT_VOUCHER', discount: { type: DiscountVouchersTypesEnum.PERCENT, percent_off: 5 } } as never),
    ).rejects.toMatchObject({ code: 409, key: 'duplicate_found' });

    const campaign = await client.campaigns.create({
      name: 'SDK certain',
      campaign_type: 'DISCOUNT_COUPONS',
      type: 'STATIC',
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: DiscountVouchersTypesEnum.AMOUNT, amount_off: 500 } },
    });
    const certain = await client.campaigns.addCertainVoucher('SDK certain', 'SDK-CERTAIN', { metadata: { a: 1 }, additional_info: 'sdk' } as never);
    expect(certain).toMatchObject({ code: 'SDK-CERTAIN', campaign: 'SDK certain', metadata: { a: 1 }, additional_info: 'sdk' });
    expect(await client.campaigns.get(campaign.id)).toMatchObject({ vouchers_count: 1 });
  });

  it('creates a standalone voucher without type: a discount voucher, the reference’s default', async () => {
    const made = await client.vouchers.create({ code: 'SDK-NO-TYPE', discount: { type: DiscountVouchersTypesEnum.AMOUNT, amount_off: 300 } } as never);
    expect(made).toMatchObject({ code: 'SDK-NO-TYPE', campaign: null, type: 'DISCOUNT_VOUCHER', discount: { amount_off: 300 } });
  });

  it('creates a standalone voucher without type or code (the SDK posts to /v1/vouchers/): a discount voucher with a generated code', async () => {
    const made = await client.vouchers.create({ discount: { type: DiscountVouchersTypesEnum.PERCENT, percent_off: 7 } } as never);
    expect(made).toMatchObject({ code: expect.stringMatching(/^[0-9A-Za-z]{8}$/), campaign: null, type: 'DISCOUNT_VOUCHER', discount: { percent_off: 7 } });
    expect(await client.vouchers.get(made.code)).toMatchObject({ id: made.id });
  });

  it('imports vouchers into a campaign and standalone vouchers as async actions, each failed code in the result', async () => {
    await client.campaigns.create({
      name: 'SDK imports',
      campaign_type: 'DISCOUNT_COUPONS',
      type: 'STATIC',
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: DiscountVouchersTypesEnum.AMOUNT, amount_off: 100 } },
    });
    const started = await client.campaigns.importVouchers('SDK imports', [{ code: 'SDK-IMP-1', metadata: { season: 'Fall' } }, { code: 'SDK-SOLO' }] as never);
    const intoCampaign = await whenFinal((started as unknown as { async_action_id: string }).async_action_id);
    expect(intoCampaign).toMatchObject({ status: 'DONE', result: { done_count: 1, failed_count: 1, failed: [{ code: 'SDK-SOLO' }] } });
    expect(await client.vouchers.get('SDK-IMP-1')).toMatchObject({ campaign: 'SDK imports', metadata: { season: 'Fall' } });

    const standalone = await client.vouchers.import([{ code: 'SDK-GIFT-IMP', type: 'GIFT_VOUCHER', gift: { amount: 2500 } }] as never);
    const done = await whenFinal((standalone as unknown as { async_action_id: string }).async_action_id);
    expect(done).toMatchObject({ type: 'VOUCHERS.IMPORT', status: 'DONE', result: { done_count: 1, failed_count: 0 } });
    expect(await client.vouchers.get('SDK-GIFT-IMP')).toMatchObject({ campaign: null, gift: { amount: 2500, balance: 2500 } });
  }, 60_000);

  it('lists the async actions newest first through client.asyncActions.list, paged with end_date', async () => {
    const first = await client.vouchers.import([{ code: 'SDK-LIST-1', type: 'GIFT_VOUCHER', gift: { amount: 100 } }] as never);
    await whenFinal(first.async_action_id);
    await sleep(5);
    const second = await client.vouchers.import([{ code: 'SDK-LIST-2', type: 'GIFT_VOUCHER', gift: { amount: 100 } }] as never);
    await whenFinal(second.async_action_id);
    const page = (await client.asyncActions.list({ limit: 1 })) as unknown as { async_actions: Array<Record<string, unknown>>; has_more: boolean };
    expect(page).toMatchObject({
      object: 'list',
      data_ref: 'async_actions',
      has_more: true,
      async_actions: [{ id: second.async_action_id, type: 'VOUCHERS.IMPORT', status: 'DONE' }],
    });
    const next = (await client.asyncActions.list({ limit: 1, end_date: page.async_actions[0]?.created_at as string } as never)) as unknown as {
      async_actions: Array<Record<string, unknown>>;
    };
    expect(next.async_actions.map((a) => a.id)).toEqual([first.async_action_id]);
  });
});
