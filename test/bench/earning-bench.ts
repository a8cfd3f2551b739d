import { loadavg } from 'node:os';
import { makeHandler as makeUpdateOrder } from '../../functions/orders/update-order.js';
import { updateOrderRoute } from '../../lib/api/routes.js';
import { voucher as voucherEntity } from '../../lib/db/entities.js';
import type { TransactItem } from '../../lib/db/transact.js';
import { type BenchContext, benchRuntime, invokeOk, keyPairHeaders, newBenchProject, recordCommands, replayOf, timed } from './context.js';
import { callSummary, rotation } from './replay.js';
import { check, type Section } from './report.js';
import { floorItems } from './reward-bench.js';
import { setupClient } from './rules-bench.js';
import { median, ms, percentile } from './stats.js';

/** Points a paid order of 100.00 earns: 1 per 1.00, doubled by the member's tier. */
const ORDER_AMOUNT = 10_000;
const EARNED = 200;

/**
 * The floor's copy of a transaction the subject sent (floorItems of item 10: the card's Update on
 * a twin card, new items under fresh keys). New items also go to index partitions of their own
 * (else the floor's buckets would be the member's, in the card's buckets index the subject reads
 * and checks against the card), and a Put's condition on the item it replaced (the order's
 * revision) becomes "absent", as its fresh key is: the same check, one that holds.
 */
function replayItems(items: readonly TransactItem[], cardKey: { PK: string; SK: string }, twinKey: { PK: string; SK: string }, run: number): TransactItem[] {
  return floorItems(items, cardKey, twinKey, `#floor${run}`).map((item) => {
    if (!item.Put) return item;
    const { ConditionExpression: condition, ExpressionAttributeValues: _v, ExpressionAttributeNames: _n, ...put } = item.Put;
    const Item = Object.fromEntries(Object.entries(put.Item ?? {}).map(([k, v]) => [k, /^GSI\d+PK$/.test(k) ? `${String(v)}#floor` : v]));
    return { Put: { ...put, Item, ...(condition ? { ConditionExpression: 'attribute_not_exists(PK)' } : {}) } };
  });
}

/**
 * Issue 37: PUT /v1/orders/{orderId} moving an order of a member's to PAID, which earns by the
 * program's `order.paid` rule (1 point per 1.00) on the member's card, whose tier (Gold) doubles
 * it, through its handler, against the same calls sent raw: its reads round by round and its
 * transactions (the order's write, the earning), replayed with fresh keys for new items and the
 * card's Update on a twin card. A fresh CREATED order for every run. docs/benchmarks.md "14. Earning on order.paid".
 */
