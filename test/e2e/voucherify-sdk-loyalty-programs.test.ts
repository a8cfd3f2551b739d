import { VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProject, type IssuedKeyPair } from '../../lib/app-keys/app-key.service.js';
import { type OwnLocalRuntime, startLocalWithOwnQueue } from '../support/local-runtime.js';
import { testRuntime } from '../support/runtime.js';

let runtime: OwnLocalRuntime;
let pair: IssuedKeyPair;
let client: ReturnType<typeof VoucherifyServerSide>;

/**
 * Loyalty programs through the official SDK's `client.loyalties` (issue 37) against the whole local
 * runtime: create, list, get, update and delete a program, a card's balance by its code alone, and
 * the reward an assignment gives. The first calls an integrator writes; before, each was 404 "No route".
 */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-loyalty-programs');
  pair = await createProject(testRuntime(), 'sdk loyalty programs project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: runtime.local.apiUrl });
});

// Every reply the server gave in a test must match docs/openapi.json.
afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

describe('the official Voucherify SDK: loyalty programs', () => {
  it('creates, lists, gets, updates and deletes a program, which client.campaigns sees as the same campaign', async () => {
    const program = await client.loyalties.create({
      name: 'SDK club',
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 10 } },
    } as unknown as Parameters<typeof client.loyalties.create>[0]);
    expect(program).toMatchObject({ name: 'SDK club', campaign_type: 'LOYALTY_PROGRAM' });
    await client.campaigns.create({
      name: 'SDK coupons',
      campaign_type: 'DISCOUNT_COUPONS',
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 5 } },
    } as unknown as Parameters<typeof client.campaigns.create>[0]);

    const list = await client.loyalties.list({ limit: 10 });
    expect(list).toMatchObject({ object: 'list', data_ref: 'campaigns', total: 1 });
    expect((list.campaigns ?? []).map((c) => c.id)).toEqual([program.id]);
    expect(await client.loyalties.get(program.id)).toMatchObject({ id: program.id, name: 'SDK club' });
    await expect(client.loyalties.get('SDK coupons')).rejects.toMatchObject({ code: 404, key: 'not_found' });

    const updated = await client.loyalties.update({ id: program.id, description: 'Points for everyone' } as Parameters<typeof client.loyalties.update>[0]);
    expect(updated).toMatchObject({ id: program.id, description: 'Points for everyone' });
    expect(await client.campaigns.get(program.id)).toMatchObject({ description: 'Points for everyone', campaign_type: 'LOYALTY_PROGRAM' });

    const deleted = (await client.loyalties.delete(program.id, { force: true })) as { async_action_id: string };
    expect(deleted.async_action_id).toMatch(/^aa_/);
    await expect(client.campaigns.get(program.id)).rejects.toMatchObject({ code: 404 });
    expect((await client.loyalties.list()).total).toBe(0);
  });

  it('changes a card balance by its code alone, and reads the reward behind an assignment', async () => {
    const program = await client.loyalties.create({
      name: 'SDK balance club',
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
    } as unknown as Parameters<typeof client.loyalties.create>[0]);
    await client.campaigns.addVoucher(program.id, { code: 'SDK-BAL-1' } as never);
    const added = await client.loyalties.addOrRemoveCardBalance('SDK-BAL-1', { points: 120 });
    expect(added).toMatchObject({ points: 120, balance: 120, type: 'loyalty_card', object: 'balance' });
    const removed = await client.loyalties.addOrRemoveCardBalance('SDK-BAL-1', { points: -20 });
    expect(removed).toMatchObject({ points: -20, balance: 100 });
    await expect(client.loyalties.addOrRemoveCardBalance('SDK-NOPE', { points: 1 })).rejects.toMatchObject({ code: 404, key: 'not_found' });

    const mug = await client.rewards.create({ name: 'SDK mug', type: 'MATERIAL', parameters: { product: { id: 'prod_mug' } } } as never);
    const assignment = await client.rewards.createAssignment(mug.id, { campaign: program.id, parameters: { loyalty: { points: 50 } } });
    expect(await client.loyalties.getRewardDetails(program.id, assignment.id)).toMatchObject({ id: mug.id, name: 'SDK mug', type: 'MATERIAL' });
  });
});
