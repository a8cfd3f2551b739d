import { loadavg } from 'node:os';
import { makeHandler as makeValidate } from '../../functions/validations/validate-stacked-discounts.js';
import { validateStackedDiscountsRoute } from '../../lib/api/routes.js';
import { collectionMember, product as productEntity } from '../../lib/db/entities.js';
import type { Runtime } from '../../lib/runtime.js';
import { apiClient } from '../support/api-client.js';
import type { OperationRequest } from '../support/api-client.js';
import { type BenchContext, batchPut, benchRuntime, invokeOk, keyPairHeaders, newBenchProject, recordCommands, replayOf, timed } from './context.js';
import { check, type Section } from './report.js';
import { callSummary, rotation } from './replay.js';
import { median, ms, percentile } from './stats.js';

type Json = Record<string, unknown>;

/** The set-up's calls through the handlers of their routes (not timed): a reply over 299 is an error. */
export function setupClient(runtime: Runtime, headers: Record<string, string>) {
  const api = apiClient({ runtime }, headers);
  return async (operationId: string, request: OperationRequest): Promise<Json & { id: string }> => {
    const reply = await api.call(operationId, request);
    if (reply.status >= 300) throw new Error(`${operationId} answered ${reply.status}: ${JSON.stringify(reply.json).slice(0, 300)}`);
    return reply.json as Json & { id: string };
  };
}

/** A voucher `code` (10 % off, on the items or the order) with one validation rule `rule` assigned to it. */
async function voucherWithRule(ok: ReturnType<typeof setupClient>, code: string, effect: 'APPLY_TO_ITEMS' | 'APPLY_TO_ORDER', rule: Json): Promise<void> {
  const v = await ok('create-voucher', { params: { code }, json: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10, effect } } });
  const r = await ok('create-validation-rules', { json: { name: `rule of ${code}`, rules: {}, ...rule } });
  await ok('create-validation-rule-assignment', { params: { validationRuleId: r.id }, json: { related_object_type: 'voucher', related_object_id: v.id } });
}

/**
 * POST /v1/validations of `body` through its handler against the handler's own reads sent raw
 * (the key's GetItem and its BatchGetItem rounds: reads only, or replayOf refuses), in rotation
 * after `warmup` rounds; `expect` checks a reply before anything is timed.
 */
async function validationItem(
  ctx: BenchContext,
  runtime: Runtime,
  headers: Record<string, string>,
  item: number,
  title: string,
  name: string,
  body: Json,
  expect: (reply: Json) => string | null,
  details: Json,
): Promise<Section> {
  const started = Date.now();
  const runs = ctx.options.quick ? 40 : 120;
  const warmup = ctx.options.quick ? 10 : 20;
  const handler = makeValidate({ runtime });
  const subject = () => invokeOk(handler, validateStackedDiscountsRoute, { path: '/v1/validations', headers, json: body });
  const wrong = expect(await subject());
  if (wrong) throw new Error(`${item}. the validation is not the scenario: ${wrong}`);
  const recorder = recordCommands(runtime);
  for (let i = 0; i < warmup; i += 1) await subject();
  recorder.reset();
  await subject();
  const sent = [...recorder.sent];
  recorder.reset();
  const floor = replayOf(runtime, sent);
  const rounds = [...new Set(sent.map((c) => c.round))].map((r) =>
    sent
      .filter((c) => c.round === r)
      .map((c) => `${c.name}(${c.itemsRead})`)
      .join(' ‖ '),
  );
  const itemsRead = sent.reduce((n, c) => n + c.itemsRead, 0);

  ctx.progress(`${item}. ${title}: ${runs} runs interleaved with its reads sent raw`);
  const samples: number[][] = [[], []];
  const sides = [subject, floor];
  for (let i = 0; i < warmup + runs; i += 1) {
    for (const side of rotation(i, sides.length)) {
      const [t] = await timed(() => (sides[side] as () => Promise<unknown>)());
      if (i >= warmup) samples[side]?.push(t);
    }
  }
  const [s = [], f = []] = samples;
  return {
    item,
    title,
    checks: [
      check({
        name: `${name} p50`,
        measured: median(s),
        floor: median(f),
        unit: 'ms',
        target: '≤ 1.25 × floor + 2 ms',
        bound: 1.25 * median(f) + 2,
        format: ms,
      }),
    ],
    details: { ...details, runs, warmup, rounds, itemsRead, p50: median(s), floorP50: median(f), p99: percentile(s, 99), floorP99: percentile(f, 99) },
    notes: [
      `sends ${callSummary(sent.map((c) => c.name))} (${itemsRead} items read), rounds: ${rounds.join(' → ')}; the floor sends the same reads raw`,
      `p99 ${ms(percentile(s, 99))} against ${ms(percentile(f, 99))}; load average (1 min) ${(loadavg()[0] ?? 0).toFixed(1)}`,
    ],
    seconds: (Date.now() - started) / 1000,
  };
}

/** Redeemable 0 of a validation reply is APPLICABLE (null), else what it is. */
const applicable = (reply: Json): string | null => {
  const first = (reply.redeemables as { status: string }[] | undefined)?.[0];
  return reply.valid === true && first?.status === 'APPLICABLE' ? null : JSON.stringify(reply).slice(0, 300);
};

/** The lines of the cart (item 13). */
const LINES = 50;

/**
 * Issue 35: POST /v1/validations of a 50-line cart (product ids only: the catalog gives the prices)
 * against a voucher whose rule names 3 product collections (applicable to an AUTO_UPDATE one of
 * every product and a STATIC one, a second STATIC one excluded), in a catalog of 10,000 products
 * seeded with their AUTO_UPDATE memberships in the repo's item layout by BatchWriteItem. Floor: the
 * handler's reads raw (key, redeemables, rule, the lines' products and their 150 membership keys).
 * docs/benchmarks.md "13. Validation against product collections".
 */