export async function benchOrderEarning(ctx: BenchContext): Promise<Section[]> {
  const started = Date.now();
  const runs = ctx.options.quick ? 40 : 120;
  const warmup = ctx.options.quick ? 10 : 20;
  const runtime = benchRuntime(ctx.engines);
  const pair = await newBenchProject(runtime, 'bench order earning');
  const p = pair.project_id;
  const headers = keyPairHeaders(pair);
  const ok = setupClient(runtime, headers);

  ctx.progress('14. seeding: a loyalty program with an order.paid rule and two tiers, a Gold member, orders');
  const program = await ok('create-campaign', {
    json: { name: 'Bench club', campaign_type: 'LOYALTY_PROGRAM', type: 'AUTO_UPDATE', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } },
  });
  const rules = (await ok('create-earning-rule', {
    params: { campaignId: program.id },
    json: [
      {
        event: 'order.paid',
        loyalty: { type: 'PROPORTIONAL', calculation_type: 'ORDER_AMOUNT', order: { amount: { every: 100, points: 1 } } },
        source: { banner: 'Paid order' },
      },
    ],
  })) as unknown as { id: string }[];
  const ruleId = rules[0]?.id as string;
  await ok('create-in-bulk-loyalty-tiers', {
    params: { campaignId: program.id },
    json: [
      { name: 'Silver', points: { from: 0, to: 999 } },
      { name: 'Gold', points: { from: 1000 }, earning_rules: { [ruleId]: { type: 'MULTIPLY', multiplier: 2 } } },
    ],
  });
  const member = await ok('add-member', { params: { campaignId: program.id }, json: { customer: { source_id: 'bench-member' } } });
  const twin = await ok('add-member', { params: { campaignId: program.id }, json: { customer: { source_id: 'bench-twin' } } });
  for (const card of [member, twin])
    await ok('update-loyalty-card-balance', { params: { memberId: card.code as string }, json: { points: 5_000, reason: 'bench' } });
  const orders: string[] = [];
  for (let i = 0; i < warmup + runs + 4; i += 1) {
    const o = await ok('create-order', { json: { amount: ORDER_AMOUNT, status: 'CREATED', customer: { id: member.holder_id } } });
    orders.push(o.id);
  }

  const handler = makeUpdateOrder({ runtime });
  let next = 0;
  const subject = () => {
    const id = orders[next++];
    if (id === undefined) throw new Error('14. out of orders');
    return invokeOk(handler, updateOrderRoute, { path: `/v1/orders/${id}`, headers, json: { status: 'PAID' } });
  };
  const points = async () => ((await ok('get-member', { params: { memberId: member.code as string } })).loyalty_card as { points: number }).points;
  const before = await points();
  // Recorded warm, as the timed runs are (the first request of a container reads more).
  for (let i = 0; i < 3; i += 1) await subject();
  const recorder = recordCommands(runtime);
  await subject();
  const sent = [...recorder.sent];
  recorder.reset();
  const earned = ((await points()) - before) / 4;
  if (earned !== EARNED) throw new Error(`14. a paid order earned ${earned} points, ${EARNED} expected (Gold doubles 100)`);
  const cardKey = voucherEntity.key(p, member.code as string);
  const twinKey = voucherEntity.key(p, twin.code as string);
  const floor = replayOf(runtime, sent, (items, run) => replayItems(items, cardKey, twinKey, run));
  const transactions = sent.filter((c) => c.name === 'TransactWrite').map((c) => (c.input.TransactItems as unknown[]).length);

  ctx.progress(`14. order earning: ${runs} runs interleaved with its calls sent raw`);
  const samples: number[][] = [[], []];
  const sides = [subject, floor];
  for (let i = 0; i < warmup + runs; i += 1) {
    for (const side of rotation(i, sides.length)) {
      const [t] = await timed(() => (sides[side] as () => Promise<unknown>)());
      if (i >= warmup) samples[side]?.push(t);
    }
  }
  const [s = [], f = []] = samples;
  const rounds = [...new Set(sent.map((c) => c.round))].map((r) =>
    sent
      .filter((c) => c.round === r)
      .map((c) => c.name)
      .join(' ‖ '),
  );
  return [
    {
      item: 14,
      title: 'Earning on order.paid',
      checks: [
        check({
          name: 'PUT /v1/orders/{orderId} to PAID, earning for a Gold member, p50',
          measured: median(s),
          floor: median(f),
          unit: 'ms',
          target: '≤ 1.25 × floor + 2 ms',
          bound: 1.25 * median(f) + 2,
          format: ms,
        }),
      ],
      details: { runs, warmup, rounds, transactions, earned, p50: median(s), floorP50: median(f), p99: percentile(s, 99), floorP99: percentile(f, 99) },
      notes: [
        `sends ${callSummary(sent.map((c) => c.name))} (rounds: ${rounds.join(' → ')}; transactions of ${transactions.join(' and ')} items); the floor sends the same calls raw, the card's Update on a twin card`,
        `p99 ${ms(percentile(s, 99))} against ${ms(percentile(f, 99))}; load average (1 min) ${(loadavg()[0] ?? 0).toFixed(1)}`,
      ],
      seconds: (Date.now() - started) / 1000,
    },
  ];
}
