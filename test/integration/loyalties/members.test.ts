import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, newCampaign } from '../../support/api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 1, 10, 12, 0, 0);

async function setup(type: 'AUTO_UPDATE' | 'STATIC' = 'AUTO_UPDATE') {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const campaigns = campaignApi(runtime, pair);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const campaign = await newCampaign(campaigns, {
    name: 'Club',
    campaign_type: 'LOYALTY_PROGRAM',
    type,
    voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 }, code_config: { pattern: 'CLUB-#######' } },
  });
  const join = (json: Record<string, unknown>, campaignId = 'Club', headers?: Record<string, string>) =>
    api.call('add-member', { params: { campaignId }, json, ...(headers ? { headers: { ...keyPairHeaders(pair), ...headers } } : {}) });
  return { runtime, pair, campaigns, api, campaign, join, clock };
}

describe('POST /v1/loyalties/{campaignId}/members', () => {
  it('publishes a card of the program to a new customer (by source_id), with holder_id, and the publication lists it', async () => {
    const { api, campaign, join } = await setup();
    const reply = await join({ customer: { source_id: 'ann', name: 'Ann' }, metadata: { via: 'app' }, channel: 'app' });
    expect(reply.status).toBe(200);
    const customer = (await api.call('get-customer', { params: { customerId: 'ann' } })).json;
    expect(customer).toMatchObject({ source_id: 'ann', name: 'Ann' });
    expect(reply.json).toMatchObject({
      campaign: 'Club',
      campaign_id: campaign.id,
      type: 'LOYALTY_CARD',
      holder_id: customer.id,
      loyalty_card: { points: 0, balance: 0 },
      publish: { count: 1 },
      object: 'voucher',
    });
    expect(reply.json.code).toMatch(/^CLUB-/);
    const publications = (await api.call('list-publications', { query: `customer=${customer.id as string}` })).json;
    expect(publications).toMatchObject({ total: 1, publications: [{ metadata: { via: 'app' }, channel: 'app', voucher: { code: reply.json.code } }] });
  });

  it('names the customer by a bare string: a cust_ id, or else a source_id', async () => {
    const { api, join } = await setup();
    const bySource = await join({ customer: 'bob' });
    expect(bySource.status).toBe(200);
    const bob = (await api.call('get-customer', { params: { customerId: 'bob' } })).json;
    expect(bySource.json.holder_id).toBe(bob.id);
    const cid = (await api.call('create-customer', { json: { source_id: 'cid' } })).json.id as string;
    expect((await join({ customer: cid })).json.holder_id).toBe(cid);
    expect((await join({ customer: 'cust_unknown0000000000000000' })).status).toBe(404);
  });

  it('gives a member the same card again: a loyalty program is join-once', async () => {
    const { join } = await setup();
    const first = await join({ customer: { source_id: 'ann' } });
    const again = await join({ customer: { source_id: 'ann' } });
    expect(again.status).toBe(200);
    expect(again.json.code).toBe(first.json.code);
    expect(again.json.publish).toMatchObject({ count: 1 });
  });

  it('gives one card when one customer joins 10 times in parallel', async () => {
    const { join, api } = await setup();
    const replies = await Promise.all(Array.from({ length: 10 }, () => join({ customer: { source_id: 'ann' } })));
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(replies.map((r) => r.json.code)).size).toBe(1);
    const listed = await api.call('list-members', { params: { campaignId: 'Club' } });
    expect(listed.json).toMatchObject({ total: 1, vouchers: [{ code: replies[0]?.json.code }] });
  });

  it('gives the named card of the program; refuses a card of another program (404), one already given and a second card to a member', async () => {
    const { campaigns, join } = await setup('STATIC');
    await campaigns.addVoucher('Club', { code: 'CARD-1' });
    await campaigns.addVoucher('Club', { code: 'CARD-2' });
    await newCampaign(campaigns, { name: 'Other', campaign_type: 'LOYALTY_PROGRAM', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } });
    await campaigns.addVoucher('Other', { code: 'OTHER-1' });
    expect((await join({ customer: 'ann', voucher: 'CARD-1' })).json).toMatchObject({ code: 'CARD-1' });
    expect((await join({ customer: 'bob', voucher: 'OTHER-1' })).status).toBe(404);
    expect((await join({ customer: 'bob', voucher: 'CARD-1' })).json).toMatchObject({ key: 'voucher_already_published' });
    expect((await join({ customer: 'ann', voucher: 'CARD-2' })).json).toMatchObject({ code: 400, key: 'voucher_cannot_be_published' });
    // The STATIC program has one card left: a third customer takes it, a fourth finds none.
    expect((await join({ customer: 'cat' })).json).toMatchObject({ code: 'CARD-2' });
    expect((await join({ customer: 'dan' })).json).toMatchObject({ code: 400, key: 'no_voucher_suitable_for_publication' });
  });

  it('answers 404 for a program that does not exist or is no loyalty program; a customer with neither id nor source_id joins as a new customer', async () => {
    const { campaigns, join } = await setup();
    await newCampaign(campaigns);
    expect((await join({ customer: 'ann' }, 'Nope')).json).toMatchObject({ code: 404, resource_type: 'campaign' });
    expect((await join({ customer: 'ann' }, 'Campaign')).json).toMatchObject({ code: 404, resource_type: 'campaign' });
    // Issue 33: a customer object without id or source_id is a new customer (source_id null), as the reference makes one.
    const anonymous = await join({ customer: { name: 'Ann' } });
    expect(anonymous.status).toBe(200);
    expect(anonymous.json.holder_id).toMatch(/^cust_/);
  });

  it('replays the first reply to a retry with the same Idempotency-Key: one card', async () => {
    const { join, api } = await setup();
    const first = await join({ customer: 'ann' }, 'Club', { 'idempotency-key': 'join-1' });
    const retry = await join({ customer: 'ann' }, 'Club', { 'idempotency-key': 'join-1' });
    expect(retry.status).toBe(200);
    expect(retry.json).toEqual(first.json);
    expect((await api.call('list-members', { params: { campaignId: 'Club' } })).json).toMatchObject({ total: 1 });
  });
});

