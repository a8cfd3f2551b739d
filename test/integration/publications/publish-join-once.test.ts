import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { heldVoucher, voucher as voucherEntity } from '../../../lib/db/entities.js';
import { getVoucherByCode } from '../../../lib/vouchers/voucher.repo.js';
import { campaignBodies, newCampaign } from '../../support/api.js';
import { publicationSetup } from './support.js';

const joinOnce = (name: string, type = 'AUTO_UPDATE') => ({
  ...campaignBodies.DISCOUNT_COUPONS(name),
  type,
  join_once: true,
  voucher: { ...campaignBodies.DISCOUNT_COUPONS(name).voucher, code_config: { pattern: 'JO-######', charset: '0123456789' } },
});

describe('POST /v1/publications in a join-once campaign', () => {
  it('gives a customer one voucher: a second publication returns the first, another customer gets another', async () => {
    const { publish, campaigns } = await publicationSetup();
    await newCampaign(campaigns, joinOnce('Once'));
    const first = await publish({ campaign: { name: 'Once' }, customer: { source_id: 'ann' } });
    const second = await publish({ campaign: { name: 'Once' }, customer: { source_id: 'ann' }, metadata: { again: true } });
    expect(second.status).toBe(200);
    expect(second.json).toMatchObject({ id: first.json.id, voucher: { code: (first.json.voucher as { code: string }).code, publish: { count: 1 } } });
    const other = await publish({ campaign: { name: 'Once' }, customer: { source_id: 'ben' } });
    expect((other.json.voucher as { code: string }).code).not.toBe((first.json.voucher as { code: string }).code);
    expect((await campaigns.getCampaign('Once')).json.vouchers_count).toBe(2);
  });

  it('applies join_once from the query or the body to a campaign without it', async () => {
    const { publish, campaignWith } = await publicationSetup();
    await campaignWith('Plain', ['PL-1', 'PL-2', 'PL-3', 'PL-4'], { type: 'STATIC' });
    const a = await publish({ campaign: { name: 'Plain' }, customer: { source_id: 'cy' } }, { query: 'join_once=true' });
    const b = await publish({ campaign: { name: 'Plain' }, customer: { source_id: 'cy' } }, { query: 'join_once=true' });
    expect(b.json.id).toBe(a.json.id);
    const c = await publish({ campaign: { name: 'Plain' }, customer: { source_id: 'dee' }, join_once: true });
    const d = await publish({ campaign: { name: 'Plain' }, customer: { source_id: 'dee' }, join_once: true });
    expect(d.json.id).toBe(c.json.id);
    // Without it, the same customer gets another voucher of the campaign.
    const e = await publish({ campaign: { name: 'Plain' }, customer: { source_id: 'dee' } });
    expect(e.status).toBe(200);
    expect((e.json.voucher as { code: string }).code).not.toBe((c.json.voucher as { code: string }).code);
  });

  it('refuses count above 1, and a code other than the one the customer holds (voucher_cannot_be_published)', async () => {
    const { publish, campaignWith } = await publicationSetup();
    await campaignWith('Held', ['HE-1', 'HE-2'], { type: 'STATIC', join_once: true });
    const many = await publish({ campaign: { name: 'Held', count: 2 }, customer: { source_id: 'eve' } });
    expect(many.status).toBe(400);
    expect(many.json).toMatchObject({ key: 'too_many_vouchers_requested' });
    const first = await publish({ voucher: 'HE-1', customer: { source_id: 'eve' } });
    expect(first.status).toBe(200);
    const same = await publish({ voucher: 'HE-1', customer: { source_id: 'eve' } });
    expect(same.json.id).toBe(first.json.id);
    const other = await publish({ voucher: 'HE-2', customer: { source_id: 'eve' } });
    expect(other.status).toBe(400);
    expect(other.json).toMatchObject({ key: 'voucher_cannot_be_published', message: 'Voucher cannot be published' });
  });

  it('gives one voucher and one publication to one customer publishing 20 times at once', async () => {
    const { publish, campaigns } = await publicationSetup();
    await newCampaign(campaigns, joinOnce('Burst'));
    const replies = await Promise.all(Array.from({ length: 20 }, () => publish({ campaign: { name: 'Burst' }, customer: { source_id: 'fay' } })));
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(replies.map((r) => (r.json.voucher as { code: string }).code)).size).toBe(1);
    expect(new Set(replies.map((r) => r.json.id)).size).toBe(1);
    expect((await campaigns.getCampaign('Burst')).json.vouchers_count).toBe(1);
    const code = ((replies[0]?.json.voucher ?? {}) as { code: string }).code;
    expect((await campaigns.getVoucher(code)).json).toMatchObject({ publish: { count: 1 }, holder_id: replies[0]?.json.customer_id });
  });

  it('records a publication for a voucher the customer got without one (a referee reward) and returns that voucher', async () => {
    const { runtime, projectId, publish, campaignWith, api } = await publicationSetup();
    const campaign = await campaignWith('Reward', ['RW-1', 'RW-2'], { type: 'STATIC', join_once: true });
    const customer = await api.call('create-customer', { json: { source_id: 'gus' } });
    const customerId = customer.json.id as string;
    // What the referee reward writes: the voucher held and counted once, and the held-voucher item, no publication.
    const v = await getVoucherByCode(runtime, projectId, 'RW-2');
    if (!v) throw new Error('RW-2 missing');
    const held = { ...v, holderId: customerId, publishCount: 1 };
    await runtime.ddb.send(new PutCommand({ TableName: runtime.tableName, Item: voucherEntity.toItem(held, campaign.id as string) }));
    await runtime.ddb.send(
      new PutCommand({
        TableName: runtime.tableName,
        Item: heldVoucher.toItem(
          { customerId, campaignId: campaign.id as string, code: 'RW-2', voucherId: v.id, createdAt: v.createdAt, publicationId: null },
          projectId,
        ),
      }),
    );
    const reply = await publish({ campaign: { name: 'Reward' }, customer: { source_id: 'gus' } });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ voucher: { code: 'RW-2', holder_id: customerId, publish: { count: 1 } } });
    const again = await publish({ campaign: { name: 'Reward' }, customer: { source_id: 'gus' } });
    expect(again.json.id).toBe(reply.json.id);
    expect((await getVoucherByCode(runtime, projectId, 'RW-1'))?.publishCount).toBe(0);
  });
});
