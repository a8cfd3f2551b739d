import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { BatchGetCommand, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { makeHandler as makeCreateCampaign } from '../../functions/campaigns/create-campaign.js';
import { makeHandler as makeRedeem } from '../../functions/redemptions/redeem-stacked-discounts.js';
import { makeHandler as makeValidate } from '../../functions/validations/validate-stacked-discounts.js';
import { makeHandler as makeValidateClientSide } from '../../functions/validations/validate-stacked-discounts-client-side.js';
import { makeHandler as makeValidateVoucherClientSide } from '../../functions/validations/validate-voucher-client-side.js';
import { createClientKey } from '../../lib/app-keys/app-key.service.js';
import { makeHandler as makeAddVouchers } from '../../functions/vouchers/add-vouchers-to-campaign.js';
import { makeHandler as makeCreateVoucher } from '../../functions/vouchers/create-voucher.js';
import {
  addVouchersToCampaignRoute,
  createCampaignRoute,
  createVoucherRoute,
  redeemStackedDiscountsRoute,
  validateStackedDiscountsClientSideRoute,
  validateStackedDiscountsRoute,
  validateVoucherClientSideRoute,
} from '../../lib/api/routes.js';
import { campaign as campaignEntity, voucher as voucherEntity } from '../../lib/db/entities.js';
import { keys } from '../../lib/db/keys.js';
import type { TransactItem } from '../../lib/db/transact.js';
import { shardedUses } from '../../lib/redemptions/redemption.repo.js';
import type { CreateValidationRuleBody } from '../../lib/validation-rules/validation-rule.schema.js';
import { createValidationRuleAssignment, createValidationRules } from '../../lib/validation-rules/validation-rule.service.js';
import type { Runtime } from '../../lib/runtime.js';
import { getVoucherByCode, voucherPutItems } from '../../lib/vouchers/voucher.repo.js';
import { batchPut, type BenchContext, benchRuntime, invokeOk, keyPairHeaders, newBenchProject, recordCommands, timed } from './context.js';
import { check, type Check, type Section } from './report.js';
import { callSummary, itemBytes, opsPerSecond, rotation, withFreshPutKeys, writeUnits } from './replay.js';
import { discountBody } from './requests-bench.js';
import { median, ms, percentile, perSecond, ratio } from './stats.js';

/** Concurrent clients of the hot-code check (issue 17), and the count shards of a limitless code (lib/redemptions/redemption.ts). */
const CLIENTS = 32;

/** A stacked request's body: `codes` as vouchers, against an inline order of 200.00 (no order read). */
const stackedBody = (codes: readonly string[]) => ({
  redeemables: codes.map((id) => ({ object: 'voucher' as const, id })),
  order: { amount: 20_000 },
});

/** How item 9 redeems. */
interface Redeemer {
  label: string;
  redeem(codes: readonly string[]): Promise<void>;
}

/** One item of a transaction as the AWS estimate needs it: what it is, its size and write units, the indexes it enters. */
function describeItem(item: TransactItem): { op: string; entity: string; bytes: number | null; wcu: number | null; indexes: string[] } {
  if (item.Put) {
    const it = item.Put.Item ?? {};
    const bytes = itemBytes(it);
    return {
      op: 'Put',
      entity: String(it.entity ?? it.PK),
      bytes,
      wcu: writeUnits(bytes, true),
      indexes: ['GSI1', 'GSI2', 'GSI3', 'GSI4', 'GSI5'].filter((g) => it[`${g}PK`] !== undefined),
    };
  }
  const update = item.Update;
  const entity = String(update?.ExpressionAttributeValues?.[':entity'] ?? update?.Key?.PK ?? Object.keys(item)[0]);
  return { op: Object.keys(item)[0] ?? '?', entity, bytes: null, wcu: null, indexes: [] };
}

/** Times `sides` in rotation (`runs` rounds after `warmup`), one sample per side per round. */
async function rotating(runs: number, warmup: number, sides: ReadonlyArray<() => Promise<unknown>>): Promise<number[][]> {
  const out = sides.map(() => [] as number[]);
  for (let i = 0; i < warmup + runs; i += 1) {
    for (const side of rotation(i, sides.length)) {
      const [t] = await timed(() => (sides[side] as () => Promise<unknown>)());
      if (i >= warmup) out[side]?.push(t);
    }
  }
  return out;
}

/** POST /v1/redemptions through its handler, as Lambda invokes it (no Idempotency-Key: the transaction holds no key record). */
function handlerRedeemer(runtime: Runtime, headers: Record<string, string>): Redeemer {
  const handler = makeRedeem({ runtime });
  return {
    label: 'POST /v1/redemptions (its handler)',
    async redeem(codes) {
      await invokeOk(handler, redeemStackedDiscountsRoute, { path: '/v1/redemptions', headers, json: stackedBody(codes) });
    },
  };
}

/** Counts the TransactWriteItems a runtime sends and how many of them fail (conflicts, cancellations). */
function countTransactions(runtime: Runtime): { sent: number; failed: number; reset(): void } {
  const counts = {
    sent: 0,
    failed: 0,
    reset() {
      counts.sent = 0;
      counts.failed = 0;
    },
  };
  const send = runtime.ddb.send.bind(runtime.ddb);
  runtime.ddb.send = (async (command: { constructor: { name: string } }) => {
    const isTransaction = command.constructor.name === 'TransactWriteCommand';
    if (isTransaction) counts.sent += 1;
    try {
      return await send(command as never);
    } catch (error) {
      if (isTransaction) counts.failed += 1;
      throw error;
    }
  }) as typeof runtime.ddb.send;
  return counts;
}

/**
 * Item 9 (issue 17 "Performance"): POST /v1/validations of 1 and 5 campaign vouchers and of 1
 * standalone voucher, POST /v1/redemptions of 1 and 5, each through its handler beside the raw calls
 * the work cannot avoid and those calls plus the campaign read the handler needed before the read hints (in rotation); then
 * one limitless code redeemed by 32 concurrent clients against the same number of redemptions spread
 * over 32 codes, with one limited code (its counter on the voucher item) reported beside them.
 * Vouchers: clones of one campaign's voucher (10 % off, no redemption limit) in the repo's item layout.
 * See docs/benchmarks.md "9. Validation and redemption".
 */
export async function benchRedemption(ctx: BenchContext): Promise<Section[]> {
  const started = Date.now();
  const runs = ctx.options.quick ? 40 : 120;
  const warmup = ctx.options.quick ? 10 : 15;
  const perClient = ctx.options.quick ? 8 : 20;
  const runtime = benchRuntime(ctx.engines);
  const { tableName: TableName, ddb } = runtime;
  const pair = await newBenchProject(runtime, 'bench redemption');
  const p = pair.project_id;
  const headers = keyPairHeaders(pair);

  ctx.progress('9. seeding: a campaign and its limitless vouchers');
  const campaign = await invokeOk(makeCreateCampaign({ runtime }), createCampaignRoute, {
    path: '/v1/campaigns',
    headers,
    json: discountBody('Redemption bench'),
  });
  const campaignId = campaign.id as string;
  const sample = await invokeOk(makeAddVouchers({ runtime }), addVouchersToCampaignRoute, { path: `/v1/campaigns/${campaignId}/vouchers`, headers, json: {} });
  const template = await getVoucherByCode(runtime, p, sample.code as string);
  if (!template) throw new Error('template voucher not found');
  if (template.redemptionQuantity !== null) throw new Error(`template voucher has a redemption limit (${template.redemptionQuantity})`);
  const five = Array.from({ length: 5 }, (_, i) => `RDM-${i}`);
  const spread = Array.from({ length: CLIENTS }, (_, i) => `SPREAD-${String(i).padStart(2, '0')}`);
  const hot = 'HOT-SALE';
  const limited = 'HOT-LIMITED';
  // Codes validated once each: the first sight of a code in this container (its campaign already used here).
  const fresh = Array.from({ length: runs + warmup + 1 }, (_, i) => `FRESH-${String(i).padStart(3, '0')}`);
  const codes = [...five, ...spread, hot, limited, ...fresh];
  const base = Date.parse(template.createdAt) + 1000;
  await batchPut(
    runtime,
    codes.flatMap((code, i) =>
      voucherPutItems(runtime, campaignId, {
        ...template,
        id: `v_bench_rdm_${String(i).padStart(3, '0')}`,
        code,
        createdAt: new Date(base + i).toISOString(),
        // The contrast of the hot-code check: one exact counter on the voucher item, written by every redemption.
        redemptionQuantity: code === limited ? 1_000_000_000 : null,
      }).map((t) => t.Put?.Item as Record<string, unknown>),
    ),
  );

  // A standalone voucher (no campaign): its validation needs no second read.
  const solo = 'SOLO-1';
  await invokeOk(makeCreateVoucher({ runtime }), createVoucherRoute, {
    path: `/v1/vouchers/${solo}`,
    headers,
    json: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } },
  });

  const appKey = () => ddb.send(new GetCommand({ TableName, Key: keys.appKey(pair.app_id), ConsistentRead: true }));
  const readVouchers = (list: readonly string[]) =>
    ddb.send(new BatchGetCommand({ RequestItems: { [TableName]: { Keys: list.map((c) => voucherEntity.key(p, c)), ConsistentRead: true } } }));

  const readCampaign = () =>
    ddb.send(new BatchGetCommand({ RequestItems: { [TableName]: { Keys: [campaignEntity.key(p, campaignId)], ConsistentRead: true } } }));

  const recorder = recordCommands(runtime);
  const checks: Check[] = [];
  const cases: Record<string, unknown>[] = [];
  const notes: string[] = [];
  const load: number[] = [];
  const compare = (name: string, subject: number[], floor: number[], floorCalls: string, calls: string[]) => {
    const s = median(subject);
    const f = median(floor);
    checks.push(check({ name: `${name} p50`, measured: s, floor: f, unit: 'ms', target: '≤ 1.25 × floor + 2 ms', bound: 1.25 * f + 2, format: ms }));
    cases.push({ case: name, p50: s, floorP50: f, p99: percentile(subject, 99), floorP99: percentile(floor, 99), floorCalls, calls, runs: subject.length });
    notes.push(`${name}: sends ${callSummary(calls)}; floor ${floorCalls}; p99 ${ms(percentile(subject, 99))} against ${ms(percentile(floor, 99))}`);
    load.push(loadavg()[0] ?? 0);
  };

  // The design before the read hints (lib/validations/read-hints.ts): the floor plus a second, dependent BatchGet of the campaign. Reported only.
  const reportTwoReads = (name: string, withCampaigns: number[], floor: number[]) =>
    checks.push(
      check({
        name: `${name}: floor + BatchGet of the campaign (the calls before the read hints, raw) p50`,
        measured: median(withCampaigns),
        floor: median(floor),
        unit: 'ms',
        target: 'reported',
        format: ms,
      }),
    );

  // 1. Validation through its handler; floor: the key GetItem, then one BatchGetItem of the redeemables.
  const validate = makeValidate({ runtime });
  // DynamoDB Local's JIT is still cold after the seeding: warm it (and the handler) up before the first timed case.
  for (let i = 0; i < warmup * 4; i += 1) {
    await invokeOk(validate, validateStackedDiscountsRoute, { path: '/v1/validations', headers, json: stackedBody(five) });
    await appKey();
    await readVouchers(five);
  }
  for (const list of [five.slice(0, 1), five, [solo]]) {
    const name = `POST /v1/validations, ${list[0] === solo ? '1 standalone voucher (no campaign)' : `${list.length} redeemable${list.length > 1 ? 's' : ''}`}`;
    ctx.progress(`9. ${name}: ${runs} runs interleaved with its floor`);
    const request = { path: '/v1/validations', headers, json: stackedBody(list) };
    recorder.reset();
    const reply = await invokeOk(validate, validateStackedDiscountsRoute, request);
    if (reply.valid !== true) throw new Error(`validation of ${list.join(', ')} is not valid: ${JSON.stringify(reply).slice(0, 400)}`);
    const calls = recorder.sent.map((s) => s.name);
    // A third side, reported only: the floor plus the campaign read the handler needed before the read hints.
    const [subject = [], floor = [], withCampaigns = []] = await rotating(runs, warmup, [
      () => invokeOk(validate, validateStackedDiscountsRoute, request),
      async () => {
        await appKey();
        await readVouchers(list);
      },
      async () => {
        await appKey();
        await readVouchers(list);
        await readCampaign();
      },
    ]);
    compare(name, subject, floor, 'Get key → BatchGet vouchers', calls);
    if (list[0] !== solo) reportTwoReads(name, withCampaigns, floor);
  }

  {
    // Checkout traffic is mostly codes this container has never validated: their campaign comes from the
    // project's recent campaigns read in the same BatchGetItem (lib/validations/read-hints.ts).
    const name = 'POST /v1/validations, 1 redeemable never seen by this container';
    ctx.progress(`9. ${name}: ${runs} runs interleaved with its floor`);
    const nextFresh = (() => {
      let i = 0;
      return () => fresh[i++ % fresh.length] as string;
    })();
    let floorRead = 0;
    recorder.reset();
    const reply = await invokeOk(validate, validateStackedDiscountsRoute, { path: '/v1/validations', headers, json: stackedBody([nextFresh()]) });
    if (reply.valid !== true) throw new Error(`validation of a fresh code is not valid: ${JSON.stringify(reply).slice(0, 400)}`);
    const calls = recorder.sent.map((s) => s.name);
    const [subject = [], floor = []] = await rotating(runs, warmup, [
      () => invokeOk(validate, validateStackedDiscountsRoute, { path: '/v1/validations', headers, json: stackedBody([nextFresh()]) }),
      async () => {
        await appKey();
        await readVouchers([fresh[floorRead++ % fresh.length] as string]);
      },
    ]);
    compare(name, subject, floor, 'Get key → BatchGet vouchers', calls);
  }

  {
    // The client-side doors (issue 39 "Performance"): a client key from a trusted Origin, so the origin check is
    // timed too; the floor is the same raw reads, the client key's GetItem then the redeemables' BatchGetItem.
    const origin = 'https://bench-shop.example';
    const client = await createClientKey(runtime, p, { origins: [origin] });
    const clientHeaders = { 'x-client-application-id': client.app_id, 'x-client-token': client.app_token, origin };
    const clientKey = () => ddb.send(new GetCommand({ TableName, Key: keys.appKey(client.app_id), ConsistentRead: true }));
    const one = five.slice(0, 1);
    const doors = [
      {
        name: 'POST /client/v1/validations, 1 redeemable',
        handler: makeValidateClientSide({ runtime }),
        route: validateStackedDiscountsClientSideRoute,
        request: { path: '/client/v1/validations', headers: clientHeaders, json: stackedBody(one) },
      },
      {
        name: 'GET /client/v1/validate, 1 code',
        handler: makeValidateVoucherClientSide({ runtime }),
        route: validateVoucherClientSideRoute,
        request: { path: '/client/v1/validate', headers: clientHeaders, query: `code=${encodeURIComponent(one[0] as string)}&amount=20000` },
      },
    ];
    for (const door of doors) {
      ctx.progress(`9. ${door.name}: ${runs} runs interleaved with its floor`);
      recorder.reset();
      const reply = await invokeOk(door.handler, door.route, door.request);
      if (reply.valid !== true) throw new Error(`${door.name} is not valid: ${JSON.stringify(reply).slice(0, 400)}`);
      const calls = recorder.sent.map((sent) => sent.name);
      const [subject = [], floor = []] = await rotating(runs, warmup, [
        () => invokeOk(door.handler, door.route, door.request),
        async () => {
          await clientKey();
          await readVouchers(one);
        },
      ]);
      compare(door.name, subject, floor, 'Get client key → BatchGet vouchers', calls);
    }
  }

  {
    // Issue 19: 5 redeemables, each carrying 3 validation rules of its own, in a project of its own (vouchers with rules
    // of their own change what the other cases read). The rules come in the same BatchGetItem as the vouchers.
    const name = 'POST /v1/validations, 5 redeemables × 3 validation rules';
    ctx.progress(`9. ${name}: seeding 15 rules, then ${runs} runs interleaved with its floor`);
    const rulesPair = await newBenchProject(runtime, 'bench validation rules');
    const rp = rulesPair.project_id;
    const rulesHeaders = keyPairHeaders(rulesPair);
    const ruled = Array.from({ length: 5 }, (_, i) => `RULED-${i}`);
    // As a client sends them (the request schema's output type cannot name `logic` beside the numbered conditions).
    const ruleBodies = [
      { name: 'amount', rules: { 1: { name: 'order.amount', conditions: { $more_than_or_equal: [1000] } } } },
      { name: 'channel', rules: { 1: { name: 'order.metadata', property: 'channel', conditions: { $is_not: ['blocked'] } } } },
      {
        name: 'items or amount',
        rules: {
          1: { name: 'order.items.count', conditions: { $more_than_or_equal: [1] } },
          2: { name: 'order.amount', conditions: { $more_than: [5000] } },
          logic: '1 or 2',
        },
      },
    ] as unknown as CreateValidationRuleBody[];
    for (const code of ruled) {
      const made = await invokeOk(makeCreateVoucher({ runtime }), createVoucherRoute, {
        path: `/v1/vouchers/${code}`,
        headers: rulesHeaders,
        json: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } },
      });
      for (const body of ruleBodies) {
        const rule = await createValidationRules(runtime, rp, body);
        await createValidationRuleAssignment(runtime, rp, rule.id, { related_object_type: 'voucher', related_object_id: made.id as string });
      }
    }
    const ruledKey = () => ddb.send(new GetCommand({ TableName, Key: keys.appKey(rulesPair.app_id), ConsistentRead: true }));
    const readRuled = () =>
      ddb.send(new BatchGetCommand({ RequestItems: { [TableName]: { Keys: ruled.map((c) => voucherEntity.key(rp, c)), ConsistentRead: true } } }));
    const request = { path: '/v1/validations', headers: rulesHeaders, json: stackedBody(ruled) };
    for (let i = 0; i < warmup; i += 1) await invokeOk(validate, validateStackedDiscountsRoute, request);
    recorder.reset();
    const reply = await invokeOk(validate, validateStackedDiscountsRoute, request);
    if (reply.valid !== true) throw new Error(`validation of the ruled codes is not valid: ${JSON.stringify(reply).slice(0, 400)}`);
    const calls = recorder.sent.map((s) => s.name);
    const sentBatch = recorder.sent.find((s) => s.name === 'BatchGet')?.input;
    if (!sentBatch) throw new Error('the ruled validation sent no BatchGet');
    const [subject = [], floor = [], sameKeys = []] = await rotating(runs, warmup, [
      () => invokeOk(validate, validateStackedDiscountsRoute, request),
      async () => {
        await ruledKey();
        await readRuled();
      },
      // Reported only: the handler's own BatchGet (vouchers, assignments, rules, counts) sent raw: what the extra keys cost the engine.
      async () => {
        await ruledKey();
        await ddb.send(new BatchGetCommand(sentBatch as ConstructorParameters<typeof BatchGetCommand>[0]));
      },
    ]);
    compare(name, subject, floor, 'Get key → BatchGet vouchers', calls);
    const keysSent = Object.values((sentBatch.RequestItems ?? {}) as Record<string, { Keys: unknown[] }>).reduce((n, r) => n + r.Keys.length, 0);
    checks.push(
      check({
        name: `${name}: Get key → the handler's BatchGet of ${keysSent} keys, raw p50`,
        measured: median(sameKeys),
        floor: median(floor),
        unit: 'ms',
        target: 'reported',
        format: ms,
      }),
    );
  }

  // 2. Redemption; floor: the same reads plus the one TransactWriteItems the subject sent, replayed with fresh keys for its new items.
  const redeemer = handlerRedeemer(runtime, headers);
  notes.push(`redemptions measured through ${redeemer.label}`);
  for (const list of [five.slice(0, 1), five]) {
    const name = `POST /v1/redemptions, ${list.length} redeemable${list.length > 1 ? 's' : ''}`;
    ctx.progress(`9. ${name}: ${runs} runs interleaved with its floor`);
    recorder.reset();
    await redeemer.redeem(list);
    const calls = recorder.sent.map((s) => s.name);
    const transaction = recorder.sent.find((s) => s.name === 'TransactWrite');
    if (!transaction) throw new Error(`${name} sent no TransactWriteItems: ${calls.join(', ')}`);
    const items = transaction.input.TransactItems as TransactItem[];
    let floorRun = 0;
    const floorReads = async (campaigns: boolean) => {
      await appKey();
      await readVouchers(list);
      if (campaigns) await readCampaign();
      floorRun += 1;
      await ddb.send(new TransactWriteCommand({ TransactItems: withFreshPutKeys(items, `#floor${floorRun}`) }));
    };
    const [subject = [], floor = [], withCampaigns = []] = await rotating(runs, warmup, [
      () => redeemer.redeem(list),
      () => floorReads(false),
      () => floorReads(true),
    ]);
    compare(name, subject, floor, `Get key → BatchGet vouchers → TransactWrite of the same ${items.length} items`, calls);
    reportTwoReads(name, withCampaigns, floor);
    const described = items.map(describeItem);
    cases.push({ case: `${name}: transaction`, items: described });
    notes.push(
      `${name}: transaction items ${described.map((d) => `${d.op} ${d.entity}${d.bytes !== null ? ` ${(d.bytes / 1024).toFixed(1)} KB` : ''}${d.indexes.length > 0 ? ` [${d.indexes.join(', ')}]` : ''}`).join('; ')}`,
    );
  }

  // 3. Hot code: 32 clients on one limitless code against 32 clients on 32 codes; one limited code (its counter on one item) reported beside them.
  const counts = countTransactions(runtime);
  const phase = async (
    codeOf: (client: number) => string,
  ): Promise<{ ms: number; ok: number; failed: number; transactions: number; failedTransactions: number }> => {
    counts.reset();
    let ok = 0;
    let failed = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        for (let i = 0; i < perClient; i += 1) {
          try {
            await redeemer.redeem([codeOf(client)]);
            ok += 1;
          } catch {
            failed += 1;
          }
        }
      }),
    );
    return { ms: performance.now() - t0, ok, failed, transactions: counts.sent, failedTransactions: counts.failed };
  };
  type Phase = Awaited<ReturnType<typeof phase>>;
  const sides = { hot: [] as Phase[], spread: [] as Phase[], limited: [] as Phase[] };
  const codeOf = { hot: () => hot, limited: () => limited, spread: (c: number) => spread[c] as string };
  ctx.progress(`9. hot code: ${CLIENTS} clients × ${perClient} redemptions: one code, ${CLIENTS} codes, one limited code (ABCCBA)`);
  await phase(codeOf.spread); // warm-up, not counted
  for (const side of ['spread', 'hot', 'limited', 'limited', 'hot', 'spread'] as const) sides[side].push(await phase(codeOf[side]));
  const total = (list: Phase[], key: keyof Phase) => list.reduce((n, r) => n + r[key], 0);
  const rate = (list: Phase[]) => opsPerSecond(total(list, 'ok'), total(list, 'ms'));
  const hotRate = rate(sides.hot);
  const spreadRate = rate(sides.spread);
  const limitedRate = rate(sides.limited);
  checks.push(
    check({
      name: `one limitless code, ${CLIENTS} concurrent clients (redemptions/s)`,
      measured: hotRate,
      floor: spreadRate,
      unit: '/s',
      target: `≥ 0.7 × the same over ${CLIENTS} codes`,
      bound: 0.7 * spreadRate,
      direction: 'min',
      format: perSecond,
    }),
  );
  checks.push(
    check({
      name: `one code with a limit (one counter item), ${CLIENTS} concurrent clients (redemptions/s)`,
      measured: limitedRate,
      floor: spreadRate,
      unit: '/s',
      target: 'reported (what the engine does with one hot item)',
      format: perSecond,
    }),
  );
  const hotVoucher = await getVoucherByCode(runtime, p, hot);
  const hotOk = total(sides.hot, 'ok');
  const hotUses = hotVoucher ? await shardedUses(runtime, p, hotVoucher.id) : Number.NaN;
  const counted = check({
    name: 'one limitless code: uses counted on its shards',
    measured: hotUses,
    unit: '',
    target: '= redemptions that succeeded',
    bound: hotOk,
    format: (n) => String(n),
  });
  checks.push({ ...counted, pass: hotUses === hotOk });
  const describe = (label: string, list: Phase[]) =>
    `${label}: ${total(list, 'ok')} redemptions in ${ms(total(list, 'ms'))} (${perSecond(rate(list))}), ${total(list, 'failed')} failed, ` +
    `${total(list, 'transactions')} transactions sent, ${total(list, 'failedTransactions')} cancelled or conflicted`;
  notes.push(
    `${describe('one limitless code', sides.hot)}; ${describe(`${CLIENTS} codes`, sides.spread)}; ${describe('one limited code', sides.limited)}; ` +
      `one code / ${CLIENTS} codes = ${ratio(hotRate / spreadRate)}`,
  );
  load.push(loadavg()[0] ?? 0);
  notes.push(`load average (1 min) after each case: ${load.map((l) => l.toFixed(1)).join(', ')}`);

  return [
    {
      item: 9,
      title: 'Validation and redemption',
      checks,
      details: {
        runs,
        warmup,
        clients: CLIENTS,
        perClient,
        redeemer: redeemer.label,
        cases,
        hot: sides.hot,
        spread: sides.spread,
        limited: sides.limited,
        hotUses,
        loadAverage1m: load,
      },
      notes,
      seconds: (Date.now() - started) / 1000,
    },
  ];
}
