import { loadavg } from 'node:os';
import { makeHandler as makeListCampaigns } from '../../functions/campaigns/list-campaigns.js';
import { listCampaignsRoute } from '../../lib/api/routes.js';
import type { Campaign } from '../../lib/campaigns/campaign.js';
import { bulkCampaignItems } from '../../lib/campaigns/campaign.repo.js';
import { seededCampaign } from '../support/seeded-campaigns.js';
import { batchPut, type BenchContext, benchRuntime, invokeOk, keyPairHeaders, newBenchProject, recordCommands, timed } from './context.js';
import { check, type Check, type Section } from './report.js';
import { median, ms, percentile } from './stats.js';

const LIMIT = 100;
const DEEP_PAGE = 50;

/**
 * The i-th benchmark campaign: discount coupons and gift vouchers by turns (seededCampaign), except
 * every tenth a referral program with referral codes and every tenth + 4 one without; one in 1,000
 * FAILED and one in 2,111 IN_PROGRESS (a project's not-DONE campaigns are few: failed generations
 * and the ones running now).
 */
function benchCampaign(projectId: string, i: number): Campaign {
  const c = seededCampaign(projectId, i, 'Bench', 6, { tier: i % 7 });
  const referral = i % 10 === 3 ? true : i % 10 === 7 ? false : null;
  const status = i % 1000 === 5 ? 'FAILED' : i % 2111 === 11 ? 'IN_PROGRESS' : 'DONE';
  return {
    ...c,
    ...(referral === null ? {} : { campaignType: 'REFERRAL_PROGRAM' as const, voucher: c.voucher && { ...c.voucher, isReferralCode: referral } }),
    creationStatus: status,
    vouchersGenerationStatus: status,
  };
}

interface Reads {
  calls: string[];
  itemsRead: number;
  total: unknown;
  returned: number;
}

/**
 * Item 6: GET /v1/campaigns page 1 against page 50 (limit 100), unfiltered and filtered
 * (`campaign_type`, `campaign_status`, `is_referral_code`, a combination of the three, with and
 * without `order`), over 50,000 campaigns (5,000 with --quick) seeded in the repo's item layout.
 */
export async function benchListing(ctx: BenchContext): Promise<Section[]> {
  const started = Date.now();
  const count = ctx.options.quick ? 5000 : 50_000;
  const runtime = benchRuntime(ctx.engines);
  const pair = await newBenchProject(runtime, 'bench listing');
  const p = pair.project_id;
  ctx.progress(`6. seeding ${count} campaigns (campaign, list entry, 3 view entries each, counter) with BatchWriteItem`);
  const campaigns = Array.from({ length: count }, (_, i) => benchCampaign(p, i));
  await batchPut(runtime, bulkCampaignItems(campaigns));
  const handler = makeListCampaigns({ runtime });
  const headers = keyPairHeaders(pair);
  const recorder = recordCommands(runtime);
  const runs = ctx.options.quick ? 11 : 31;
  const deepPage = ctx.options.quick ? 5 : DEEP_PAGE;
  const cases = [
    { label: 'unfiltered', query: '' },
    { label: 'campaign_type=GIFT_VOUCHERS', query: '&campaign_type=GIFT_VOUCHERS' },
    { label: 'campaign_status=DONE', query: '&campaign_status=DONE' },
    { label: 'is_referral_code=false, order=created_at', query: '&is_referral_code=false&order=created_at' },
    {
      label: 'campaign_type=DISCOUNT_COUPONS & campaign_status=DONE & is_referral_code=false, order=-updated_at',
      query: '&campaign_type=DISCOUNT_COUPONS&campaign_status=DONE&is_referral_code=false&order=-updated_at',
    },
  ];
  const checks: Check[] = [];
  const details: Record<string, unknown>[] = [];
  const call = async (query: string, page: number): Promise<[number, Reads]> => {
    recorder.reset();
    const [t, reply] = await timed(() =>
      invokeOk(handler, listCampaignsRoute, { path: '/v1/campaigns', query: `limit=${LIMIT}${query}&page=${page}`, headers }),
    );
    const data = recorder.sent.filter((s) => !(s.name === 'Get' && String((s.input.Key as { PK?: string } | undefined)?.PK ?? '').startsWith('APPKEY#')));
    return [
      t,
      {
        calls: data.map((s) => s.name),
        itemsRead: data.reduce((n, s) => n + s.itemsRead, 0),
        total: reply.total,
        returned: (reply.campaigns as unknown[]).length,
      },
    ];
  };
  const load: number[] = [];
  for (const c of cases) {
    ctx.progress(`6. ${c.label}: page 1 and page ${deepPage}, interleaved with unfiltered page 1`);
    // Every case times unfiltered page 1 too (the floor), interleaved, so the shared machine's load falls on both.
    const samples: Record<'floor' | 'first' | 'deep', number[]> = { floor: [], first: [], deep: [] };
    const reads: Record<string, Reads> = {};
    const sides: Array<['floor' | 'first' | 'deep', string, number]> = [
      ['floor', '', 1],
      ['first', c.query, 1],
      ['deep', c.query, deepPage],
    ];
    for (let i = 0; i < runs + 3; i += 1) {
      const order = sides.map((_, k) => sides[(k + i) % sides.length] as (typeof sides)[number]);
      for (const [side, query, page] of order) {
        const [t, r] = await call(query, page);
        if (i >= 3) samples[side].push(t);
        reads[side] = r;
      }
    }
    load.push(loadavg()[0] ?? 0);
    const floor = median(samples.floor);
    const first = median(samples.first);
    const deep = median(samples.deep);
    if (c.label === 'unfiltered') checks.push(check({ name: 'unfiltered: page 1 p50', measured: floor, unit: 'ms', format: ms }));
    else checks.push(check({ name: `${c.label}: page 1 p50`, measured: first, floor, unit: 'ms', target: 'reported (floor: unfiltered page 1)', format: ms }));
    checks.push(
      check({
        name: `${c.label}: page ${deepPage} p50`,
        measured: deep,
        floor,
        unit: 'ms',
        target: '≤ 3 × unfiltered page 1',
        bound: 3 * floor,
        format: ms,
      }),
    );
    checks.push(
      check({
        name: `${c.label}: items read for page ${deepPage} (counter + entries + campaigns)`,
        measured: reads.deep?.itemsRead ?? Number.NaN,
        unit: 'items',
        target: '≤ 2 × limit + 1',
        bound: 2 * LIMIT + 1,
        format: (n) => String(n),
      }),
    );
    details.push({
      case: c.label,
      floorP50: floor,
      pageOneP50: first,
      deepPage,
      deepP50: deep,
      p99: { floor: percentile(samples.floor, 99), first: percentile(samples.first, 99), deep: percentile(samples.deep, 99) },
      reads,
    });
  }
  return [
    {
      item: 6,
      title: `Listing depth: GET /v1/campaigns over ${count} campaigns, limit ${LIMIT}`,
      checks,
      details: { campaigns: count, runs, loadAverage1m: load, cases: details },
      notes: [
        ...details.map((d) => {
          const r = d.reads as Record<string, Reads>;
          return `${String(d.case)}: page 1 sends ${r.first?.calls.join(' → ')} (${r.first?.itemsRead} items), page ${deepPage} ${r.deep?.calls.join(' → ')} (${r.deep?.itemsRead} items, ${r.deep?.returned} campaigns); total = ${String(r.first?.total)}`;
        }),
        `load average (1 min) after each case: ${load.map((l) => l.toFixed(1)).join(', ')}`,
      ],
      seconds: (Date.now() - started) / 1000,
    },
  ];
}
