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

/** Loyalty tiers through the official SDK's `loyalties.*Tier*` calls, against the whole local runtime. */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-tiers');
  local = runtime.local;
  pair = await createProject(testRuntime(), 'sdk tiers project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: local.apiUrl });
});

// Every reply the server gave in a test must match docs/openapi.json.
afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

describe('the official Voucherify SDK: loyalty tiers', () => {
  it("creates tiers, reads them, and reads a member's tier with its earning rules and reward prices", async () => {
    const program = await client.campaigns.create({
      name: 'SDK tiers club',
      campaign_type: 'LOYALTY_PROGRAM',
      type: 'AUTO_UPDATE',
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
    } as never);
    const [rule] = await client.loyalties.createEarningRule(program.id, [{ event: 'order.paid', loyalty: { type: 'FIXED', points: 10 } }] as never);
    const mug = await client.rewards.create({ name: 'Mug', type: 'MATERIAL', parameters: { product: { id: 'prod_mug' } } } as never);
    const assignment = await client.rewards.createAssignment(mug.id, { campaign: program.id, parameters: { loyalty: { points: 120 } } });
    const ruleId = (rule as { id: string }).id;

    const created = await client.loyalties.createTiers(program.id, [
      { name: 'Silver', points: { from: 1, to: 299 } },
      {
        name: 'Gold',
        points: { from: 300 },
        earning_rules: { [ruleId]: { type: 'MULTIPLY', multiplier: 2 } },
        rewards: { [assignment.id]: { type: 'CUSTOM', points: 60 } },
      },
    ] as never);
    const gold = (created as unknown as { id: string; name: string }[])[1];
    expect(gold?.name).toBe('Gold');
    expect((await client.loyalties.listTiers(program.id)).total).toBe(2);
    expect(await client.loyalties.getTier(program.id, gold?.id as string)).toMatchObject({ name: 'Gold', points: { from: 300 }, object: 'loyalty_tier' });

    const member = await client.loyalties.createMember(program.id, { customer: { source_id: 'sdk-tier-ann' } });
    await client.loyalties.addOrRemoveCardBalance(member.code, { points: 350 } as never, program.id);
    const mine = await client.loyalties.listMemberLoyaltyTiers(member.code);
    expect(mine.data).toMatchObject([{ id: gold?.id, expiration: { tier_id: gold?.id } }]);

    const rules = await client.loyalties.listLoyaltyTierEarningRules(program.id, gold?.id as string);
    expect(rules.data).toMatchObject([{ id: ruleId, loyalty: { type: 'FIXED', points: 20 } }]);
    const rewards = await client.loyalties.listLoyaltyTierRewards(program.id, gold?.id as string);
    expect(rewards.data).toMatchObject([{ assignment: { id: assignment.id, parameters: { loyalty: { points: 60 } } }, object: 'loyalty_tier_reward' }]);
  });
  it("sets the program's tier qualification with loyalties.update, and reads the member's dated tier", async () => {
    const program = await client.loyalties.create({
      name: 'SDK period club',
      type: 'AUTO_UPDATE',
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
    } as never);
    const updated = await client.loyalties.update({
      id: program.id,
      loyalty_tiers_expiration: {
        qualification_type: 'POINTS_IN_PERIOD',
        qualification_period: 'YEAR',
        start_date: { type: 'IMMEDIATE' },
        expiration_date: { type: 'END_OF_PERIOD', extend: 'P1M' },
      },
    } as Parameters<typeof client.loyalties.update>[0]);
    expect(updated).toMatchObject({ loyalty_tiers_expiration: { qualification_type: 'POINTS_IN_PERIOD', qualification_period: 'YEAR' } });
    const created = await client.loyalties.createTiers(program.id, [{ name: 'Gold', points: { from: 100 } }] as never);
    const gold = (created as unknown as { id: string }[])[0];
    const member = await client.loyalties.createMember(program.id, { customer: { source_id: 'sdk-period-ann' } });
    await client.loyalties.addOrRemoveCardBalance(member.code, { points: 150 } as never, program.id);
    await client.loyalties.addOrRemoveCardBalance(member.code, { points: -100 } as never, program.id);
    const mine = await client.loyalties.listMemberLoyaltyTiers(member.code);
    // Collected 150 this year: Gold though the balance is 50, until the end of January next year (the year's end + P1M).
    const next = new Date().getUTCFullYear() + 1;
    expect(mine.data).toMatchObject([{ id: gold?.id, expiration: { tier_id: gold?.id, expiration_date: `${next}-01-31` } }]);
  });
});
