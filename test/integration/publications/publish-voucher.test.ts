import { describe, expect, it } from 'vitest';
import { at, publicationSetup, putVoucher, standaloneVoucher } from './support.js';

const customer = { source_id: 'alice', name: 'Alice', email: 'alice@example.com', metadata: { tier: 'gold' } };

describe('POST /v1/publications with a voucher code', () => {
  it('publishes the voucher to the customer it upserts and replies with the publication and the whole voucher', async () => {
    const { publish, campaignWith, campaigns, api } = await publicationSetup();
    const campaign = await campaignWith('Spring', ['SPRING-1']);
    const reply = await publish({ voucher: 'SPRING-1', customer, metadata: { source: 'newsletter' }, channel: 'email', source_id: 'pub-src-1' });
    expect(reply.status).toBe(200);
    const customerId = reply.json.customer_id as string;
    expect(customerId).toMatch(/^cust_/);
    expect(reply.json).toMatchObject({
      id: expect.stringMatching(/^pub_[0-9A-Za-z]{24}$/),
      object: 'publication',
      created_at: new Date(at).toISOString(),
      customer_id: customerId,
      tracking_id: 'alice',
      metadata: { source: 'newsletter' },
      channel: 'email',
      source_id: 'pub-src-1',
      result: 'SUCCESS',
      customer: { id: customerId, source_id: 'alice', name: 'Alice', email: 'alice@example.com', metadata: { tier: 'gold' }, object: 'customer' },
      vouchers_id: [expect.stringMatching(/^v_/)],
      voucher: {
        code: 'SPRING-1',
        campaign: 'Spring',
        campaign_id: campaign.id,
        holder_id: customerId,
        updated_at: new Date(at).toISOString(),
        publish: { object: 'list', count: 1, url: '/v1/publications?voucher=SPRING-1&page=1&limit=10' },
      },
    });
    expect((reply.json.voucher as { id: string }).id).toBe((reply.json.vouchers_id as string[])[0]);
    const stored = await campaigns.getVoucher('SPRING-1');
    expect(stored.json).toMatchObject({ holder_id: customerId, publish: { count: 1 } });
    expect((await api.call('get-customer', { params: { customerId: 'alice' } })).json).toMatchObject({ id: customerId, name: 'Alice' });
  });

  it('defaults the channel to API, metadata to {} and source_id to null, and finds a customer by id', async () => {
    const { publish, campaignWith, api } = await publicationSetup();
    await campaignWith('Summer', ['SUM-1']);
    const known = await api.call('create-customer', { json: { source_id: 'bob' } });
    const reply = await publish({ voucher: 'SUM-1', customer: { id: known.json.id } });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ channel: 'API', metadata: {}, source_id: null, customer_id: known.json.id, tracking_id: 'bob' });
  });

  it('refuses a voucher published before with voucher_already_published, to another customer and to the same one', async () => {
    const { publish, campaignWith } = await publicationSetup();
    await campaignWith('Autumn', ['AUT-1']);
    const first = await publish({ voucher: 'AUT-1', customer });
    expect(first.status).toBe(200);
    for (const who of [{ source_id: 'carol' }, customer]) {
      const again = await publish({ voucher: 'AUT-1', customer: who });
      expect(again.status).toBe(400);
      expect(again.json).toMatchObject({
        code: 400,
        key: 'voucher_already_published',
        message: 'Voucher already published',
        details: `Voucher '${(first.json.voucher as { id: string }).id}' has already been published`,
      });
    }
  });

  it('publishes a generic code (no campaign, many redemptions) to many customers, counting each and keeping the first holder', async () => {
    const { runtime, projectId, publish, campaigns } = await publicationSetup();
    await putVoucher(runtime, standaloneVoucher(projectId, 'WELCOME10'));
    const first = await publish({ voucher: 'WELCOME10', customer: { source_id: 'dan' } });
    const second = await publish({ voucher: 'WELCOME10', customer: { source_id: 'erin' } });
    const third = await publish({ voucher: 'WELCOME10', customer: { source_id: 'dan' } });
    expect([first.status, second.status, third.status]).toEqual([200, 200, 200]);
    expect(new Set([first.json.id, second.json.id, third.json.id]).size).toBe(3);
    expect((await campaigns.getVoucher('WELCOME10')).json).toMatchObject({ holder_id: first.json.customer_id, publish: { count: 3 } });
  });

  it('publishes a single-use voucher of no campaign once only', async () => {
    const { runtime, projectId, publish } = await publicationSetup();
    await putVoucher(runtime, standaloneVoucher(projectId, 'ONCE-1', { redemptionQuantity: 1 }));
    expect((await publish({ voucher: 'ONCE-1', customer: { source_id: 'fay' } })).status).toBe(200);
    expect((await publish({ voucher: 'ONCE-1', customer: { source_id: 'gus' } })).json).toMatchObject({ key: 'voucher_already_published' });
  });

  it('refuses a disabled voucher with voucher_cannot_be_published and changes nothing', async () => {
    const { runtime, projectId, publish, campaigns } = await publicationSetup();
    await putVoucher(runtime, standaloneVoucher(projectId, 'OFF-1', { active: false }));
    const reply = await publish({ voucher: 'OFF-1', customer: { source_id: 'hal' } });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ key: 'voucher_cannot_be_published', details: 'Voucher OFF-1 is disabled' });
    expect((await campaigns.getVoucher('OFF-1')).json).toMatchObject({ holder_id: null, publish: { count: 0 } });
  });

  it('answers 404 for an unknown voucher or customer id, and 400 missing_vouchers without voucher or campaign, writing no customer', async () => {
    const { publish, api, campaignWith } = await publicationSetup();
    await campaignWith('Winter', ['WIN-1']);
    const unknown = await publish({ voucher: 'NOPE', customer: { source_id: 'ivy' } });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ key: 'not_found', resource_type: 'voucher', resource_id: 'NOPE' });
    const noCustomer = await publish({ voucher: 'WIN-1', customer: { id: 'cust_000000000000000000000000' } });
    expect(noCustomer.status).toBe(404);
    expect(noCustomer.json).toMatchObject({ key: 'not_found', resource_type: 'customer' });
    const neither = await publish({ customer: { source_id: 'ivy' } });
    expect(neither.status).toBe(400);
    expect(neither.json).toMatchObject({ key: 'missing_vouchers', message: 'Missing vouchers', details: 'Either Campaign or Voucher is required' });
    expect((await api.call('get-customer', { params: { customerId: 'ivy' } })).status).toBe(404);
  });

  it('publishes the voucher when a campaign is sent too, ignoring the campaign as Voucherify documents', async () => {
    const { publish, campaignWith } = await publicationSetup();
    await campaignWith('Spring', ['SPR-A', 'SPR-B']);
    const reply = await publish({ voucher: 'SPR-B', campaign: { name: 'Spring', count: 1 }, customer });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ voucher: { code: 'SPR-B' } });
  });

  it('refuses a body without customer (400, nothing written)', async () => {
    const { publish, campaignWith, campaigns } = await publicationSetup();
    await campaignWith('Spring', ['SPR-1']);
    expect((await publish({ voucher: 'SPR-1' })).status).toBe(400);
    expect((await campaigns.getVoucher('SPR-1')).json).toMatchObject({ publish: { count: 0 } });
  });

  it('publishes to a new customer without source_id when the customer has neither id nor source_id, a new one each time', async () => {
    const { publish, campaignWith, campaigns, api } = await publicationSetup();
    await campaignWith('Spring', ['SPR-1', 'SPR-2']);
    const first = await publish({ voucher: 'SPR-1', customer: { email: 'anon@example.com' } });
    expect(first.status).toBe(200);
    const customerId = first.json.customer_id as string;
    expect(customerId).toMatch(/^cust_/);
    expect(first.json.customer).toMatchObject({ id: customerId, email: 'anon@example.com', object: 'customer' });
    expect(first.json.customer).not.toHaveProperty('source_id');
    expect(first.json).not.toHaveProperty('tracking_id');
    expect((await campaigns.getVoucher('SPR-1')).json).toMatchObject({ holder_id: customerId, publish: { count: 1 } });
    // The same email again: another customer (an email does not name a customer).
    const second = await publish({ voucher: 'SPR-2', customer: { email: 'anon@example.com' } });
    expect(second.status).toBe(200);
    expect(second.json.customer_id).not.toBe(customerId);
    expect((await api.call('get-customer', { params: { customerId } })).json).toMatchObject({ id: customerId, email: 'anon@example.com' });
  });

  it('gives one code to exactly one of 20 customers publishing it at once; the others get voucher_already_published', async () => {
    const { publish, campaignWith, campaigns } = await publicationSetup();
    await campaignWith('Race', ['RACE-1']);
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => publish({ voucher: 'RACE-1', customer: { source_id: `racer-${i}` } })));
    const won = replies.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    expect(replies.filter((r) => r.status === 400 && r.json.key === 'voucher_already_published')).toHaveLength(19);
    expect((await campaigns.getVoucher('RACE-1')).json).toMatchObject({ holder_id: won[0]?.json.customer_id, publish: { count: 1 } });
  });
});

describe('POST /v1/publications source_id', () => {
  it('returns the same publication for a second request with the same source_id and customer, and refuses another customer', async () => {
    const { publish, campaignWith } = await publicationSetup();
    await campaignWith('Spring', ['SRC-1', 'SRC-2']);
    const first = await publish({ voucher: 'SRC-1', customer, source_id: 'crm-42' });
    const again = await publish({ voucher: 'SRC-2', customer, source_id: 'crm-42' });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ id: first.json.id, voucher: { code: 'SRC-1' } });
    const other = await publish({ voucher: 'SRC-2', customer: { source_id: 'someone' }, source_id: 'crm-42' });
    expect(other.status).toBe(400);
    expect(other.json).toMatchObject({
      key: 'duplicate_source_id',
      message: 'Duplicate source_id',
      details: "Publication with source_id: 'crm-42' already exists",
    });
  });
});
