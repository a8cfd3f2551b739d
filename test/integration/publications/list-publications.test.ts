import { describe, expect, it } from 'vitest';
import { campaignBodies } from '../../support/api.js';
import { at, countingReads, publicationSetup, putVoucher, standaloneVoucher } from './support.js';

type Json = Record<string, unknown>;
const ids = (reply: { json: Json }) => (reply.json.publications as Json[]).map((p) => p.id);
const iso = (ms: number) => new Date(ms).toISOString();

/** Five publications a minute apart: three discount codes (two to ann), a loyalty card to bob, a generic code to ann. */
async function seeded() {
  const s = await publicationSetup();
  const { publish, campaignWith, clock, runtime, projectId } = s;
  await campaignWith('Coupons', ['CO-1', 'CO-2', 'CO-3', 'CO-4'], { type: 'STATIC' });
  await campaignWith('Cards', ['CARD-1'], { ...campaignBodies.LOYALTY_PROGRAM('Cards'), type: 'STATIC' });
  await putVoucher(runtime, standaloneVoucher(projectId, 'GENERIC'));
  const made: Json[] = [];
  const step = async (body: Json) => {
    const reply = await publish(body);
    if (reply.status !== 200) throw new Error(JSON.stringify(reply.json));
    made.push(reply.json);
    clock.advance(60_000);
  };
  await step({ voucher: 'CO-1', customer: { source_id: 'ann', name: 'Ann' }, source_id: 'crm-1', metadata: { n: 1 } });
  await step({ campaign: { name: 'Coupons', count: 2 }, customer: { source_id: 'bob' }, channel: 'email' });
  await step({ voucher: 'CARD-1', customer: { source_id: 'bob' } });
  await step({ voucher: 'GENERIC', customer: { source_id: 'ann' } });
  await step({ voucher: 'GENERIC', customer: { source_id: 'cy' } });
  return { ...s, made };
}

