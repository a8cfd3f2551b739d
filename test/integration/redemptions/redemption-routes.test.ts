import { describe, expect, it } from 'vitest';
import { shardedUses } from '../../../lib/redemptions/redemption.repo.js';
import { redeemedSetup } from './redeemed-setup.js';

type Json = Record<string, unknown>;
const ids = (reply: { json: unknown }, field = 'redemptions') => ((reply.json as Json)[field] as Json[]).map((r) => r.id);

/** A project with two vouchers and three redemptions a second apart: one stacked (with a customer and a campaign), two single. */
const redeemed = () => redeemedSetup({ source_id: 'buyer-1' }, 'ord-src-1');

describe('redemption reads', () => {
  it('gets a parent with its children named, a child with its voucher and order figures, and 404 for an unknown id', async () => {
    const { api, stacked, limited } = await redeemed();
    const parent = await api.call('get-redemption', { params: { redemptionId: stacked.parentRedemptionId } });
    expect(parent.status).toBe(200);
    expect(parent.json).toMatchObject({
      object: 'redemption',
      related_object_type: 'redemption',
      status: 'SUCCEEDED',
      result: 'SUCCESS',
      customer: { source_id: 'buyer-1', object: 'customer' },
      related_redemptions: { redemptions: stacked.redeemables.map((r) => ({ id: r.redemptionId })) },
      order: { source_id: 'ord-src-1', amount: 1000, total_discount_amount: 200, total_amount: 800 },
    });
    const child = await api.call('get-redemption', { params: { redemptionId: stacked.redeemables[0]?.redemptionId as string } });
    expect(child.json).toMatchObject({
      redemption: stacked.parentRedemptionId,
      related_object_type: 'voucher',
      related_object_id: limited.id,
      voucher: { code: 'R-LIMITED' },
      amount: 100,
      order: { applied_discount_amount: 100 },
    });
    const unknown = await api.call('get-redemption', { params: { redemptionId: 'r_nothing' } });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ key: 'not_found', resource_type: 'redemption' });
  });

  it('lists newest first with paging, oldest first on request, and by voucher, customer, campaign, result and date', async () => {
    const { api, stacked, second, third, customerId, clock } = await redeemed();
    const all = await api.call('list-redemptions', { query: 'limit=2' });
    expect(all.status).toBe(200);
    // Same date: parent and child tie, ordered by id.
    expect(new Set(ids(all))).toEqual(new Set([third.parentRedemptionId, third.redeemables[0]?.redemptionId]));
    expect(all.json).toMatchObject({ object: 'list', data_ref: 'redemptions', has_more: true });
    const page3 = await api.call('list-redemptions', { query: 'limit=2&page=4' });
    expect(ids(page3)).toHaveLength(1);
    expect((page3.json as Json).has_more).toBe(false);
    const asc = await api.call('list-redemptions', { query: 'limit=1&order=created_at' });
    expect((asc.json as { redemptions: Json[] }).redemptions[0]?.date).toBe(new Date(clock.now().getTime() - 3000).toISOString());
    const byVoucher = await api.call('list-redemptions', { query: 'voucher=R-OPEN' });
    expect(ids(byVoucher)).toEqual([second.redeemables[0]?.redemptionId, stacked.redeemables[1]?.redemptionId]);
    const byCustomer = await api.call('list-redemptions', { query: `customer=${customerId}` });
    expect(new Set(ids(byCustomer))).toEqual(new Set([stacked.parentRedemptionId, ...stacked.redeemables.map((r) => r.redemptionId)]));
    const byCampaign = await api.call('list-redemptions', { query: 'campaign=camp_summer' });
    expect(new Set(ids(byCampaign))).toEqual(new Set(stacked.redeemables.map((r) => r.redemptionId)));
    expect((byCampaign.json as Json).total).toBe(2);
    expect(ids(await api.call('list-redemptions', { query: 'result=FAILURE' }))).toEqual([]);
    const before = new Date(clock.now().getTime() - 2500).toISOString();
    const early = await api.call('list-redemptions', { query: `created_at[before]=${encodeURIComponent(before)}` });
    expect(new Set(ids(early))).toEqual(new Set([stacked.parentRedemptionId, ...stacked.redeemables.map((r) => r.redemptionId)]));
    const after = await api.call('list-redemptions', { query: `created_at[after]=${encodeURIComponent(before)}&limit=100` });
    expect(ids(after)).toHaveLength(4);
    expect((await api.call('list-redemptions', { query: 'voucher=NO-SUCH' })).json).toMatchObject({ redemptions: [], total: 0 });
  });

  it("lists a voucher's redemptions and counts a limitless code's uses from its shards (get-voucher agrees)", async () => {
    const { api, stacked, second } = await redeemed();
    const open = await api.call('get-voucher-redemptions', { params: { code: 'R-OPEN' } });
    expect(open.status).toBe(200);
    expect(open.json).toMatchObject({ quantity: null, redeemed_quantity: 2, total: 2, data_ref: 'redemption_entries', url: '/v1/vouchers/R-OPEN/redemption' });
    expect(ids(open, 'redemption_entries')).toEqual([second.redeemables[0]?.redemptionId, stacked.redeemables[1]?.redemptionId]);
    expect(((await api.call('get-voucher', { params: { code: 'R-OPEN' } })).json as { redemption: Json }).redemption.redeemed_quantity).toBe(2);
    const limited = await api.call('get-voucher-redemptions', { params: { code: 'R-LIMITED' } });
    expect(limited.json).toMatchObject({ quantity: 5, redeemed_quantity: 2, total: 2 });
  });
});

