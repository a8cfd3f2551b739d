import { makeHandler as makeListCampaigns } from '../../functions/campaigns/list-campaigns.js';
import { listCampaignsRoute } from '../../lib/api/routes.js';
import { campaignCounterItem, campaignItem, listEntryItem } from '../../lib/campaigns/campaign.repo.js';
import { seededCampaign } from '../support/seeded-campaigns.js';
import { batchPut, type BenchContext, benchRuntime, invokeOk, keyPairHeaders, newBenchProject, recordCommands, timed } from './context.js';
import { check, type Check, type Section } from './report.js';
import { median, ms, percentile } from './stats.js';

const CAMPAIGNS = 5000;

/** Item 6: GET /v1/campaigns page 1 against page 50 (limit 100) over 5,000 campaigns, unfiltered and filtered. */
export async function benchListing(ctx: BenchContext): Promise<Section[]> {
  const started = Date.now();
  const runtime = benchRuntime(ctx.engines);
  const pair = await newBenchProject(runtime, 'bench listing');
  const p = pair.project_id;
  ctx.progress(`6. seeding ${CAMPAIGNS} campaigns (campaign item, list entry, counter) with BatchWriteItem`);
  const campaigns = Array.from({ length: CAMPAIGNS }, (_, i) => seededCampaign(p, i, 'Bench', 6, { tier: i % 7 }));
  const last = campaigns.at(-1);
  await batchPut(runtime, [
    ...campaigns.flatMap((c, i) => [campaignItem(c), listEntryItem(c, i + 1)]),
    ...(last ? [campaignCounterItem(p, { campaignCount: CAMPAIGNS, lastCreatedAt: last.createdAt })] : []),
  ]);
  const handler = makeListCampaigns({ runtime });
  const headers = keyPairHeaders(pair);
  const recorder = recordCommands(runtime);
  const runs = ctx.options.quick ? 11 : 31;
  const cases = [
    { label: 'unfiltered', query: 'limit=100' },
    { label: 'campaign_type=GIFT_VOUCHERS', query: 'limit=100&campaign_type=GIFT_VOUCHERS' },
  ];
  const checks: Check[] = [];
  const details: Record<string, unknown>[] = [];
  for (const c of cases) {
    const lastPage = c.label === 'unfiltered' ? 50 : 25;
    ctx.progress(`6. ${c.label}: page 1 and page ${lastPage}, interleaved`);
    const samples: Record<string, number[]> = { first: [], deep: [] };
    const reads: Record<string, { calls: string[]; itemsRead: number; total: unknown; returned: number }> = {};
    // A filtered request reads the whole list partition (~1 s on DynamoDB Local): fewer runs keep the suite in its budget.
    const caseRuns = c.label === 'unfiltered' ? runs : Math.ceil(runs / 2);
    for (let i = 0; i < caseRuns + 3; i += 1) {
      for (const [side, page] of (i % 2 === 0
        ? [
            ['first', 1],
            ['deep', lastPage],
          ]
        : [
            ['deep', lastPage],
            ['first', 1],
          ]) as Array<['first' | 'deep', number]>) {
        recorder.reset();
        const [t, reply] = await timed(() => invokeOk(handler, listCampaignsRoute, { path: '/v1/campaigns', query: `${c.query}&page=${page}`, headers }));
        if (i >= 3) samples[side]?.push(t);
        const data = recorder.sent.filter((s) => !(s.name === 'Get' && String((s.input.Key as { PK?: string } | undefined)?.PK ?? '').startsWith('APPKEY#')));
        reads[side] = {
          calls: data.map((s) => s.name),
          itemsRead: data.reduce((n, s) => n + s.itemsRead, 0),
          total: reply.total,
          returned: (reply.campaigns as unknown[]).length,
        };
      }
    }
    const first = median(samples.first ?? []);
    const deep = median(samples.deep ?? []);
    checks.push(check({ name: `${c.label}: page 1 p50`, measured: first, unit: 'ms', format: ms }));
    checks.push(
      check({ name: `${c.label}: page ${lastPage} p50`, measured: deep, floor: first, unit: 'ms', target: '≤ 3 × page 1', bound: 3 * first, format: ms }),
    );
    checks.push(
      check({
        name: `${c.label}: items read for page ${lastPage} (list entries + campaigns)`,
        measured: reads.deep?.itemsRead ?? Number.NaN,
        unit: 'items',
        target: c.label === 'unfiltered' ? '≤ 2 × limit + 1 (no full read for total)' : 'reported (filters read the list partition)',
        bound: c.label === 'unfiltered' ? 201 : null,
        format: (n) => String(n),
      }),
    );
    details.push({
      case: c.label,
      pageOneP50: first,
      deepPage: lastPage,
      deepP50: deep,
      p99: { first: percentile(samples.first ?? [], 99), deep: percentile(samples.deep ?? [], 99) },
      reads,
    });
  }
  return [
    {
      item: 6,
      title: `Listing depth: GET /v1/campaigns over ${CAMPAIGNS} campaigns, limit 100`,
      checks,
      details: { campaigns: CAMPAIGNS, runs, cases: details },
      notes: details.map((d) => {
        const reads = d.reads as Record<string, { calls: string[]; itemsRead: number; total: unknown }>;
        return `${String(d.case)}: page 1 sends ${reads.first?.calls.join(' → ')} (${reads.first?.itemsRead} items), deep page ${reads.deep?.calls.join(' → ')} (${reads.deep?.itemsRead} items); total = ${String(reads.first?.total)}`;
      }),
      seconds: (Date.now() - started) / 1000,
    },
  ];
}