describe('GET /v1/publications', () => {
  it('lists publications newest first with the total, as Voucherify shapes them', async () => {
    const { list, made } = await seeded();
    const reply = await list();
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ object: 'list', data_ref: 'publications', total: 5, has_more: false });
    expect(ids(reply)).toEqual(made.map((p) => p.id).reverse());
    const [first] = (reply.json.publications as Json[]).slice(-1);
    expect(first).toEqual({
      id: made[0]?.id,
      object: 'publication',
      created_at: iso(at),
      customer_id: made[0]?.customer_id,
      tracking_id: 'ann',
      metadata: { n: 1 },
      channel: 'API',
      source_id: 'crm-1',
      result: 'SUCCESS',
      customer: made[0]?.customer,
      vouchers_id: made[0]?.vouchers_id,
      voucher: { code: 'CO-1', object: 'voucher', campaign: 'Coupons', discount: { type: 'PERCENT', percent_off: 10 }, is_referral_code: false },
    });
    const multi = (reply.json.publications as Json[])[3];
    expect(multi).toMatchObject({ channel: 'email', vouchers: made[1]?.vouchers, vouchers_id: made[1]?.vouchers_id });
    expect(multi).not.toHaveProperty('voucher');
    expect((reply.json.publications as Json[])[2]).toMatchObject({ voucher: { code: 'CARD-1', loyalty_card: { points: 100, balance: 100 } } });
  });

  it('pages with limit and page, and orders oldest first with order=created_at', async () => {
    const { list, made } = await seeded();
    const page2 = await list('limit=2&page=2');
    expect(ids(page2)).toEqual([made[2]?.id, made[1]?.id]);
    expect(page2.json).toMatchObject({ total: 5, has_more: true });
    const last = await list('limit=2&page=3');
    expect(last.json).toMatchObject({ total: 5, has_more: false });
    expect(ids(await list('order=created_at&limit=3'))).toEqual(made.slice(0, 3).map((p) => p.id));
  });

  it('filters by customer (id or source id), campaign (name or id), voucher type and referral flag, each with its own total', async () => {
    const { list, made, campaigns } = await seeded();
    const ann = made[0]?.customer_id as string;
    expect(ids(await list('customer=ann'))).toEqual([made[3]?.id, made[0]?.id]);
    expect((await list(`customer=${ann}`)).json).toMatchObject({ total: 2 });
    expect(ids(await list(`filters[customer_id][conditions][$is]=${ann}`))).toEqual([made[3]?.id, made[0]?.id]);
    const coupons = await list('campaign=Coupons');
    expect(ids(coupons)).toEqual([made[1]?.id, made[0]?.id]);
    expect(coupons.json.total).toBe(2);
    const campaignId = (await campaigns.getCampaign('Coupons')).json.id as string;
    expect(ids(await list(`filters[parent_object_id][conditions][$in][0]=${campaignId}`))).toEqual([made[1]?.id, made[0]?.id]);
    expect(ids(await list('filters[campaign_name][conditions][$is]=Cards'))).toEqual([made[2]?.id]);
    expect(ids(await list('voucher_type=loyalty'))).toEqual([made[2]?.id]);
    expect(ids(await list('voucher_type=DISCOUNT'))).toEqual([made[4]?.id, made[3]?.id, made[1]?.id, made[0]?.id]);
    expect((await list('voucher_type=LUCKY_DRAW')).json).toMatchObject({ publications: [], total: 0 });
    expect((await list('is_referral_code=true')).json).toMatchObject({ publications: [], total: 0 });
    expect((await list('campaign=Nope')).json).toMatchObject({ publications: [], total: 0 });
  });

  it('finds the publication of a voucher by its code, every publication of a generic code, and one by source_id', async () => {
    const { list, made, campaigns } = await seeded();
    expect(ids(await list('voucher=CO-1'))).toEqual([made[0]?.id]);
    const multi = (made[1]?.vouchers ?? []) as string[];
    const second = multi[1] as string;
    expect(ids(await list(`voucher=${second}`))).toEqual([made[1]?.id]);
    const unpublished = ['CO-2', 'CO-3', 'CO-4'].find((c) => !multi.includes(c));
    expect((await list(`voucher=${unpublished}`)).json).toMatchObject({ publications: [], total: 0 });
    const generic = await list('voucher=GENERIC');
    expect(ids(generic)).toEqual([made[4]?.id, made[3]?.id]);
    expect(generic.json.total).toBe(2);
    const voucherId = (await campaigns.getVoucher('CARD-1')).json.id as string;
    expect(ids(await list(`filters[related_object_id][conditions][$is]=${voucherId}`))).toEqual([made[2]?.id]);
    expect(ids(await list('source_id=crm-1'))).toEqual([made[0]?.id]);
    expect((await list('source_id=crm-9')).json).toMatchObject({ publications: [], total: 0 });
  });

  it('bounds the creation time with created_at[after] and [before] (both excluded); the total stays the filter’s', async () => {
    const { list, made } = await seeded();
    const reply = await list(`created_at[after]=${iso(at)}&created_at[before]=${iso(at + 180_000)}`);
    expect(ids(reply)).toEqual([made[2]?.id, made[1]?.id]);
    expect(reply.json.total).toBe(5);
    expect(ids(await list(`customer=ann&created_at[after]=${iso(at + 1)}`))).toEqual([made[3]?.id]);
  });

  it('lists no failures: result=FAILURE is empty, result=SUCCESS lists all', async () => {
    const { list } = await seeded();
    expect((await list('result=FAILURE')).json).toMatchObject({ publications: [], total: 0 });
    expect((await list('filters[failure_code][conditions][$is]=x')).json).toMatchObject({ publications: [], total: 0 });
    expect((await list('result=SUCCESS')).json.total).toBe(5);
  });

  it('keeps a deleted customer’s publications under its id', async () => {
    const { list, made, api } = await seeded();
    expect((await api.call('delete-customer', { params: { customerId: 'bob' } })).status).toBe(204);
    expect(ids(await list(`customer=${made[1]?.customer_id as string}`))).toEqual([made[2]?.id, made[1]?.id]);
    expect((await list('customer=bob')).json).toMatchObject({ publications: [], total: 0 });
  });

  it('reads only the entries the page needs: page 2 of 1 reads 3 entries of the 5, and the counts', async () => {
    const { list, made, runtime, projectId } = await seeded();
    const reads = countingReads(runtime);
    expect(ids(await list('limit=1&page=2'))).toEqual([made[3]?.id]);
    expect(reads.items('PUBLICATIONS#ALL')).toBe(3);
    expect(reads.queries.every((q) => q.startsWith(`P#${projectId}#`))).toBe(true);
  });

  it('refuses two filters at once, operators no key serves, and pages past 99 with 400 invalid_query_params', async () => {
    const { list } = await publicationSetup();
    for (const query of [
      'customer=a&campaign=b',
      'customer=a&filters[campaign_name][conditions][$is]=b',
      'filters[customer_id][conditions][$in][0]=a&filters[customer_id][conditions][$in][1]=b',
      'filters[customer_id][conditions][$contains]=a',
      'page=100',
      'order=voucher_code',
      'limit=101',
    ]) {
      const reply = await list(query);
      expect(reply.status, query).toBe(400);
      expect(reply.json, query).toMatchObject({ key: 'invalid_query_params' });
    }
  });
});
