import { loadavg } from 'node:os';
import { BatchGetCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { makeHandler as makeCreateCampaign } from '../../functions/campaigns/create-campaign.js';
import { makeHandler as makeCreateCustomer } from '../../functions/customers/create-customer.js';
import { makeHandler as makeCheckEligibility } from '../../functions/qualifications/check-eligibility.js';
import { checkEligibilityRoute, createCampaignRoute, createCustomerRoute } from '../../lib/api/routes.js';
import { voucher as voucherEntity, voucherByHolder } from '../../lib/db/entities.js';
import { keys } from '../../lib/db/keys.js';
import { queryAll } from '../../lib/db/query.js';
import { ENTITY_ATTR, tableDesign } from '../../lib/db/table.js';
import type { Voucher } from '../../lib/vouchers/voucher.js';
import {
  type BenchContext,
  batchPut,
  benchRuntime,
  type Invocation,
  invocationOf,
  invokeOk,
  invokePrepared,
  keyPairHeaders,
  newBenchProject,
  recordCommands,
  timed,
} from './context.js';
import { check, type Check, type Section } from './report.js';
import { callSummary, rotation } from './replay.js';
import { median, ms, percentile } from './stats.js';

/** The customer's wallet, as the issue sets it. */
const WALLET = 50;

/** A voucher of the bench's coupon campaign, as the voucher entity lays it out (written by BatchWriteItem, not through the API). */
function benchVoucher(projectId: string, campaignId: string, i: number, holderId: string | null): Voucher {
  const n = String(i).padStart(6, '0');
  return {
    id: `v_bench${n}`,
    code: `BENCH-${n}`,
    projectId,
    campaignId,
    campaignName: 'Bench coupons',
    category: null,
    type: 'DISCOUNT_VOUCHER',
    discount: { type: 'AMOUNT', amountOff: 100 + (i % 7) * 50 },
    gift: null,
    loyaltyCard: null,
    startDate: null,
    expirationDate: null,
    validityTimeframe: null,
    validityDayOfWeek: null,
    validityHours: null,
    active: true,
    additionalInfo: null,
    metadata: {},
    isReferralCode: false,
    // One millisecond apart: pages are cut by creation time.
    createdAt: new Date(Date.UTC(2026, 0, 1) + i).toISOString(),
    updatedAt: null,
    holderId,
    referrerId: null,
    redemptionQuantity: null,
    redeemedQuantity: 0,
    redeemedPoints: 0,
    publishCount: holderId === null ? 0 : 1,
  };
}

/**
 * Issue 19 item 4: POST /v1/qualifications (scenario ALL, a page of 50) for a customer holding 50
 * vouchers in a project of 100,000 (10,000 with --quick), through its handler, against the raw
 * reads of the wallet: the application key's GetItem and the Query of the holder's index
 * partition that returns the 50 vouchers. The other vouchers are spread over 1,000 other holders
 * and the campaign's unpublished pool; the project also has a promotion with three tiers and a
 * STANDALONE campaign. In rotation, one sample per side per round. docs/benchmarks.md "11. Qualifications".
 */
export async function benchQualifications(ctx: BenchContext): Promise<Section[]> {
  const started = Date.now();
  const total = ctx.options.quick ? 10_000 : 100_000;
  const runs = ctx.options.quick ? 40 : 120;
  const warmup = ctx.options.quick ? 10 : 20;
  const runtime = benchRuntime(ctx.engines);
  const { tableName: TableName, ddb } = runtime;
  const pair = await newBenchProject(runtime, 'bench qualifications');
  const p = pair.project_id;
  const headers = keyPairHeaders(pair);

  ctx.progress(`11. seeding: a coupon campaign, a promotion, a generic-code campaign, ${total.toLocaleString('en-US')} vouchers by BatchWriteItem`);
  const createCampaign = makeCreateCampaign({ runtime });
  const coupons = await invokeOk(createCampaign, createCampaignRoute, {
    path: '/v1/campaigns',
    headers,
    json: { name: 'Bench coupons', campaign_type: 'DISCOUNT_COUPONS', voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } } },
  });
  await invokeOk(createCampaign, createCampaignRoute, {
    path: '/v1/campaigns',
    headers,
    json: {
      name: 'Bench promotion',
      campaign_type: 'PROMOTION',
      promotion: {
        tiers: [
          { name: 'Big carts', action: { discount: { type: 'AMOUNT', amount_off: 1000 } } },
          { name: 'Items', action: { discount: { type: 'PERCENT', percent_off: 5, effect: 'APPLY_TO_ITEMS' } } },
          { name: 'Asleep', active: false, action: { discount: { type: 'AMOUNT', amount_off: 300 } } },
        ],
      },
    },
  });
  await invokeOk(createCampaign, createCampaignRoute, {
    path: '/v1/campaigns',
    headers,
    json: {
      name: 'Bench generic',
      campaign_type: 'DISCOUNT_COUPONS',
      type: 'STANDALONE',
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } },
    },
  });
  const shopper = await invokeOk(makeCreateCustomer({ runtime }), createCustomerRoute, {
    path: '/v1/customers',
    headers,
    json: { source_id: 'bench-shopper' },
  });
  const shopperId = shopper.id as string;
  const campaignId = coupons.id as string;
  const walletAt = new Set(Array.from({ length: WALLET }, (_, k) => Math.floor(((k + 0.5) * total) / WALLET)));
  const items = Array.from({ length: total }, (_, i) => {
    const holder = walletAt.has(i) ? shopperId : i % 2 === 0 ? `cust_other${i % 1000}` : null;
    return voucherEntity.toItem(benchVoucher(p, campaignId, i, holder), campaignId);
  });
  const seedStart = Date.now();
  await batchPut(runtime, items, 16);
  const seedSeconds = (Date.now() - seedStart) / 1000;

  const handler = makeCheckEligibility({ runtime });
  const request = {
    path: '/v1/qualifications',
    headers,
    json: { customer: { id: shopperId }, order: { amount: 20_000, items: [{ product_id: 'prod_bench', quantity: 2, price: 10_000 }] }, options: { limit: 50 } },
  };
  // Timed from the event Lambda hands the handler to its reply text, which is what API Gateway
  // gets: building the event is API Gateway's work and the ~54 KB reply is parsed by the client,
  // neither is the handler's (item 11 only: the other items' requests and replies are small).
  const invoke = async (invocation: Invocation) => {
    const reply = await invokePrepared(handler, invocation);
    if (reply.status !== 200) throw new Error(`POST /v1/qualifications answered ${reply.status}: ${reply.body.slice(0, 300)}`);
    return reply;
  };
  const subject = () => invoke(invocationOf(checkEligibilityRoute, request));
  const first = (await invokeOk(handler, checkEligibilityRoute, request)) as { redeemables: { data: { object: string }[]; total: number; has_more: boolean } };
  const walletInPage = first.redeemables.data.filter((r) => r.object === 'voucher').length;
  if (walletInPage < WALLET - 3) throw new Error(`the page holds ${walletInPage} of the wallet's vouchers: ${JSON.stringify(first.redeemables).slice(0, 300)}`);

  const { gsi2 } = tableDesign.indexes;
  const floor = async () => {
    await ddb.send(new GetCommand({ TableName, Key: keys.appKey(pair.app_id), ConsistentRead: true }));
    const wallet = await queryAll(ddb, {
      TableName,
      IndexName: gsi2.name,
      KeyConditionExpression: `${gsi2.partitionKey} = :pk`,
      FilterExpression: '#entity = :voucher',
      ExpressionAttributeNames: { '#entity': ENTITY_ATTR },
      ExpressionAttributeValues: { ':pk': voucherByHolder.partition(p, shopperId), ':voucher': voucherEntity.name },
    });
    if (wallet.length !== WALLET) throw new Error(`the wallet holds ${wallet.length}`);
  };

  const recorder = recordCommands(runtime);
  for (let i = 0; i < warmup; i += 1) await subject();
  recorder.reset();
  await subject();
  const itemsRead = recorder.sent.reduce((n, s) => n + s.itemsRead, 0);
  const sent = [...recorder.sent];
  recorder.reset();

  // The handler's own DynamoDB calls sent raw, as it sends them: round after round, each round's
  // calls side by side (a warm container sends them all in one round, the key's GetItem with them).
  // Subject minus this is the handler's own time: its CPU, not its reads.
  const commandOf = (c: (typeof sent)[number]) => {
    if (c.name === 'Get') return new GetCommand(c.input as never);
    if (c.name === 'Query') return new QueryCommand(c.input as never);
    if (c.name === 'BatchGet') return new BatchGetCommand(c.input as never);
    throw new Error(`the bench cannot replay a ${c.name}`);
  };
  const rounds = [...new Set(sent.map((c) => c.round))].sort((a, b) => a - b).map((r) => sent.filter((c) => c.round === r));
  const calls = rounds.map((round) => round.map((c) => c.name).join(' ‖ '));
  const replay = async () => {
    for (const round of rounds) await Promise.all(round.map((c) => (c.name === 'Query' ? queryAll(ddb, c.input as never) : ddb.send(commandOf(c) as never))));
  };

  ctx.progress(`11. qualifications: ${runs} runs interleaved with the wallet's raw reads`);
  const samples: number[][] = [[], [], []];
  // This process's CPU time during each sample (DynamoDB Local runs in another process): what the
  // handler costs in CPU whatever the load, beside the same calls sent raw.
  const cpuSamples: number[][] = [[], [], []];
  // Each side's run, given what is prepared before its timer starts (the subject's event).
  const sides: (() => () => Promise<unknown>)[] = [
    () => {
      const invocation = invocationOf(checkEligibilityRoute, request);
      return () => invoke(invocation);
    },
    () => floor,
    () => replay,
  ];
  for (let i = 0; i < warmup + runs; i += 1) {
    for (const side of rotation(i, sides.length)) {
      const run = (sides[side] as () => () => Promise<unknown>)();
      const cpuBefore = process.cpuUsage();
      const [t] = await timed(run);
      const cpu = process.cpuUsage(cpuBefore);
      if (i >= warmup) {
        samples[side]?.push(t);
        cpuSamples[side]?.push((cpu.user + cpu.system) / 1000);
      }
    }
  }
  const [s = [], f = [], r = []] = samples;
  const [sCpu = [], fCpu = [], rCpu = []] = cpuSamples;
  const checks: Check[] = [
    check({
      name: `POST /v1/qualifications (ALL, limit 50), ${WALLET} held of ${total.toLocaleString('en-US')} vouchers, p50`,
      measured: median(s),
      floor: median(f),
      unit: 'ms',
      target: '≤ 1.5 × floor',
      bound: 1.5 * median(f),
      format: ms,
    }),
    check({
      name: `  the handler's own DynamoDB calls sent raw (${callSummary(calls)}), p50`,
      measured: median(r),
      floor: median(f),
      unit: 'ms',
      format: ms,
    }),
  ];
  const notes = [
    `sends ${callSummary(calls)} (${itemsRead} items read); floor Get key → Query of the holder's GSI2 partition (${WALLET} vouchers)`,
    `the page: ${first.redeemables.total} redeemables (${walletInPage} wallet vouchers), has_more ${first.redeemables.has_more}`,
    `CPU of this process per request, p50: handler ${ms(median(sCpu))}, its calls sent raw ${ms(median(rCpu))}, floor ${ms(median(fCpu))}`,
    `p99 ${ms(percentile(s, 99))} against ${ms(percentile(f, 99))}; seeding ${total.toLocaleString('en-US')} vouchers took ${seedSeconds.toFixed(0)} s; load average (1 min) ${(loadavg()[0] ?? 0).toFixed(1)}`,
  ];
  return [
    {
      item: 11,
      title: 'Qualifications',
      checks,
      details: {
        total,
        wallet: WALLET,
        runs,
        warmup,
        calls,
        itemsRead,
        p50: median(s),
        floorP50: median(f),
        replayP50: median(r),
        cpuP50: { handler: median(sCpu), replay: median(rCpu), floor: median(fCpu) },
        seedSeconds,
      },
      notes,
      seconds: (Date.now() - started) / 1000,
    },
  ];
}
