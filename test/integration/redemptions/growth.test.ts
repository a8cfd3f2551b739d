import { BatchWriteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { customerRedemptionCount, customerRedemptionSummary, voucher as voucherEntity, voucherSessionHold } from '../../../lib/db/entities.js';
import type { Item } from '../../../lib/db/entity.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

/*
 * Issue 41 item 4: nothing that grows with use lives in one item. A customer who redeemed 20,000
 * distinct objects, and a voucher held by 5,000 LOCK sessions, still redeem and roll back within
 * the request bounds. The collections are seeded directly (BatchWriteItem, the layout the write
 * path makes), not made one by one; a second test shows the old layout could not hold them.
 */

const at = Date.UTC(2026, 10, 28, 12, 0, 0);
type Json = Record<string, unknown>;
/** One request's bound here: the API's own timeout is far above; the issue saw 1.7 s before the 500s. */
const REQUEST_BOUND_MS = 2_000;
/** The same with 5,000 live session holds of 160-character keys, which a request on the voucher reads (DynamoDB Local). */
const SESSIONS_BOUND_MS = 4_000;

async function setup() {
  const runtime = testRuntime({ clock: new ManualClock(at) });
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const ok = async (id: string, opts: Parameters<typeof api.call>[1]) => {
    const reply = await api.call(id, opts);
    if (reply.status >= 300) throw new Error(`${id}: ${reply.status} ${JSON.stringify(reply.json)}`);
    return reply.json as Json;
  };
  const call = async (id: string, opts: Parameters<typeof api.call>[1]) => {
    const started = performance.now();
    const reply = await api.call(id, opts);
    return { status: reply.status, json: reply.json as Json, ms: performance.now() - started };
  };
  /** A campaign of limitless codes with a rule: at most `max` redemptions per customer. */
  const campaign = async (name: string, codes: string[], max: number) => {
    const c = await ok('create-campaign', {
      json: { name, type: 'AUTO_UPDATE', voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } } },
    });
    for (const code of codes) await ok('add-voucher-with-specific-code-to-campaign', { params: { campaignId: c.id as string, code }, json: {} });
    const rule = await ok('create-validation-rules', {
      json: {
        name: 'per customer',
        rules: { 1: { name: 'redemption.count.per_customer', conditions: { $less_than_or_equal: [max] }, error: { message: 'Enough' } } },
      },
    });
    await ok('create-validation-rule-assignment', {
      params: { validationRuleId: rule.id as string },
      json: { related_object_type: 'campaign', related_object_id: c.id },
    });
    return c.id as string;
  };
  /** Writes `items` 25 per BatchWriteItem, 16 requests at a time, until none is left unprocessed. */
  const seed = async (items: Item[]) => {
    const batches: Item[][] = [];
    for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
    const one = async (batch: Item[]) => {
      let pending: unknown[] = batch.map((Item) => ({ PutRequest: { Item } }));
      while (pending.length > 0) {
        const res = await runtime.ddb.send(new BatchWriteCommand({ RequestItems: { [runtime.tableName]: pending as never } }));
        pending = res.UnprocessedItems?.[runtime.tableName] ?? [];
      }
    };
    for (let i = 0; i < batches.length; i += 16) await Promise.all(batches.slice(i, i + 16).map(one));
  };
  const rawItem = async (key: { PK: string; SK: string }) =>
    (await runtime.ddb.send(new GetCommand({ TableName: runtime.tableName, Key: key, ConsistentRead: true }))).Item;
  return { runtime, pair, api, ok, call, campaign, seed, rawItem, projectId: pair.project_id };
}

const cart = (i: number) => ({ source_id: `ord-${i}`, amount: 1000, items: [{ product_id: 'prod_shoe', quantity: 1, price: 1000 }] });
const one = (code: string) => [{ object: 'voucher', id: code }];
const size = (item: unknown) => Buffer.byteLength(JSON.stringify(item));