describe("GET /v1/customers/{customerId}: the member's loyalty summary", () => {
  it('shows the points of the cards the customer holds, in all and by program', async () => {
    const { api, campaigns, join } = await setup();
    await newCampaign(campaigns, { name: 'Other', campaign_type: 'LOYALTY_PROGRAM', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } });
    await campaigns.addVoucher('Other', { code: 'OTHER-1' });
    expect((await api.call('get-customer', { params: { customerId: 'ann' } })).status).toBe(404);
    const card = (await join({ customer: 'ann' })).json;
    const summary = async () => (await api.call('get-customer', { params: { customerId: 'ann' } })).json.loyalty;
    expect(await summary()).toEqual({ points: 0, referred_customers: 0, campaigns: { Club: { points: 0, referred_customers: 0 } } });
    const balance = (campaignId: string, memberId: string, points: number) =>
      api.call('update-loyalty-card-balance-1', { params: { campaignId, memberId }, json: { points } });
    expect((await balance('Club', card.code as string, 120)).status).toBe(200);
    expect((await balance('Club', card.code as string, -20)).status).toBe(200);
    await join({ customer: 'ann' }, 'Other');
    expect((await balance('Other', 'OTHER-1', 7)).status).toBe(200);
    expect(await summary()).toEqual({
      points: 107,
      referred_customers: 0,
      campaigns: { Club: { points: 100, referred_customers: 0 }, Other: { points: 7, referred_customers: 0 } },
    });
    // A discount voucher the customer holds is no loyalty card.
    await newCampaign(campaigns);
    await campaigns.addVoucher('Campaign', { code: 'COUPON-1' });
    expect((await api.call('create-publication', { json: { voucher: 'COUPON-1', customer: { source_id: 'ann' } } })).status).toBe(200);
    expect((await summary()) as { points: number }).toMatchObject({ points: 107 });
  });
});

describe('GET /v1/loyalties/members/{memberId} and /v1/loyalties/{campaignId}/members/{memberId}', () => {
  it('gets a card by code or id, with or without its program, and 404 for another program or a voucher that is no card', async () => {
    const { api, campaigns, join } = await setup();
    const card = (await join({ customer: 'ann' })).json;
    const code = card.code as string;
    const id = card.id as string;
    for (const memberId of [code, id]) {
      expect((await api.call('get-member', { params: { memberId } })).json).toMatchObject({ id, code, holder_id: card.holder_id });
      expect((await api.call('get-member-1', { params: { campaignId: 'Club', memberId } })).json).toMatchObject({ id, code });
    }
    await newCampaign(campaigns, { name: 'Other', campaign_type: 'LOYALTY_PROGRAM', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } });
    expect((await api.call('get-member-1', { params: { campaignId: 'Other', memberId: code } })).json).toMatchObject({ code: 404, resource_type: 'voucher' });
    await newCampaign(campaigns);
    const coupon = (await campaigns.addVoucher('Campaign', { code: 'COUPON-1' })).json;
    expect((await api.call('get-member', { params: { memberId: coupon.code as string } })).json).toMatchObject({ code: 404 });
    expect((await api.call('get-member', { params: { memberId: 'NOPE' } })).status).toBe(404);
  });
});

describe('GET /v1/loyalties/{campaignId}/members', () => {
  it("pages through the program's cards newest first, with the program's card count, and finds a customer's card", async () => {
    const { api, join, clock } = await setup();
    const codes: string[] = [];
    for (const who of ['a', 'b', 'c', 'd', 'e']) {
      codes.push((await join({ customer: who })).json.code as string);
      clock.advance(1000);
    }
    const page = (n: number) => api.call('list-members', { params: { campaignId: 'Club' }, query: `limit=2&page=${n}` });
    const pages = await Promise.all([1, 2, 3].map(page));
    expect(pages.map((p) => p.json.total)).toEqual([5, 5, 5]);
    expect(pages.flatMap((p) => (p.json.vouchers as { code: string }[]).map((v) => v.code))).toEqual([...codes].reverse());
    expect((await api.call('list-members', { params: { campaignId: 'Club' }, query: 'customer=c' })).json).toMatchObject({
      total: 1,
      vouchers: [{ code: codes[2] }],
    });
    expect((await api.call('list-members', { params: { campaignId: 'Club' }, query: 'customer=nobody' })).json).toMatchObject({ total: 0, vouchers: [] });
    expect((await api.call('list-members', { params: { campaignId: 'Club' }, query: 'order=code' })).status).toBe(400);
    expect((await api.call('list-members', { params: { campaignId: 'Nope' } })).status).toBe(404);
  });
});
