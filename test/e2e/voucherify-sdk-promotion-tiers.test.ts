import { VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../lib/app-keys/app-key.service.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { testRuntime } from '../support/runtime.js';

let runtime: OwnLocalRuntime;
let client: ReturnType<typeof VoucherifyServerSide>;

/** The promotion tier calls of the official SDK (`promotions.tiers.*`) against the whole local runtime. */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-promotion-tiers');
  const pair = await createProject(testRuntime(), 'sdk promotion tiers project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: runtime.local.apiUrl });
});

// Every reply the server gave in a test must match docs/openapi.json.
afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

describe('the official Voucherify SDK: promotion tiers', () => {
  it('creates, lists, gets, updates and deletes tiers through promotions.tiers', async () => {
    const promo = (await client.campaigns.create({
      name: 'SDK promotion',
      campaign_type: 'PROMOTION',
      promotion: { tiers: [{ name: 'Base', action: { discount: { type: 'AMOUNT', amount_off: 100 } } }] },
    } as never)) as unknown as { id: string };

    const tier = await client.promotions.tiers.create(promo.id, {
      name: 'Gold',
      banner: 'Gold 15%',
      action: { discount: { type: 'PERCENT', percent_off: 15 } },
    } as never);
    expect(tier).toMatchObject({ name: 'Gold', banner: 'Gold 15%', hierarchy: 2, campaign_id: promo.id, object: 'promotion_tier' });

    const listed = await client.promotions.tiers.list(promo.id);
    expect(listed.tiers.map((t) => t.name)).toEqual(['Base', 'Gold']);
    expect(listed).toMatchObject({ object: 'list', total: 2, has_more: false });
    const all = await client.promotions.tiers.listAll({ is_available: true, limit: 10 } as never);
    expect(all.tiers.map((t) => t.name).sort()).toEqual(['Base', 'Gold']);

    expect(await client.promotions.tiers.get(tier.id)).toMatchObject({ id: tier.id, name: 'Gold' });
    // The SDK sends the tier's id in the body as well as the path.
    const updated = await client.promotions.tiers.update({ id: tier.id, name: 'Gold+', action: { discount: { type: 'PERCENT', percent_off: 20 } } } as never);
    expect(updated).toMatchObject({ id: tier.id, name: 'Gold+', action: { discount: { type: 'PERCENT', percent_off: 20 } } });

    await client.promotions.tiers.delete(tier.id);
    await expect(client.promotions.tiers.get(tier.id)).rejects.toMatchObject({ code: 404, key: 'not_found' });
    expect((await client.promotions.tiers.list(promo.id)).tiers.map((t) => t.name)).toEqual(['Base']);
  });
});
