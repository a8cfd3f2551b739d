import { loadavg } from 'node:os';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { makeHandler as makeCreateCampaign } from '../../functions/campaigns/create-campaign.js';
import { makeHandler as makeListVouchers } from '../../functions/vouchers/list-vouchers.js';
import { makeHandler as makeAddVouchers } from '../../functions/vouchers/add-vouchers-to-campaign.js';
import { addVouchersToCampaignRoute, createCampaignRoute, listVouchersRoute } from '../../lib/api/routes.js';
import { campaign as campaignEntity } from '../../lib/db/entities.js';
import { getVoucherByCode, voucherPutItems } from '../../lib/vouchers/voucher.repo.js';
import { batchPut, type BenchContext, benchRuntime, invokeOk, keyPairHeaders, newBenchProject, recordCommands, timed } from './context.js';
import { check, type Check, type Section } from './report.js';
import { discountBody } from './requests-bench.js';
import { median, ms, percentile } from './stats.js';

const LIMIT = 100;
const DEEP_PAGE = 50;

interface Reads {
  calls: string[];
  /** Index entries the Queries returned (keys only) plus vouchers BatchGetItem returned, plus single GetItems. */
  itemsRead: number;
  /** The Queries' entries alone (the skip and the page's keys). */
  entriesRead: number;
  returned: number;
  total: unknown;
}

/**
 * Item 8: GET /v1/vouchers page 1 against page 50 (limit 100) over 20,000 vouchers of one campaign
 * (2,000 and page 5 with --quick), seeded in the repo's item layout (voucherPutItems: the voucher
 * with its GSI1 / GSI3 keys and its id pointer), unfiltered (the project's keys-only GSI3) and with
 * `campaign_id` (the campaign's GSI1, whole items projected). The first request for the deep page
 * walks the list and saves its page bounds; the timed ones start at the saved bound (both reported).
 */
