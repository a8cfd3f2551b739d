import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { campaignReplySchema } from '../../../lib/campaigns/campaign.reply.js';
import { loyaltyTierListReplySchema } from '../../../lib/loyalties/tier.reply.js';
import { getVoucherByCode } from '../../../lib/vouchers/voucher.repo.js';
import { campaignApi, newCampaign } from '../../support/api.js';
import { apiClient } from '../../support/api-client.js';
import { eventApi, schemaBody } from '../../support/events-api.js';
import { loyaltyApi } from '../../support/loyalty-api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

/** 10 February 2026, noon UTC. */
const at = Date.UTC(2026, 1, 10, 12, 0, 0);

/** Program "Club" (card CARD-1 held by c1, 100 points per `purchase` event) with Silver 100–199 and Gold from 200. */
async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const campaigns = campaignApi(runtime, pair);
  const loyalty = loyaltyApi(runtime, pair);
  const events = eventApi(runtime, pair);
  await newCampaign(campaigns, { name: 'Club', campaign_type: 'LOYALTY_PROGRAM', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } });
  await campaigns.addVoucher('Club', { code: 'CARD-1' });
  expect((await api.call('create-publication', { json: { voucher: 'CARD-1', customer: { source_id: 'c1' } } })).status).toBe(200);
  expect((await events.createSchema(schemaBody('purchase'))).status).toBe(200);
  expect((await loyalty.createEarningRules('Club', [{ event: 'purchase', loyalty: { type: 'FIXED', points: 100 } }])).status).toBe(200);
  const tiers = await api.call('create-in-bulk-loyalty-tiers', {
    params: { campaignId: 'Club' },
    json: [
      { name: 'Silver', points: { from: 100, to: 199 } },
      { name: 'Gold', points: { from: 200 } },
    ],
  });
  expect(tiers.status).toBe(200);
  const [silver, gold] = (tiers.json as unknown as { id: string }[]).map((t) => t.id);
  const configure = (loyalty_tiers_expiration: unknown) =>
    api.call('update-loyalty-program', { params: { campaignId: 'Club' }, json: { loyalty_tiers_expiration } });
  const purchase = async () =>
    expect((await events.trackEvent({ event: 'purchase', customer: { source_id: 'c1' }, loyalty: { code: 'CARD-1' } })).status).toBe(200);
  const spend = async (points: number) => expect((await loyalty.updateBalance('Club', 'CARD-1', { points: -points })).status).toBe(200);
  const memberTiers = async () => {
    const reply = await api.call('list-member-loyalty-tier', { params: { memberId: 'CARD-1' } });
    expect(reply.status).toBe(200);
    return loyaltyTierListReplySchema.parse(reply.json).data.map((t) => ({ name: t.name, expiration: t.expiration }));
  };
  const stored = async () => (await getVoucherByCode(runtime, pair.project_id, 'CARD-1'))?.loyaltyCard;
  return { clock, api, silver, gold, configure, purchase, spend, memberTiers, stored };
}

const day = (iso: string) => new Date(`${iso}T12:00:00.000Z`).getTime();