describe('a customer who redeemed 20,000 distinct objects (issue 41 item 4)', () => {
  it('still redeems and rolls back within the request bounds, and a per-customer limit still holds exactly', async () => {
    const { ok, call, campaign, seed, rawItem, projectId } = await setup();
    await campaign('Guest codes', ['GUEST'], 2);
    const customer = await ok('create-customer', { json: { source_id: 'guest' } });
    const customerId = customer.id as string;
    // 20,000 count items of other objects (the new layout), and the totals they add up to.
    await seed(Array.from({ length: 20_000 }, (_, i) => customerRedemptionCount.toItem({ count: 1 }, projectId, customerId, `v_seed_${i}`)));
    await seed([customerRedemptionSummary.toItem({ redeemed: 20_000, succeeded: 20_000 }, projectId, customerId)]);

    // A customer with no history first, so the figures below are not a cold container's.
    const fresh = await call('redeem-stacked-discounts', { json: { redeemables: one('GUEST'), order: cart(0), customer: { source_id: 'fresh' } } });
    expect(fresh.status).toBe(200);
    const first = await call('redeem-stacked-discounts', { json: { redeemables: one('GUEST'), order: cart(1), customer: { id: customerId } } });
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    const parent = (first.json.parent_redemption as Json).id as string;
    const rolled = await call('rollback-stacked-redemptions', { params: { redemptionId: parent }, json: {} });
    expect(rolled.status, JSON.stringify(rolled.json)).toBe(200);
    // The rule counts only this object: after the rollback the customer has 0 of 2, so two more pass and the third is refused.
    const again = [];
    for (const i of [2, 3, 4])
      again.push(await call('redeem-stacked-discounts', { json: { redeemables: one('GUEST'), order: cart(i), customer: { id: customerId } } }));
    expect(again.map((r) => r.status)).toEqual([200, 200, 400]);
    expect(again[2]?.json).toMatchObject({ key: 'redemption_rules_violated', error: { message: 'Enough' } });
    for (const r of [first, rolled, ...again]) expect(r.ms).toBeLessThan(REQUEST_BOUND_MS);
    console.info(
      `fresh customer: redeem ${fresh.ms.toFixed(0)} ms; 20,000 counts: redeem ${first.ms.toFixed(0)} ms, roll back ${rolled.ms.toFixed(0)} ms, then ${again.map((r) => r.ms.toFixed(0)).join(' / ')} ms`,
    );

    const got = await call('get-customer', { params: { customerId } });
    expect(got.json).toMatchObject({ summary: { redemptions: { total_redeemed: 20_003, total_rolled_back: 1 } } });
    // The totals item stays small: it holds no attribute per object.
    const summary = await rawItem(customerRedemptionSummary.key(projectId, customerId));
    expect(Object.keys(summary ?? {}).filter((k) => k.startsWith('n:'))).toEqual([]);
    expect(size(summary)).toBeLessThan(500);
  }, 180_000);

  it('the old layout could not hold them: 20,000 n:<id> attributes in the summary item are refused by DynamoDB (over 400 KB)', async () => {
    const { runtime, projectId } = await setup();
    const old: Record<string, unknown> = customerRedemptionSummary.toItem({ redeemed: 20_000 }, projectId, 'cust_old');
    for (let i = 0; i < 20_000; i += 1) old[`n:v_${'0'.repeat(20)}${i}`] = 1;
    await expect(runtime.ddb.send(new PutCommand({ TableName: runtime.tableName, Item: old }))).rejects.toThrow(/size/i);
  });

  it('the write path keeps the summary item bounded: 12 redemptions of 12 distinct codes add no attribute to it', async () => {
    const { ok, campaign, rawItem, projectId } = await setup();
    const codes = Array.from({ length: 12 }, (_, i) => `DISTINCT-${i}`);
    await campaign('Distinct', codes, 5);
    const customer = await ok('create-customer', { json: { source_id: 'many' } });
    const customerId = customer.id as string;
    const attributes: number[] = [];
    for (const [i, code] of codes.entries()) {
      await ok('redeem-stacked-discounts', { json: { redeemables: one(code), order: cart(i), customer: { id: customerId } } });
      attributes.push(Object.keys((await rawItem(customerRedemptionSummary.key(projectId, customerId))) ?? {}).length);
    }
    expect(new Set(attributes).size).toBe(1);
    // Each object's count is its own item.
    const counted = await rawItem(
      customerRedemptionCount.key(projectId, customerId, (await ok('get-voucher', { params: { code: 'DISTINCT-3' } })).id as string),
    );
    expect(counted).toMatchObject({ count: 1 });
  }, 120_000);

  it('reads a summary written before the count items: its n:<id> counts still count, under the count items', async () => {
    const { ok, call, campaign, seed, projectId } = await setup();
    const campaignId = await campaign('Legacy', ['OLD-1'], 3);
    const customer = await ok('create-customer', { json: { source_id: 'legacy' } });
    const customerId = customer.id as string;
    // As the old code wrote it: 2 redemptions of the campaign's code, counted on the summary item.
    const voucherId = (await ok('get-voucher', { params: { code: 'OLD-1' } })).id as string;
    await seed([{ ...customerRedemptionSummary.toItem({ redeemed: 2, succeeded: 2 }, projectId, customerId), [`n:${voucherId}`]: 2, [`n:${campaignId}`]: 2 }]);
    const replies = [];
    for (const i of [1, 2])
      replies.push(await call('redeem-stacked-discounts', { json: { redeemables: one('OLD-1'), order: cart(i), customer: { id: customerId } } }));
    expect(replies.map((r) => r.status)).toEqual([200, 400]);
    expect(replies[1]?.json).toMatchObject({ key: 'redemption_rules_violated' });
  }, 60_000);
});