export async function benchVoucherListing(ctx: BenchContext): Promise<Section[]> {
  const started = Date.now();
  const count = ctx.options.quick ? 2000 : 20_000;
  const deepPage = ctx.options.quick ? 5 : DEEP_PAGE;
  const runs = ctx.options.quick ? 11 : 31;
  const runtime = benchRuntime(ctx.engines);
  const pair = await newBenchProject(runtime, 'bench voucher listing');
  const p = pair.project_id;
  const headers = keyPairHeaders(pair);
  const created = await invokeOk(makeCreateCampaign({ runtime }), createCampaignRoute, {
    path: '/v1/campaigns',
    headers,
    json: discountBody('Voucher list bench'),
  });
  const campaignId = created.id as string;
  const sample = await invokeOk(makeAddVouchers({ runtime }), addVouchersToCampaignRoute, { path: `/v1/campaigns/${campaignId}/vouchers`, headers, json: {} });
  const template = await getVoucherByCode(runtime, p, sample.code as string);
  if (!template) throw new Error('template voucher not found');
  ctx.progress(`8. seeding ${count} vouchers of one campaign (voucher + id pointer each) with BatchWriteItem`);
  const base = Date.parse(template.createdAt) + 1000;
  const items = Array.from({ length: count - 1 }, (_, i) => {
    const serial = String(i).padStart(6, '0');
    const v = { ...template, id: `v_bench${serial}abcdefghij`, code: `LIST-${serial}`, createdAt: new Date(base + i).toISOString() };
    return voucherPutItems(runtime, campaignId, v).map((t) => t.Put?.Item as Record<string, unknown>);
  }).flat();
  await batchPut(runtime, items);
  await runtime.ddb.send(
    new UpdateCommand({
      TableName: runtime.tableName,
      Key: campaignEntity.key(p, campaignId),
      UpdateExpression: 'ADD vouchersCount :n',
      ExpressionAttributeValues: { ':n': count - 1 },
    }),
  );

  const handler = makeListVouchers({ runtime });
  const recorder = recordCommands(runtime);
  const call = async (query: string, page: number): Promise<[number, Reads]> => {
    recorder.reset();
    const [t, reply] = await timed(() => invokeOk(handler, listVouchersRoute, { path: '/v1/vouchers', query: `limit=${LIMIT}${query}&page=${page}`, headers }));
    const data = recorder.sent.filter((s) => !(s.name === 'Get' && String((s.input.Key as { PK?: string } | undefined)?.PK ?? '').startsWith('APPKEY#')));
    return [
      t,
      {
        calls: data.map((s) => s.name),
        itemsRead: data.reduce((n, s) => n + s.itemsRead, 0),
        entriesRead: data.filter((s) => s.name === 'Query').reduce((n, s) => n + s.itemsRead, 0),
        returned: (reply.vouchers as unknown[]).length,
        total: reply.total,
      },
    ];
  };
  const cases = [
    { label: 'unfiltered (GSI3, keys only)', query: '' },
    { label: 'campaign_id (GSI1, whole items)', query: `&campaign_id=${campaignId}` },
  ];
  const checks: Check[] = [];
  const details: Record<string, unknown>[] = [];
  const load: number[] = [];
  for (const c of cases) {
    ctx.progress(`8. ${c.label}: page 1 and page ${deepPage}, interleaved`);
    const samples: Record<'first' | 'deep', number[]> = { first: [], deep: [] };
    const reads: Record<string, Reads> = {};
    // The first request for the deep page walks the list (no page bounds saved yet): timed once, apart.
    const [cold, coldReads] = await call(c.query, deepPage);
    reads.cold = coldReads;
    const sides: Array<['first' | 'deep', number]> = [
      ['first', 1],
      ['deep', deepPage],
    ];
    for (let i = 0; i < runs + 3; i += 1) {
      const order = i % 2 === 0 ? sides : [...sides].reverse();
      for (const [side, page] of order) {
        const [t, r] = await call(c.query, page);
        if (i >= 3) samples[side].push(t);
        reads[side] = r;
      }
    }
    load.push(loadavg()[0] ?? 0);
    const first = median(samples.first);
    const deep = median(samples.deep);
    checks.push(check({ name: `${c.label}: page 1 p50`, measured: first, unit: 'ms', format: ms }));
    checks.push(
      check({ name: `${c.label}: page ${deepPage} p50`, measured: deep, floor: first, unit: 'ms', target: '≤ 3 × page 1', bound: 3 * first, format: ms }),
    );
    checks.push(
      check({
        name: `${c.label}: page ${deepPage}, first request (walks the list), one sample`,
        measured: cold,
        floor: first,
        unit: 'ms',
        target: 'reported',
        format: ms,
      }),
    );
    checks.push(
      check({
        name: `${c.label}: index entries read for page ${deepPage}, first request`,
        measured: reads.cold?.entriesRead ?? Number.NaN,
        unit: 'entries',
        target: '1 + (page − 1) × limit + limit + 1',
        bound: 1 + (deepPage - 1) * LIMIT + LIMIT + 1,
        format: (n) => String(n),
      }),
    );
    checks.push(
      check({
        name: `${c.label}: index entries read for page ${deepPage}, from its saved bound`,
        measured: reads.deep?.entriesRead ?? Number.NaN,
        unit: 'entries',
        target: '1 + limit + 1',
        bound: LIMIT + 2,
        format: (n) => String(n),
      }),
    );
    details.push({
      case: c.label,
      pageOneP50: first,
      deepPage,
      deepP50: deep,
      deepFirstRequest: cold,
      p99: { first: percentile(samples.first, 99), deep: percentile(samples.deep, 99) },
      reads,
    });
  }
  return [
    {
      item: 8,
      title: `Voucher listing depth: GET /v1/vouchers over ${count} vouchers of one campaign, limit ${LIMIT}`,
      checks,
      details: { vouchers: count, runs, loadAverage1m: load, cases: details },
      notes: [
        ...details.map((d) => {
          const r = d.reads as Record<string, Reads>;
          return `${String(d.case)}: page 1 sends ${r.first?.calls.join(' → ')} (${r.first?.entriesRead} entries, ${r.first?.itemsRead} items in all), page ${deepPage}, first request, ${r.cold?.calls.join(' → ')} (${r.cold?.entriesRead} entries, ${r.cold?.itemsRead} items in all); page ${deepPage} again ${r.deep?.calls.join(' → ')} (${r.deep?.entriesRead} entries, ${r.deep?.itemsRead} items in all, ${r.deep?.returned} vouchers); total on page 1 = ${String(r.first?.total)}`;
        }),
        `load average (1 min) after each case: ${load.map((l) => l.toFixed(1)).join(', ')}`,
      ],
      seconds: (Date.now() - started) / 1000,
    },
  ];
}
