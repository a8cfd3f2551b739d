import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makeHandler as makeCreateCampaign } from '../../functions/campaigns/create-campaign.js';
import { makeHandler as makeCreatePublication } from '../../functions/publications/create-publication.js';
import { makeHandler as makeRedeem } from '../../functions/redemptions/redeem-stacked-discounts.js';
import { makeHandler as makeCreateVoucher } from '../../functions/vouchers/create-voucher.js';
import { createCampaignRoute, createPublicationRoute, createVoucherRoute, redeemStackedDiscountsRoute } from '../../lib/api/routes.js';
import type { VoucherCampaign } from '../../lib/campaigns/campaign.js';
import { upsertCustomer } from '../../lib/customers/customer.service.js';
import { campaign as campaignEntity, voucher as voucherEntity } from '../../lib/db/entities.js';
import type { TransactItem } from '../../lib/db/transact.js';
import { eventsOfChange } from '../../lib/events-out/change-events.js';
import type { Runtime } from '../../lib/runtime.js';
import { generateVouchers } from '../../lib/vouchers/voucher-generation.js';
import { LOCAL_TARGET_POLICY } from '../../lib/webhooks/target-policy.js';
import type { WebhookEvent } from '../../lib/webhooks/webhook.js';
import { createWebhook } from '../../lib/webhooks/webhook.service.js';
import { type BenchContext, benchRuntime, invokeOk, keyPairHeaders, newBenchProject, recordCommands, replayOf, type SentCommand, timed } from './context.js';
import { growth, rate, renamed } from './flow-helpers.js';
import { childFlags } from './flow-helpers.js';
import { check, type Check, type Section } from './report.js';
import { callSummary, rotation, withFreshPutKeys } from './replay.js';
import { median, mib, ms, percentile, perSecond, ratio } from './stats.js';
import type { WebhookChildArgs } from './webhooks-child.js';

const run = promisify(execFile);
const CHILD = join(import.meta.dirname, 'webhooks-child.ts');
/** Delivery batches handled side by side: SQS batches of 10 on as many worker containers. */
const LANES = 4;

const localTargets = { policy: LOCAL_TARGET_POLICY, resolve: async () => ['127.0.0.1'] };

/** A webhook of the project for `events` (to a port nothing listens on: item 21 times the request path, not delivery). */
const webhookFor = (runtime: Runtime, projectId: string, events: WebhookEvent[], url = 'http://127.0.0.1:9/hook') =>
  createWebhook(runtime, localTargets, projectId, { target_url: url, events });

/** Times `sides` in rotation (`runs` rounds after `warmup`), one sample per side per round. */
async function rotating(runs: number, warmup: number, sides: ReadonlyArray<(i: number) => Promise<unknown>>): Promise<number[][]> {
  const out = sides.map(() => [] as number[]);
  for (let i = 0; i < warmup + runs; i += 1) {
    for (const side of rotation(i, sides.length)) {
      const [t] = await timed(() => (sides[side] as (i: number) => Promise<unknown>)(i));
      if (i >= warmup) out[side]?.push(t);
    }
  }
  return out;
}

/** The Put items of the one transaction in `sent`, and the events their insertion makes (the outbox: the stream of the table). */
function transactionOf(sent: readonly SentCommand[], what: string): { items: TransactItem[]; events: string[] } {
  const transactions = sent.filter((c) => c.name === 'TransactWrite');
  if (transactions.length !== 1) throw new Error(`${what} sent ${transactions.length} transactions: ${callSummary(sent.map((c) => c.name))}`);
  const items = (transactions[0]?.input.TransactItems ?? []) as TransactItem[];
  const events = items.flatMap((t) => (t.Put?.Item ? eventsOfChange({ kind: 'INSERT', newItem: t.Put.Item, oldItem: null }).map((e) => e.type) : []));
  return { items, events };
}

/**
 * Item 21 (issue 40): what the outbox costs POST /v1/redemptions and POST /v1/publications in a project
 * with a webhook for their events. The outbox is the table's stream (docs/decisions.md "Webhooks:
 * the outbox and delivery"): the event's record is the redemption (publication) item the handler
 * writes in its one transaction. The item checks that, that the transaction has as many items as in a
 * project without webhooks, and times each handler beside its floor: its own calls sent raw, round
 * by round (the transaction, event record inside, with fresh keys for its new items; a publication's
 * aimed at a twin voucher and customer of its own).
 */