describe('loyalty tiers by points collected in a period (loyalty_tiers_expiration)', () => {
  it('keeps the setting on the program, shows it on both doors, and clears it with null', async () => {
    const { api, configure } = await setup();
    const setting = {
      qualification_type: 'POINTS_IN_PERIOD',
      qualification_period: 'QUARTER',
      start_date: { type: 'IMMEDIATE' },
      expiration_date: { type: 'END_OF_NEXT_PERIOD', extend: 'P1M', rounding: { type: 'MONTH', strategy: 'END' } },
    };
    const put = await configure(setting);
    expect(put.status).toBe(200);
    expect(campaignReplySchema.parse(put.json).loyalty_tiers_expiration).toEqual(setting);
    const viaCampaigns = await api.call('get-campaign', { params: { campaignId: 'Club' } });
    expect((viaCampaigns.json as { loyalty_tiers_expiration?: unknown }).loyalty_tiers_expiration).toEqual(setting);
    const cleared = await configure(null);
    expect(cleared.status).toBe(200);
    expect((cleared.json as { loyalty_tiers_expiration?: unknown }).loyalty_tiers_expiration).toBeUndefined();
  });

  it('refuses what it does not implement and what is incomplete, naming the field', async () => {
    const { configure, api } = await setup();
    const base = { qualification_type: 'BALANCE', start_date: { type: 'IMMEDIATE' }, expiration_date: { type: 'BALANCE_DROP', extend: '' } };
    const nextPeriod = await configure({ ...base, start_date: { type: 'NEXT_PERIOD' } });
    expect(nextPeriod.status).toBe(400);
    expect(JSON.stringify(nextPeriod.json)).toContain('start_date.type');
    const noPeriod = await configure({ ...base, qualification_type: 'POINTS_IN_PERIOD' });
    expect(noPeriod.status).toBe(400);
    expect(JSON.stringify(noPeriod.json)).toContain('qualification_period');
    expect((await configure({ ...base, expiration_date: { type: 'CUSTOM', extend: 'three months' } })).status).toBe(400);
    const campaigns = await api.call('create-campaign', {
      json: { name: 'Promo', campaign_type: 'DISCOUNT_COUPONS', voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } } },
    });
    expect(campaigns.status).toBe(200);
    const onCoupons = await api.call('update-campaign', { params: { campaignId: 'Promo' }, json: { loyalty_tiers_expiration: base } });
    expect(onCoupons.status).toBe(400);
    expect(JSON.stringify(onCoupons.json)).toContain('LOYALTY_PROGRAM');
  });

  it('POINTS_IN_PERIOD + END_OF_PERIOD: the tier follows the month’s points, not the balance, holds to the month’s end, then drops', async () => {
    const { clock, configure, purchase, spend, memberTiers, stored, gold, silver } = await setup();
    const put = await configure({
      qualification_type: 'POINTS_IN_PERIOD',
      qualification_period: 'MONTH',
      start_date: { type: 'IMMEDIATE' },
      expiration_date: { type: 'END_OF_PERIOD', extend: '' },
    });
    expect(put.status).toBe(200);
    await purchase();
    await purchase();
    expect(await memberTiers()).toEqual([
      { name: 'Gold', expiration: expect.objectContaining({ start_date: '2026-02-10', expiration_date: '2026-02-28' }) as unknown },
    ]);
    // Spending does not undo what was collected: Gold stays though the balance falls to 50.
    await spend(150);
    expect(await stored()).toMatchObject({ balance: 50, periodPoints: { period: '2026.1.1', points: 200 }, tier: { id: gold, expires: '2026-02-28' } });
    expect((await memberTiers()).map((t) => t.name)).toEqual(['Gold']);

    // March: February's Gold has expired and nothing was collected yet: no tier, before any write.
    clock.advance(day('2026-03-01') - clock.now().getTime());
    expect(await memberTiers()).toEqual([]);
    await purchase();
    expect(await stored()).toMatchObject({
      balance: 150,
      periodPoints: { period: '2026.2.1', points: 100 },
      tier: { id: silver, expires: '2026-03-31' },
      tierChanges: 3,
    });
    expect(await memberTiers()).toEqual([
      { name: 'Silver', expiration: expect.objectContaining({ start_date: '2026-03-01', expiration_date: '2026-03-31' }) as unknown },
    ]);
  });

  it('END_OF_NEXT_PERIOD with extend: a quarter’s Gold holds through the next quarter plus a month', async () => {
    const { clock, configure, purchase, memberTiers } = await setup();
    await configure({
      qualification_type: 'POINTS_IN_PERIOD',
      qualification_period: 'QUARTER',
      start_date: { type: 'IMMEDIATE' },
      expiration_date: { type: 'END_OF_NEXT_PERIOD', extend: 'P1M' },
    });
    await purchase();
    await purchase();
    expect((await memberTiers())[0]?.expiration).toMatchObject({ expiration_date: '2026-07-30' });
    clock.advance(day('2026-07-30') - clock.now().getTime());
    expect((await memberTiers()).map((t) => t.name)).toEqual(['Gold']);
    clock.advance(day('2026-07-31') - clock.now().getTime());
    expect(await memberTiers()).toEqual([]);
  });

  it('BALANCE + CUSTOM: a tier holds `extend` after the balance falls below it, and is undated when it returns', async () => {
    const { clock, configure, purchase, spend, memberTiers, stored, gold } = await setup();
    await configure({
      qualification_type: 'BALANCE',
      start_date: { type: 'IMMEDIATE' },
      expiration_date: { type: 'CUSTOM', extend: 'P1M', rounding: { type: 'MONTH', strategy: 'END' } },
    });
    await purchase();
    await purchase();
    expect((await memberTiers())[0]?.expiration?.expiration_date).toBeUndefined();
    await spend(150);
    expect(await stored()).toMatchObject({ balance: 50, tier: { id: gold, expires: '2026-03-31' } });
    clock.advance(day('2026-03-20') - clock.now().getTime());
    await purchase();
    await purchase();
    // Back at 250: Gold again, no date, and no tier change counted (Silver → Gold on the first day was the second).
    expect(await stored()).toMatchObject({ balance: 250, tier: { id: gold, expires: null }, tierChanges: 2 });
    await spend(100);
    expect(await stored()).toMatchObject({ balance: 150, tier: { id: gold, expires: '2026-04-30' } });
    clock.advance(day('2026-05-01') - clock.now().getTime());
    expect((await memberTiers()).map((t) => t.name)).toEqual(['Silver']);
  });

  it('parallel earnings in a period count each point once and change the tier once per threshold crossed', async () => {
    const { configure, purchase, stored, gold } = await setup();
    await configure({
      qualification_type: 'POINTS_IN_PERIOD',
      qualification_period: 'YEAR',
      start_date: { type: 'IMMEDIATE' },
      expiration_date: { type: 'END_OF_PERIOD', extend: '' },
    });
    await Promise.all(Array.from({ length: 5 }, () => purchase()));
    expect(await stored()).toMatchObject({ balance: 500, points: 500, periodPoints: { period: '2026.0.12', points: 500 }, tier: { id: gold }, tierChanges: 2 });
  });
});