describe('rollback routes', () => {
  it('rolls back a stacked redemption with its figures; a second rollback is 400 already_rolled_back', async () => {
    const { api, stacked } = await redeemed();
    const res = await api.call('rollback-stacked-redemptions', {
      params: { redemptionId: stacked.parentRedemptionId },
      query: 'reason=refund&tracking_id=t-1',
    });
    expect(res.status).toBe(200);
    const body = res.json as { rollbacks: Json[]; parent_rollback: Json; order: Json };
    expect(body.rollbacks.map((r) => r.redemption)).toEqual(stacked.redeemables.map((r) => r.redemptionId));
    expect(body.rollbacks.map((r) => r.amount)).toEqual([100, 100]);
    expect(body.parent_rollback).toMatchObject({
      object: 'redemption_rollback',
      redemption: stacked.parentRedemptionId,
      reason: 'refund',
      tracking_id: 't-1',
      status: 'SUCCEEDED',
    });
    expect(body.order).toMatchObject({ source_id: 'ord-src-1', total_amount: 800 });
    const order = await api.call('get-order', { params: { orderId: 'ord-src-1' } });
    expect(order.json).toMatchObject({
      amount: 1000,
      total_discount_amount: 200,
      total_amount: 800,
      applied_discount_amount: 0,
      items: [{ discount_amount: 0, subtotal_amount: 1000 }],
      redemptions: {
        [stacked.parentRedemptionId]: {
          related_object_type: 'redemption',
          stacked: stacked.redeemables.map((r) => r.redemptionId),
          rollback_id: body.parent_rollback.id,
        },
      },
    });
    const again = await api.call('rollback-stacked-redemptions', { params: { redemptionId: stacked.parentRedemptionId } });
    expect(again.status).toBe(400);
    expect(again.json).toMatchObject({ key: 'already_rolled_back', resource_id: stacked.parentRedemptionId });
    const limited = await api.call('get-voucher-redemptions', { params: { code: 'R-LIMITED' } });
    expect(limited.json).toMatchObject({ redeemed_quantity: 1, total: 3 });
    const open = await api.call('get-voucher', { params: { code: 'R-OPEN' } });
    expect((open.json as { redemption: Json }).redemption.redeemed_quantity).toBe(1);
    const parent = await api.call('get-redemption', { params: { redemptionId: stacked.parentRedemptionId } });
    expect(parent.json).toMatchObject({ status: 'ROLLED_BACK', related_redemptions: { rollbacks: [{ id: body.parent_rollback.id }] } });
    const record = await api.call('get-redemption', { params: { redemptionId: body.parent_rollback.id as string } });
    expect(record.json).toMatchObject({ object: 'redemption_rollback' });
  });

  it('rolls back one redemption, with the customer and metadata sent; 404 for an unknown one', async () => {
    const { api, third } = await redeemed();
    const childId = third.redeemables[0]?.redemptionId as string;
    const res = await api.call('rollback-redemption', {
      params: { redemptionId: childId },
      json: { customer: { source_id: 'refunder' }, metadata: { why: 'broken' } },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ object: 'redemption_rollback', redemption: childId, metadata: { why: 'broken' }, customer: { source_id: 'refunder' } });
    expect((await api.call('rollback-redemption', { params: { redemptionId: childId } })).json).toMatchObject({ key: 'already_rolled_back' });
    expect((await api.call('rollback-redemption', { params: { redemptionId: 'r_nothing' } })).status).toBe(404);
    expect((await api.call('rollback-redemption', { params: { redemptionId: childId }, json: { order: { id: 'x' } } })).status).toBe(400);
  });

  it("writes nothing, not even the body's customer, when the rollback is refused (unknown, or already rolled back)", async () => {
    const { api, third } = await redeemed();
    const childId = third.redeemables[0]?.redemptionId as string;
    const missing = await api.call('rollback-redemption', { params: { redemptionId: 'r_nothing' }, json: { customer: { source_id: 'ghost-1' } } });
    expect(missing.status).toBe(404);
    expect((await api.call('get-customer', { params: { customerId: 'ghost-1' } })).status).toBe(404);
    expect((await api.call('rollback-redemption', { params: { redemptionId: childId } })).status).toBe(200);
    const again = await api.call('rollback-redemption', { params: { redemptionId: childId }, json: { customer: { source_id: 'ghost-2' } } });
    expect(again.json).toMatchObject({ key: 'already_rolled_back' });
    expect((await api.call('get-customer', { params: { customerId: 'ghost-2' } })).status).toBe(404);
    const stacked = await api.call('rollback-stacked-redemptions', { params: { redemptionId: 'r_nothing' }, json: { customer: { source_id: 'ghost-3' } } });
    expect(stacked.status).toBe(404);
    expect((await api.call('get-customer', { params: { customerId: 'ghost-3' } })).status).toBe(404);
  });
});