export async function benchOutboxCost(ctx: BenchContext): Promise<Section[]> {
  const started = Date.now();
  const runs = ctx.options.quick ? 40 : 120;
  const warmup = ctx.options.quick ? 10 : 15;
  const runtime = benchRuntime(ctx.engines);
  const recorder = recordCommands(runtime);
  const checks: Check[] = [];
  const notes: string[] = [];
  const cases: Record<string, unknown>[] = [];
  const load: number[] = [];

  const hooked = await newBenchProject(runtime, 'bench outbox');
  const bare = await newBenchProject(runtime, 'bench outbox, no webhook');
  const p = hooked.project_id;
  const headers = keyPairHeaders(hooked);
  const bareHeaders = keyPairHeaders(bare);
  await webhookFor(runtime, p, ['redemption.succeeded', 'publication.succeeded']);

  const outboxChecks = (
    name: string,
    event: WebhookEvent,
    withHook: { items: TransactItem[]; events: string[] },
    without: { items: TransactItem[] } | null,
  ) => {
    const recorded = withHook.events.filter((e) => e === event).length;
    checks.push(
      check({
        name: `${name}: ${event} records in the handler's one transaction`,
        measured: recorded,
        unit: '',
        target: '≥ 1 (the event is written with the change)',
        bound: 1,
        direction: 'min',
        format: (n) => String(n),
      }),
    );
    if (without) {
      const added = withHook.items.length - without.items.length;
      checks.push(
        check({
          name: `${name}: transaction items added by the webhook`,
          measured: added,
          unit: 'items',
          target: '= 0',
          bound: 0,
          format: (n) => `${n} (${withHook.items.length} vs ${without.items.length})`,
        }),
      );
    }
  };
  const compare = (name: string, subject: number[], floor: number[], calls: string, extra: Record<string, unknown> = {}) => {
    const s = median(subject);
    const f = median(floor);
    const l = loadavg()[0] ?? 0;
    load.push(l);
    checks.push(
      check({
        name: `${name} p50`,
        measured: s,
        floor: f,
        unit: 'ms',
        target: '≤ 1.25 × floor + 2 ms',
        bound: 1.25 * f + 2,
        format: ms,
        note: `load ${l.toFixed(1)}`,
      }),
    );
    cases.push({
      case: name,
      p50: s,
      floorP50: f,
      p99: percentile(subject, 99),
      floorP99: percentile(floor, 99),
      calls,
      runs: subject.length,
      load1m: l,
      ...extra,
    });
    notes.push(`${name}: sends ${calls}; p99 ${ms(percentile(subject, 99))} against ${ms(percentile(floor, 99))}; load ${l.toFixed(1)}`);
  };

  {
    // 1. A redemption of one limitless standalone voucher, in both projects.
    const name = 'POST /v1/redemptions, 1 redeemable, webhook on redemption.succeeded';
    const redeem = makeRedeem({ runtime });
    for (const h of [headers, bareHeaders]) {
      await invokeOk(makeCreateVoucher({ runtime }), createVoucherRoute, {
        path: '/v1/vouchers/OUTBOX-1',
        headers: h,
        json: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } },
      });
    }
    const request = (h: Record<string, string>) => ({
      path: '/v1/redemptions',
      headers: h,
      json: { redeemables: [{ object: 'voucher', id: 'OUTBOX-1' }], order: { amount: 20_000 } },
    });
    for (let i = 0; i < warmup; i += 1) await invokeOk(redeem, redeemStackedDiscountsRoute, request(headers));
    recorder.reset();
    await invokeOk(redeem, redeemStackedDiscountsRoute, request(bareHeaders));
    const bareTx = transactionOf(recorder.sent, 'the redemption without webhooks');
    recorder.reset();
    await invokeOk(redeem, redeemStackedDiscountsRoute, request(headers));
    const sent = [...recorder.sent];
    const tx = transactionOf(sent, 'the redemption');
    outboxChecks('POST /v1/redemptions', 'redemption.succeeded', tx, bareTx);
    ctx.progress(`21. ${name}: ${runs} runs in rotation with its floor and the same in a project without webhooks`);
    const floor = replayOf(runtime, sent, (items, n) => withFreshPutKeys(items, `#floor${n}`));
    const [subject = [], floorTimes = [], bareTimes = []] = await rotating(runs, warmup, [
      () => invokeOk(redeem, redeemStackedDiscountsRoute, request(headers)),
      floor,
      () => invokeOk(redeem, redeemStackedDiscountsRoute, request(bareHeaders)),
    ]);
    compare(name, subject, floorTimes, callSummary(sent.map((c) => c.name)), { transactionItems: tx.items.length, events: tx.events });
    checks.push(
      check({
        name: 'POST /v1/redemptions, 1 redeemable, project without webhooks p50',
        measured: median(bareTimes),
        floor: median(floorTimes),
        unit: 'ms',
        target: 'reported',
        format: ms,
      }),
    );
    notes.push(`the redemption's transaction: ${tx.items.length} items; events of its Puts: ${tx.events.join(', ')}`);
  }

  {
    // 2. A publication from a STATIC campaign's pool to a known customer (the common case); the floor's twins:
    // a second campaign's pool and customers of its own, one of each per run.
    const name = 'POST /v1/publications (campaign, 1 voucher), webhook on publication.succeeded';
    const count = runs + warmup + 2;
    ctx.progress(`21. seeding publications: two pools of ${count} vouchers and ${2 * count} customers`);
    const createCampaign = makeCreateCampaign({ runtime });
    const body = (label: string) => ({
      name: label,
      campaign_type: 'DISCOUNT_COUPONS',
      type: 'STATIC',
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } },
    });
    const pool = await invokeOk(createCampaign, createCampaignRoute, { path: '/v1/campaigns', headers, json: body('Outbox publish') });
    const twin = await invokeOk(createCampaign, createCampaignRoute, { path: '/v1/campaigns', headers, json: body('Outbox floor') });
    const poolId = String(pool.id);
    const twinId = String(twin.id);
    for (const id of [poolId, twinId]) {
      const c = await campaignEntity.get(runtime, campaignEntity.key(p, id));
      if (!c) throw new Error(`campaign ${id} not found`);
      await generateVouchers(runtime, c as VoucherCampaign, count, { category: null });
    }
    const twinVouchers = await voucherEntity.query(runtime, { index: [p, twinId] });
    const twinCustomers: string[] = [];
    for (let i = 0; i < count; i += 1) {
      await upsertCustomer(runtime, p, { source_id: `opub-${i}` });
      twinCustomers.push((await upsertCustomer(runtime, p, { source_id: `ofloor-${i}` })).id);
    }
    await upsertCustomer(runtime, p, { source_id: 'opub-probe' });
    const publish = makeCreatePublication({ runtime });
    const request = (sourceId: string) => ({ path: '/v1/publications', headers, json: { campaign: { name: poolId }, customer: { source_id: sourceId } } });
    recorder.reset();
    const probe = await invokeOk(publish, createPublicationRoute, request('opub-probe'));
    const sent = [...recorder.sent];
    const tx = transactionOf(sent, 'the publication');
    outboxChecks('POST /v1/publications', 'publication.succeeded', tx, null);
    const probeCode = String((probe.voucher as Record<string, unknown> | undefined)?.code ?? '');
    const probeVoucher = await voucherEntity.get(runtime, voucherEntity.key(p, probeCode));
    if (!probeVoucher) throw new Error(`published voucher ${probeCode} not found`);
    const probeCustomer = String(probe.customer_id);
    const probeId = String(probe.id);
    const floor = replayOf(runtime, sent, (items, n) => {
      const v = twinVouchers[n - 1];
      const c = twinCustomers[n - 1];
      if (!v || !c) throw new Error(`no twin for floor run ${n}`);
      return renamed(items, [
        [probeId, `${probeId}f${n}`],
        [probeVoucher.id, v.id],
        [probeCode, v.code],
        [probeCustomer, c],
        [poolId, twinId],
      ]);
    });
    ctx.progress(`21. ${name}: ${runs} runs in rotation with its floor`);
    const [subject = [], floorTimes = []] = await rotating(runs, warmup, [(i) => invokeOk(publish, createPublicationRoute, request(`opub-${i}`)), floor]);
    compare(name, subject, floorTimes, callSummary(sent.map((c) => c.name)), { transactionItems: tx.items.length, events: tx.events });
    notes.push(`the publication's transaction: ${tx.items.length} items; events of its Puts: ${tx.events.join(', ')}`);
  }

  return [
    {
      item: 21,
      title: 'Outbox cost: POST /v1/redemptions and POST /v1/publications with a webhook for their events',
      checks,
      details: { runs, warmup, cases, loadAverage1m: load },
      notes: [
        "the outbox is the table stream: the event record is the redemption (publication) item of the handler's one transaction, so the floor (its own calls sent raw) includes it",
        ...notes,
      ],
      seconds: (Date.now() - started) / 1000,
    },
  ];
}

