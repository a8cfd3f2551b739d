import { afterEach, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../../lib/db/client.js';
import type { Runtime } from '../../../lib/runtime.js';
import { type FaultProxy, startFaultProxy } from '../../support/fault-proxy.js';
import { engines } from '../../support/runtime.js';
import { order as orderEntity, redemption as redemptionEntity } from '../../../lib/db/entities.js';
import { RedemptionRefusedError } from '../../../lib/errors.js';
import { REDEMPTION_COUNT_SHARDS } from '../../../lib/redemptions/redemption.js';
import { commitRedemption, shardedUses } from '../../../lib/redemptions/redemption.repo.js';
import { rollbackRedemption, rollbackStackedRedemptions } from '../../../lib/redemptions/redemption.service.js';
import { makeVoucher, planFor, storedVoucher } from '../../support/redeem.js';
import { publicationSetup } from '../publications/support.js';

const refusal = (error: unknown): string => (error instanceof RedemptionRefusedError ? error.key : `unexpected ${String(error)}`);

async function settle<T>(n: number, run: (i: number) => Promise<T>) {
  const results = await Promise.allSettled(Array.from({ length: n }, (_, i) => run(i)));
  return {
    ok: results.filter((r) => r.status === 'fulfilled').length,
    keys: results.flatMap((r) => (r.status === 'rejected' ? [refusal(r.reason)] : [])),
  };
}

describe('commitRedemption (the redemption store)', () => {
  it('lets exactly 10 of 50 parallel redemptions of a voucher limited to 10 through; the others get quantity_exceeded', async () => {
    const { runtime, api, projectId } = await publicationSetup();
    const v = await makeVoucher(runtime, api, projectId, 'TEN-USES', { redemption: { quantity: 10 } });
    const { ok, keys } = await settle(50, () => commitRedemption(runtime, planFor(runtime, projectId, [v])));
    expect(ok).toBe(10);
    expect(keys).toEqual(Array(40).fill('quantity_exceeded'));
    expect((await storedVoucher(runtime, projectId, 'TEN-USES')).redeemedQuantity).toBe(10);
  });

  it('takes exactly 10 of 20 parallel 100-credit redemptions of a 1,000 gift card; the balance ends at 0', async () => {
    const { runtime, api, projectId } = await publicationSetup();
    const v = await makeVoucher(runtime, api, projectId, 'GIFT-1000', { type: 'GIFT_VOUCHER', discount: undefined, gift: { amount: 1000 } });
    const { ok, keys } = await settle(20, () => commitRedemption(runtime, planFor(runtime, projectId, [v], { credits: 100 })));
    expect(ok).toBe(10);
    expect(keys).toEqual(Array(10).fill('gift_amount_exceeded'));
    const after = await storedVoucher(runtime, projectId, 'GIFT-1000');
    expect(after.gift).toMatchObject({ balance: 0, subtractedAmount: 1000 });
  });

  it('counts 32 parallel redemptions of a code with no limit on its shards, never touching the voucher item', async () => {
    const { runtime, api, projectId } = await publicationSetup();
    const v = await makeVoucher(runtime, api, projectId, 'PUBLIC-SALE');
    const { ok } = await settle(32, () => commitRedemption(runtime, planFor(runtime, projectId, [v])));
    expect(ok).toBe(32);
    const after = await storedVoucher(runtime, projectId, 'PUBLIC-SALE');
    expect(after.redeemedQuantity).toBe(0);
    expect(await shardedUses(runtime, projectId, v.id)).toBe(32);
    // The wire shows the sum, on the voucher and in the list of vouchers alike.
    expect((await api.call('get-voucher', { params: { code: 'PUBLIC-SALE' } })).json).toMatchObject({ redemption: { redeemed_quantity: 32 } });
    const listed = await api.call('list-vouchers', { query: 'code=PUBLIC-SALE' });
    expect(listed.json.vouchers).toMatchObject([{ code: 'PUBLIC-SALE', redemption: { redeemed_quantity: 32 } }]);
    const page = await api.call('list-vouchers');
    expect(
      (page.json.vouchers as { code: string; redemption: { redeemed_quantity: number } }[]).find((x) => x.code === 'PUBLIC-SALE')?.redemption.redeemed_quantity,
    ).toBe(32);
  });

  it('writes one shard per use, at the shard the picker gives, within REDEMPTION_COUNT_SHARDS', async () => {
    const { runtime, api, projectId } = await publicationSetup();
    const v = await makeVoucher(runtime, api, projectId, 'PINNED');
    const done = await commitRedemption(runtime, planFor(runtime, projectId, [v]), { random: () => 0.999999 });
    expect(done.replayed).toBe(false);
    if (done.replayed) return;
    expect(done.value.children[0]?.counter).toEqual({ kind: 'shard', shard: REDEMPTION_COUNT_SHARDS - 1 });
  });

  it('writes the parent, the children and a new order with its figures and redemptions map', async () => {
    const { runtime, api, projectId } = await publicationSetup();
    const a = await makeVoucher(runtime, api, projectId, 'STACK-A', { redemption: { quantity: 5 } });
    const b = await makeVoucher(runtime, api, projectId, 'STACK-B', { discount: { type: 'PERCENT', percent_off: 10 } });
    const plan = planFor(runtime, projectId, [a, b], { orderSourceId: 'order-1' });
    const done = await commitRedemption(runtime, plan);
    if (done.replayed) throw new Error('replayed');
    const parent = await redemptionEntity.get(runtime, redemptionEntity.key(projectId, plan.parentRedemptionId));
    expect(parent).toMatchObject({ relatedObjectType: 'redemption', status: 'SUCCEEDED', childIds: plan.redeemables.map((r) => r.redemptionId), amount: 190 });
    const order = await orderEntity.get(runtime, orderEntity.key(projectId, plan.order.id));
    expect(order?.calculation).toMatchObject({ amount: 1000, totalDiscountAmount: 190, totalAmount: 810 });
    expect(order?.redemptions?.[plan.parentRedemptionId]).toMatchObject({ stacked: plan.redeemables.map((r) => r.redemptionId), rollbackId: null });
    // The same source id again, as a new order: the order was created meanwhile.
    const again = planFor(runtime, projectId, [a], { orderSourceId: 'order-1' });
    await expect(commitRedemption(runtime, again)).rejects.toMatchObject({ key: 'order_changed', status: 409 });
    expect((await storedVoucher(runtime, projectId, 'STACK-A')).redeemedQuantity).toBe(1);
  });

  it('refuses a stored order whose revision moved (order_changed, 409), a disabled voucher, a deleted one, and writes nothing', async () => {
    const { runtime, api, projectId } = await publicationSetup();
    const v = await makeVoucher(runtime, api, projectId, 'REFUSE', { redemption: { quantity: 5 } });
    const first = planFor(runtime, projectId, [v]);
    await commitRedemption(runtime, first);
    const stale = planFor(runtime, projectId, [v], { order: { id: first.order.id, sourceId: null, revision: 5 } });
    await expect(commitRedemption(runtime, stale)).rejects.toMatchObject({ key: 'order_changed', status: 409 });
    expect((await api.call('disable-voucher', { params: { code: 'REFUSE' } })).status).toBe(200);
    await expect(commitRedemption(runtime, planFor(runtime, projectId, [v]))).rejects.toMatchObject({
      key: 'voucher_disabled',
      redeemable: { object: 'voucher', id: 'REFUSE' },
    });
    expect((await api.call('delete-voucher', { params: { code: 'REFUSE' }, query: 'force=true' })).status).toBe(204);
    await expect(commitRedemption(runtime, planFor(runtime, projectId, [v]))).rejects.toMatchObject({ key: 'resource_not_found', status: 404 });
  });

  it('refuses the whole plan when one voucher lost its last use, leaving the other untouched', async () => {
    const { runtime, api, projectId } = await publicationSetup();
    const gift = await makeVoucher(runtime, api, projectId, 'ALL-GIFT', { type: 'GIFT_VOUCHER', discount: undefined, gift: { amount: 500 } });
    const once = await makeVoucher(runtime, api, projectId, 'ALL-ONCE', { redemption: { quantity: 1 } });
    await commitRedemption(runtime, planFor(runtime, projectId, [once]));
    await expect(commitRedemption(runtime, planFor(runtime, projectId, [gift, once], { credits: 200 }))).rejects.toMatchObject({
      key: 'quantity_exceeded',
      redeemable: { id: 'ALL-ONCE' },
    });
    expect((await storedVoucher(runtime, projectId, 'ALL-GIFT')).gift?.balance).toBe(500);
  });

  it('consumes the LOCK hold of its own session instead of a free use; without the session the held use is not free', async () => {
    const { runtime, api, projectId, clock } = await publicationSetup();
    await makeVoucher(runtime, api, projectId, 'LOCKED', { redemption: { quantity: 1 } });
    await api.call('update-voucher', { params: { code: 'LOCKED' }, json: { metadata: {} } });
    const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
    const { voucher: voucherEntity } = await import('../../../lib/db/entities.js');
    await runtime.ddb.send(
      new UpdateCommand({
        TableName: runtime.tableName,
        Key: voucherEntity.key(projectId, 'LOCKED'),
        UpdateExpression: 'SET sessions = :s, sessionsRevision = :r',
        ExpressionAttributeValues: { ':s': { cart: { expiresAt: new Date(clock.now().getTime() + 60_000).toISOString(), uses: 1, credits: 0 } }, ':r': 1 },
      }),
    );
    const held = await storedVoucher(runtime, projectId, 'LOCKED');
    await expect(commitRedemption(runtime, planFor(runtime, projectId, [held]))).rejects.toMatchObject({ key: 'quantity_exceeded' });
    await commitRedemption(runtime, planFor(runtime, projectId, [held], { sessionKey: 'cart' }));
    const after = await storedVoucher(runtime, projectId, 'LOCKED');
    expect(after.redeemedQuantity).toBe(1);
    expect(after.sessions).toEqual({});
    expect(after.sessionsRevision).toBe(2);
  });

  it('records the idempotency reply in the same transaction and replays it for the same key', async () => {
    const { runtime, api, projectId } = await publicationSetup();
    const v = await makeVoucher(runtime, api, projectId, 'IDEM', { redemption: { quantity: 5 } });
    const scope = { projectId, key: 'k-1', fingerprint: 'f-1' };
    const idempotency = { scope, reply: (c: { parent: { id: string } }) => ({ id: c.parent.id }) };
    const first = await commitRedemption(runtime, planFor(runtime, projectId, [v]), { idempotency });
    const second = await commitRedemption(runtime, planFor(runtime, projectId, [v]), { idempotency });
    expect(first.replayed).toBe(false);
    expect(second).toEqual({ replayed: true, reply: { id: first.replayed ? '' : first.value.parent.id } });
    expect((await storedVoucher(runtime, projectId, 'IDEM')).redeemedQuantity).toBe(1);
  });
});

describe('rollbacks', () => {
  it('of 20 parallel rollbacks of one redemption exactly one succeeds; the rest get already_rolled_back; uses and credits come back', async () => {
    const { runtime, api, projectId } = await publicationSetup();
    const limited = await makeVoucher(runtime, api, projectId, 'RB-LIMIT', { redemption: { quantity: 3 } });
    const open = await makeVoucher(runtime, api, projectId, 'RB-OPEN');
    const gift = await makeVoucher(runtime, api, projectId, 'RB-GIFT', { type: 'GIFT_VOUCHER', discount: undefined, gift: { amount: 1000 } });
    const plan = planFor(runtime, projectId, [limited, open, gift], { credits: 300 });
    await commitRedemption(runtime, plan);
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => rollbackStackedRedemptions(runtime, projectId, plan.parentRedemptionId, {}, {})));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const errors = results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as { key?: string }).key] : []));
    expect(errors).toEqual(Array(19).fill('already_rolled_back'));
    expect((await storedVoucher(runtime, projectId, 'RB-LIMIT')).redeemedQuantity).toBe(0);
    expect(await shardedUses(runtime, projectId, open.id)).toBe(0);
    expect((await storedVoucher(runtime, projectId, 'RB-GIFT')).gift).toMatchObject({ balance: 1000, subtractedAmount: 0 });
    const order = await orderEntity.get(runtime, orderEntity.key(projectId, plan.order.id));
    expect(order?.redemptions?.[plan.parentRedemptionId]?.rollbackId).toMatch(/^rr_/);
    for (const r of plan.redeemables)
      expect((await redemptionEntity.get(runtime, redemptionEntity.key(projectId, r.redemptionId)))?.status).toBe('ROLLED_BACK');
  });

  it('rolls back one child alone; a second rollback of it is already_rolled_back (400)', async () => {
    const { runtime, api, projectId } = await publicationSetup();
    const v = await makeVoucher(runtime, api, projectId, 'RB-ONE', { redemption: { quantity: 2 } });
    const plan = planFor(runtime, projectId, [v]);
    await commitRedemption(runtime, plan);
    const childId = plan.redeemables[0]?.redemptionId as string;
    const record = await rollbackRedemption(runtime, projectId, childId, { reason: 'refund' }, {});
    expect(record).toMatchObject({ object: 'redemption_rollback', redemption: childId, reason: 'refund', amount: 100 });
    await expect(rollbackRedemption(runtime, projectId, childId, {}, {})).rejects.toMatchObject({ key: 'already_rolled_back', status: 400 });
    expect((await storedVoucher(runtime, projectId, 'RB-ONE')).redeemedQuantity).toBe(0);
  });
});