describe('deleting a voucher with redemptions', () => {
  it('keeps them while the voucher is in the bin, and removes them and its count shards with force', async () => {
    const { api, runtime, projectId, open, second, stacked, third } = await redeemed();
    expect((await api.call('delete-voucher', { params: { code: 'R-LIMITED' } })).status).toBe(204);
    for (const id of [stacked.redeemables[0]?.redemptionId, third.redeemables[0]?.redemptionId])
      expect((await api.call('get-redemption', { params: { redemptionId: id as string } })).status).toBe(200);
    expect((await api.call('delete-voucher', { params: { code: 'R-OPEN' }, query: 'force=true' })).status).toBe(204);
    for (const id of [stacked.redeemables[1]?.redemptionId, second.redeemables[0]?.redemptionId])
      expect((await api.call('get-redemption', { params: { redemptionId: id as string } })).status).toBe(404);
    expect(await shardedUses(runtime, projectId, open.id)).toBe(0);
    // The parent stays: it belongs to the order, and names the other voucher's redemption too.
    expect((await api.call('get-redemption', { params: { redemptionId: stacked.parentRedemptionId } })).status).toBe(200);
  });

  it('DELETE /v1/trash-bin/{binEntryId} removes the entry and the redemptions its voucher kept; a second delete and an unknown id are 404', async () => {
    const { api, stacked, third } = await redeemed();
    expect((await api.call('delete-voucher', { params: { code: 'R-LIMITED' } })).status).toBe(204);
    const bin = await api.call('list-bin-entries');
    const entry = (bin.json as { data: { id: string; resource_name: string }[] }).data.find((e) => e.resource_name === 'R-LIMITED');
    if (!entry) throw new Error('R-LIMITED is not in the bin');
    const kept = [stacked.redeemables[0]?.redemptionId, third.redeemables[0]?.redemptionId] as string[];
    for (const id of kept) expect((await api.call('get-redemption', { params: { redemptionId: id } })).status).toBe(200);

    expect((await api.call('delete-bin-entry', { params: { binEntryId: entry.id } })).status).toBe(204);
    const after = await api.call('list-bin-entries');
    expect((after.json as { data: { id: string }[] }).data.map((e) => e.id)).not.toContain(entry.id);
    for (const id of kept) expect((await api.call('get-redemption', { params: { redemptionId: id } })).status).toBe(404);
    // The other voucher's redemptions and the parent stay.
    expect((await api.call('get-redemption', { params: { redemptionId: stacked.redeemables[1]?.redemptionId as string } })).status).toBe(200);
    expect((await api.call('get-redemption', { params: { redemptionId: stacked.parentRedemptionId } })).status).toBe(200);

    const again = await api.call('delete-bin-entry', { params: { binEntryId: entry.id } });
    expect(again.status).toBe(404);
    expect(again.json).toMatchObject({ key: 'not_found', resource_type: 'bin_entry', resource_id: entry.id });
    expect((await api.call('delete-bin-entry', { params: { binEntryId: 'tbe_000000000000aaaaaaaaaa' } })).status).toBe(404);
    expect((await api.call('delete-bin-entry', { params: { binEntryId: 'v_123' } })).status).toBe(400);
  });

  it('lets one of 8 concurrent deletes of a bin entry win; the others answer 404', async () => {
    const { api } = await redeemed();
    expect((await api.call('delete-voucher', { params: { code: 'R-OPEN' } })).status).toBe(204);
    const entry = (await api.call('list-bin-entries')).json as { data: { id: string }[] };
    const id = entry.data[0]?.id as string;
    const replies = await Promise.all(Array.from({ length: 8 }, () => api.call('delete-bin-entry', { params: { binEntryId: id } })));
    expect(replies.map((r) => r.status).sort()).toEqual([204, 404, 404, 404, 404, 404, 404, 404]);
  });
});