interface DeliveryRun {
  ms: number;
  settled: number;
  failed: number;
  heapBefore: number;
  heapAfter: number;
  peakHeap: number;
  peakRss: number;
}

async function deliveryChild(args: WebhookChildArgs): Promise<DeliveryRun> {
  const { stdout } = await run(process.execPath, [...childFlags(), '--import', 'tsx', CHILD, JSON.stringify(args)], {
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    maxBuffer: 1 << 20,
    timeout: 900_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as DeliveryRun;
}

/** A redemption as the API shows it, the size of a real event's `data.object`. */
const sampleObject = (projectId: string): Record<string, unknown> => ({
  id: 'r_0e1f2a3b4c5d6e7f80',
  object: 'redemption',
  date: '2026-11-29T12:00:00.000Z',
  customer_id: 'cust_0a1b2c3d4e5f6a7b8c',
  tracking_id: 'track_bench',
  metadata: { channel: 'bench', store: 'WAW-01' },
  amount: 2000,
  redemption: 'r_0e1f2a3b4c5d6e7f7f',
  result: 'SUCCESS',
  status: 'SUCCEEDED',
  order: {
    id: 'ord_0a1b2c3d4e5f6a7b8c',
    source_id: null,
    status: 'PAID',
    amount: 20_000,
    discount_amount: 2000,
    total_discount_amount: 2000,
    total_amount: 18_000,
    items: [{ object: 'order_item', product_id: 'prod_bench', quantity: 2, amount: 20_000, price: 10_000 }],
    metadata: {},
    object: 'order',
  },
  customer: { id: 'cust_0a1b2c3d4e5f6a7b8c', source_id: 'bench-customer', name: 'Bench Customer', email: 'bench@example.com', object: 'customer' },
  related_object_type: 'voucher',
  related_object_id: 'v_0a1b2c3d4e5f6a7b8c',
  voucher: {
    id: 'v_0a1b2c3d4e5f6a7b8c',
    code: 'BENCH-CODE-1',
    campaign: 'Bench campaign',
    campaign_id: 'camp_0a1b2c3d4e5f6a7b8c',
    type: 'DISCOUNT_VOUCHER',
    discount: { type: 'PERCENT', percent_off: 10 },
    is_referral_code: false,
    object: 'voucher',
  },
  project_id: projectId,
});

/**
 * Item 22 (issue 40): webhook deliveries per second from the delivery worker's handler to a loopback
 * receiver (an http server here), SQS batches of 10 on LANES lanes, in a child process at two sizes
 * (the larger ten times the smaller), with its peak heap; beside the raw calls of each delivery
 * (two GetItems a batch, one POST of the same bytes an event) at the larger size, reported.
 */
export async function benchWebhookDelivery(ctx: BenchContext): Promise<Section[]> {
  const started = Date.now();
  const sizes = ctx.options.quick ? [300, 3000] : [1000, 10_000];
  const runtime = benchRuntime(ctx.engines);
  let received = 0;
  let bytes = 0;
  const server: Server = createServer((req, res) => {
    req.on('data', (c: Buffer) => {
      bytes += c.byteLength;
    });
    req.on('end', () => {
      received += 1;
      res.statusCode = 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  try {
    const pair = await newBenchProject(runtime, 'bench webhook delivery');
    const p = pair.project_id;
    const webhook = await webhookFor(runtime, p, ['redemption.succeeded'], url);
    const e = ctx.engines;
    const base = {
      region: e.region,
      tableName: e.tableName,
      dynamoEndpoint: e.dynamoEndpoint,
      projectId: p,
      webhookId: webhook.id,
      url,
      lanes: LANES,
      object: sampleObject(p),
    };
    const runsBy: DeliveryRun[] = [];
    const load: number[] = [];
    for (const events of sizes) {
      ctx.progress(`22. ${events} deliveries through the delivery worker (child process, ${LANES} lanes of 10)`);
      const before = received;
      const r = await deliveryChild({ ...base, mode: 'worker', events });
      if (r.settled !== events || r.failed !== 0 || received - before !== events) {
        throw new Error(`${events} events: ${r.settled} settled, ${r.failed} failed, ${received - before} received`);
      }
      runsBy.push(r);
      load.push(loadavg()[0] ?? 0);
    }
    const big = sizes.at(-1) ?? 0;
    ctx.progress(`22. ${big} deliveries' raw calls (the floor, reported)`);
    const before = received;
    const floor = await deliveryChild({ ...base, mode: 'floor', events: big });
    if (floor.settled !== big || received - before !== big) throw new Error(`floor: ${floor.settled} of ${big} answered 200`);
    load.push(loadavg()[0] ?? 0);
    const [small, large] = runsBy;
    if (!small || !large) throw new Error('no runs');
    const measured = rate(big, large.ms);
    const floorRate = rate(big, floor.ms);
    const checks: Check[] = [
      check({
        name: `${big.toLocaleString('en-US')} deliveries, events/s`,
        measured,
        floor: floorRate,
        unit: '/s',
        target: '≥ 200/s',
        bound: 200,
        direction: 'min',
        format: perSecond,
        note: `load ${(load[1] ?? 0).toFixed(1)}`,
      }),
      check({
        name: `delivery worker heap kept (after a full GC) at ${big.toLocaleString('en-US')} vs ${(sizes[0] ?? 0).toLocaleString('en-US')} events`,
        measured: large.heapAfter,
        floor: small.heapAfter,
        unit: 'bytes',
        target: '≤ 1.2 × small',
        bound: 1.2 * small.heapAfter,
        format: mib,
      }),
      check({
        name: `delivery worker peak heap at ${big.toLocaleString('en-US')} vs ${(sizes[0] ?? 0).toLocaleString('en-US')} events`,
        measured: large.peakHeap,
        floor: small.peakHeap,
        unit: 'bytes',
        target: 'reported (follows when V8 collects)',
        format: mib,
      }),
    ];
    return [
      {
        item: 22,
        title: 'Webhook delivery: the delivery worker to a loopback receiver (child process)',
        checks,
        details: { sizes, lanes: LANES, runs: runsBy, floor, bytesReceived: bytes, loadAverage1m: load },
        notes: [
          `${LANES} SQS batches of 10 handled side by side (as many worker containers); no SQS in the loop (receiving and deleting messages is the event source mapping's work)`,
          `${sizes[0]} events ${perSecond(rate(sizes[0] ?? 0, small.ms))}, ${big} events ${perSecond(measured)}; raw calls (Get webhook ‖ Get project a batch, a POST an event) ${perSecond(floorRate)}: ${ratio(measured / floorRate)} of the floor`,
          `peak heap ${mib(small.peakHeap)} → ${mib(large.peakHeap)} (${ratio(growth(small.peakHeap, large.peakHeap))}); peak RSS ${mib(small.peakRss)} → ${mib(large.peakRss)}; heap kept after a full GC ${mib(small.heapBefore)} before → ${mib(small.heapAfter)} → ${mib(large.heapAfter)}`,
          `load average (1 min) after each run: ${load.map((l) => l.toFixed(1)).join(', ')}`,
        ],
        seconds: (Date.now() - started) / 1000,
      },
    ];
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