export async function benchCollectionRule(ctx: BenchContext): Promise<Section[]> {
  const total = 10_000;
  const runtime = benchRuntime(ctx.engines);
  const pair = await newBenchProject(runtime, 'bench collection rule');
  const p = pair.project_id;
  const headers = keyPairHeaders(pair);
  const ok = setupClient(runtime, headers);

  ctx.progress(`13. seeding: an AUTO_UPDATE collection, ${total.toLocaleString('en-US')} products and their memberships by BatchWriteItem`);
  // Made empty (an AUTO_UPDATE create scans at most 1,000 products); the seeded members are what a product write would put.
  const auto = await ok('create-product-collection', {
    json: { type: 'AUTO_UPDATE', name: 'Acme', filter: { junction: 'and', 'metadata.brand': { conditions: { $is: ['acme'] } } } },
  });
  const createdAt = Date.UTC(2026, 0, 1);
  const ids = Array.from({ length: total }, (_, i) => `prod_bench${String(i).padStart(5, '0')}`);
  const seedStart = Date.now();
  await batchPut(
    runtime,
    ids.flatMap((id, i) => {
      const at = new Date(createdAt + i).toISOString();
      const item = { id, sourceId: null, name: `Product ${i}`, price: 500 + (i % 40) * 25, attributes: [], metadata: { brand: 'acme' }, imageUrl: null };
      return [
        productEntity.toItem({ ...item, createdAt: at, updatedAt: null, revision: 0, skuCount: 0 }, p),
        collectionMember.toItem({ collectionId: auto.id, id, object: 'product', productId: id, createdAt: at }, p),
      ];
    }),
    16,
  );
  const seedSeconds = (Date.now() - seedStart) / 1000;
  const cart = Array.from({ length: LINES }, (_, i) => ids[i * Math.floor(total / LINES)] as string);
  const picked = (from: number, n: number) => cart.slice(from, from + n).map((id) => ({ id, object: 'product' }));
  const featured = await ok('create-product-collection', { json: { type: 'STATIC', name: 'Featured', products: picked(0, 20) } });
  const clearance = await ok('create-product-collection', { json: { type: 'STATIC', name: 'Clearance', products: picked(40, 5) } });
  await voucherWithRule(ok, 'CART10', 'APPLY_TO_ITEMS', {
    applicable_to: {
      included: [
        { object: 'products_collection', id: auto.id },
        { object: 'products_collection', id: featured.id },
      ],
      excluded: [{ object: 'products_collection', id: clearance.id }],
    },
  });
  const body = {
    redeemables: [{ object: 'voucher', id: 'CART10' }],
    order: { items: cart.map((product_id, i) => ({ product_id, quantity: 1 + (i % 3) })) },
  };
  const excluded = (reply: Json): string | null => {
    const items = (reply.order as { items?: { product_id: string; applied_discount_amount?: number }[] } | undefined)?.items ?? [];
    const discounted = items.filter((l) => (l.applied_discount_amount ?? 0) > 0).length;
    return applicable(reply) ?? (discounted === LINES - 5 ? null : `${discounted} of ${LINES} lines discounted, ${LINES - 5} expected`);
  };
  return [
    await validationItem(
      ctx,
      runtime,
      headers,
      13,
      'Validation against product collections',
      `POST /v1/validations, ${LINES} lines, a rule naming 3 collections (AUTO_UPDATE over ${total.toLocaleString('en-US')} products),`,
      body,
      excluded,
      { products: total, lines: LINES, seedSeconds },
    ),
  ];
}

/**
 * Issue 36: POST /v1/validations of a voucher whose rule is `customer.segment` $in an auto-update
 * segment, for a customer (by id) the segment holds; a customer it does not hold is refused before
 * anything is timed. Floor: the handler's reads raw. docs/benchmarks.md "15. Validation against a segment".
 */
export async function benchSegmentRule(ctx: BenchContext): Promise<Section[]> {
  const runtime = benchRuntime(ctx.engines);
  const pair = await newBenchProject(runtime, 'bench segment rule');
  const headers = keyPairHeaders(pair);
  const ok = setupClient(runtime, headers);
  ctx.progress('15. seeding: an auto-update segment, two customers, a voucher with a customer.segment rule');
  const segment = await ok('create-segment', {
    json: { name: 'VIP', type: 'auto-update', filter: { junction: 'and', 'metadata.tier': { conditions: { $is: 'vip' } } } },
  });
  const vip = await ok('create-customer', { json: { source_id: 'bench-vip', metadata: { tier: 'vip' } } });
  const other = await ok('create-customer', { json: { source_id: 'bench-other', metadata: { tier: 'basic' } } });
  await voucherWithRule(ok, 'VIP10', 'APPLY_TO_ORDER', { rules: { 1: { name: 'customer.segment', conditions: { $in: [segment.id] } }, logic: '1' } });
  const body = (customerId: string) => ({ redeemables: [{ object: 'voucher', id: 'VIP10' }], customer: { id: customerId }, order: { amount: 20_000 } });
  const refused = await ok('validate-stacked-discounts', { json: body(other.id) });
  if (refused.valid !== false) throw new Error(`15. a customer outside the segment was not refused: ${JSON.stringify(refused).slice(0, 300)}`);
  return [
    await validationItem(
      ctx,
      runtime,
      headers,
      15,
      'Validation against a segment',
      'POST /v1/validations, a customer.segment rule on an auto-update segment,',
      body(vip.id),
      applicable,
      { segment: segment.id },
    ),
  ];
}