describe('faults', () => {
  const proxies: FaultProxy[] = [];
  afterEach(async () => {
    for (const proxy of proxies.splice(0)) await proxy.close();
  });
  const via = async (runtime: Runtime, rule: Parameters<typeof startFaultProxy>[1]) => {
    const proxy = await startFaultProxy(engines().dynamoEndpoint, rule);
    proxies.push(proxy);
    return { ...runtime, ddb: createDocumentClient({ region: engines().region, endpoint: proxy.url }) };
  };

  it('moves no counter and writes no order when the transaction fails; the same plan retried with its key commits once', async () => {
    const { runtime, api, projectId } = await publicationSetup();
    const v = await makeVoucher(runtime, api, projectId, 'FAULTY', { redemption: { quantity: 5 } });
    const plan = planFor(runtime, projectId, [v]);
    const idempotency = { scope: { projectId, key: 'fault-1', fingerprint: 'f' }, reply: (c: { parent: { id: string } }) => ({ id: c.parent.id }) };
    const failing = await via(runtime, (operation) => (operation === 'TransactWriteItems' ? 'server-error' : 'pass'));
    await expect(commitRedemption(failing, plan, { idempotency })).rejects.toThrow();
    expect((await storedVoucher(runtime, projectId, 'FAULTY')).redeemedQuantity).toBe(0);
    expect(await orderEntity.get(runtime, orderEntity.key(projectId, plan.order.id))).toBeNull();
    // Committed, but the reply is lost: the retry with the key gets the first reply and nothing more is taken.
    const lossy = await via(runtime, (operation) => (operation === 'TransactWriteItems' ? 'lost-reply' : 'pass'));
    await expect(commitRedemption(lossy, plan, { idempotency })).rejects.toThrow();
    const retried = await commitRedemption(runtime, plan, { idempotency });
    expect(retried).toEqual({ replayed: true, reply: { id: plan.parentRedemptionId } });
    expect((await storedVoucher(runtime, projectId, 'FAULTY')).redeemedQuantity).toBe(1);
  });
});