describe('a voucher held by 5,000 LOCK sessions (issue 41 item 4)', () => {
  const day = 86_400_000;
  /** A campaign code with `quantity` uses, and `holds` live sessions seeded on it as the write path stores them. */
  async function heldVoucher(holds: number, quantity: number) {
    const s = await setup();
    const c = await s.ok('create-campaign', {
      json: { name: 'Checkout', type: 'AUTO_UPDATE', voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } } },
    });
    await s.ok('add-voucher-with-specific-code-to-campaign', {
      params: { campaignId: c.id as string, code: 'POPULAR' },
      json: { redemption: { quantity } },
    });
    const voucherId = (await s.ok('get-voucher', { params: { code: 'POPULAR' } })).id as string;
    const expiresAt = new Date(at + day).toISOString();
    const key = (i: number) => `checkout-${i}-${'x'.repeat(150)}`;
    await s.seed(
      Array.from({ length: holds }, (_, i) =>
        voucherSessionHold.toItem({ sessionKey: key(i), expiresAt, uses: 1, credits: 0 }, s.projectId, voucherId, key(i)),
      ),
    );
    await s.runtime.ddb.send(
      new UpdateCommand({
        TableName: s.runtime.tableName,
        Key: voucherEntity.key(s.projectId, 'POPULAR'),
        UpdateExpression: 'SET sessionsUntil = :until, sessionsRevision = :rev',
        ExpressionAttributeValues: { ':until': expiresAt, ':rev': holds },
      }),
    );
    return { ...s, voucherId, key };
  }

  it('a new session, redemptions (with and without a session), a release and PUT /v1/vouchers/{code} succeed within the bounds, and the holds still count', async () => {
    const { call, rawItem, projectId, key } = await heldVoucher(5_000, 5_002);
    // Warm containers first (a validation, a redemption's handler), so the figures below are the holds' cost, not a cold start's.
    await call('validate-stacked-discounts', { json: { redeemables: one('POPULAR'), order: cart(0) } });
    await call('redeem-stacked-discounts', { json: { redeemables: one('NONE'), order: cart(0) } });
    const session = await call('validate-stacked-discounts', {
      json: { redeemables: one('POPULAR'), order: cart(0), session: { type: 'LOCK', key: 'new-one', ttl: 1, ttl_unit: 'HOURS' } },
    });
    expect(session.status, JSON.stringify(session.json)).toBe(200);
    expect(session.json.valid).toBe(true);
    // 5,002 uses − 5,001 held: one left to a request without a session, then none.
    const free = await call('redeem-stacked-discounts', { json: { redeemables: one('POPULAR'), order: cart(1), customer: { source_id: 'a' } } });
    expect(free.status, JSON.stringify(free.json)).toBe(200);
    const none = await call('redeem-stacked-discounts', { json: { redeemables: one('POPULAR'), order: cart(2), customer: { source_id: 'b' } } });
    expect(none.status).toBe(400);
    expect(none.json).toMatchObject({ key: 'quantity_exceeded' });
    // The session redeems the use it holds.
    const held = await call('redeem-stacked-discounts', {
      json: { redeemables: one('POPULAR'), order: cart(3), customer: { source_id: 'c' }, session: { type: 'LOCK', key: 'new-one' } },
    });
    expect(held.status, JSON.stringify(held.json)).toBe(200);
    // A seeded session released frees its use at once.
    const released = await call('release-validation-session', { params: { code: 'POPULAR', sessionKey: key(7) } });
    expect(released.status).toBe(204);
    const freed = await call('redeem-stacked-discounts', { json: { redeemables: one('POPULAR'), order: cart(4), customer: { source_id: 'd' } } });
    expect(freed.status, JSON.stringify(freed.json)).toBe(200);
    const put = await call('update-voucher', { params: { code: 'POPULAR' }, json: { metadata: { shelf: 'front' } } });
    expect(put.status, JSON.stringify(put.json)).toBe(200);
    const rolled = await call('rollback-stacked-redemptions', { params: { redemptionId: (free.json.parent_redemption as Json).id as string }, json: {} });
    expect(rolled.status, JSON.stringify(rolled.json)).toBe(200);
    const timed = { session, free, none, held, released, freed, put, rolled };
    console.info(
      `5,000 sessions: ${Object.entries(timed)
        .map(([name, r]) => `${name} ${r.ms.toFixed(0)} ms`)
        .join(', ')}`,
    );
    // Each request that weighs the holds reads them (one Query, ~1.3 MB here): slower than the customer's case on DynamoDB Local.
    for (const r of Object.values(timed)) expect(r.ms).toBeLessThan(SESSIONS_BOUND_MS);
    // The voucher item holds no session.
    const voucher = await rawItem(voucherEntity.key(projectId, 'POPULAR'));
    expect(voucher?.sessions).toBeUndefined();
    expect(size(voucher)).toBeLessThan(4_000);
  }, 180_000);

  it('the old layout could not hold them: 5,000 holds in the voucher item’s sessions map are refused by DynamoDB (over 400 KB)', async () => {
    const { runtime, rawItem, projectId } = await heldVoucher(0, 10);
    const voucher = (await rawItem(voucherEntity.key(projectId, 'POPULAR'))) as Record<string, unknown>;
    const expiresAt = new Date(at + day).toISOString();
    const sessions = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`checkout-${i}-${'x'.repeat(50)}`, { expiresAt, uses: 1, credits: 0 }]));
    await expect(runtime.ddb.send(new PutCommand({ TableName: runtime.tableName, Item: { ...voucher, sessions } }))).rejects.toThrow(/size/i);
  });

  it('the write path keeps the voucher item bounded: 15 sessions add nothing to it but their revision', async () => {
    const { ok, rawItem, projectId, voucherId } = await heldVoucher(0, 100);
    const sizes: number[] = [];
    for (let i = 0; i < 15; i += 1) {
      const v = await ok('validate-stacked-discounts', {
        json: { redeemables: one('POPULAR'), order: cart(i), session: { type: 'LOCK', key: `session-${i}-${'y'.repeat(100)}`, ttl: 1, ttl_unit: 'HOURS' } },
      });
      expect(v.valid).toBe(true);
      sizes.push(size(await rawItem(voucherEntity.key(projectId, 'POPULAR'))));
    }
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThan(10);
    expect(await rawItem(voucherSessionHold.key(projectId, voucherId, `session-3-${'y'.repeat(100)}`))).toMatchObject({ uses: 1 });
  }, 120_000);

  it('reads holds an older voucher item keeps in its sessions map: they still hold, and can be released', async () => {
    const { runtime, call, projectId } = await heldVoucher(0, 2);
    const expiresAt = new Date(at + day).toISOString();
    await runtime.ddb.send(
      new UpdateCommand({
        TableName: runtime.tableName,
        Key: voucherEntity.key(projectId, 'POPULAR'),
        UpdateExpression: 'SET sessions = :map, sessionsRevision = :rev',
        ExpressionAttributeValues: { ':map': { old: { expiresAt, uses: 1, credits: 0 } }, ':rev': 1 },
      }),
    );
    const first = await call('redeem-stacked-discounts', { json: { redeemables: one('POPULAR'), order: cart(1), customer: { source_id: 'a' } } });
    expect(first.status).toBe(200);
    const second = await call('redeem-stacked-discounts', { json: { redeemables: one('POPULAR'), order: cart(2), customer: { source_id: 'b' } } });
    expect(second.json).toMatchObject({ key: 'quantity_exceeded' });
    expect((await call('release-validation-session', { params: { code: 'POPULAR', sessionKey: 'old' } })).status).toBe(204);
    const third = await call('redeem-stacked-discounts', { json: { redeemables: one('POPULAR'), order: cart(3), customer: { source_id: 'c' } } });
    expect(third.status).toBe(200);
  }, 60_000);
});
