/**
 * Items 16, 17 and 19 (issues 35, 36, 38): job throughput. Rows go in through the route a client
 * calls (a CSV file or a bulk body, at most 1,000 rows a request: the routes' bound), the jobs it
 * enqueues are run by the jobs worker's handler, and the rate is set beside a floor of the
 * writes the rows need: the job's transactions sent raw (puts only if absent, the counts), with
 * BatchWriteItem of the same items reported beside it.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BatchGetCommand, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { makeHandler as makeCreateCampaign } from '../../functions/campaigns/create-campaign.js';
import { makeHandler as makeUpdateCustomersInBulk } from '../../functions/bulk/update-customers-in-bulk.js';
import { makeHandler as makeImportProducts } from '../../functions/imports/import-products-using-csv.js';
import { makeHandler as makeImportVouchersToCampaign } from '../../functions/imports/import-vouchers-to-campaign-using-csv.js';
import { makeHandler as makeJobsWorker } from '../../functions/workers/jobs-worker.js';
import { lambdaContext, toApiGatewayEvent } from '../../infra/local/api-gateway-event.js';
import { createCampaignRoute, importProductsUsingCsvRoute, importVouchersToCampaignUsingCsvRoute, updateCustomersInBulkRoute } from '../../lib/api/routes.js';
import type { RouteDef } from '../../lib/api/route.js';
import { getAsyncAction } from '../../lib/async-actions/async-action.repo.js';
import type { AsyncAction } from '../../lib/async-actions/async-action.js';
import { keys } from '../../lib/db/keys.js';
import type { ApiHandler } from '../../lib/http/endpoint.js';
import { multipartBody } from '../../lib/http/multipart.js';
import { matchPath } from '../../lib/http/route-match.js';
import type { JobMessage, JobQueue } from '../../lib/jobs/job.js';
import type { Runtime } from '../../lib/runtime.js';
import { getVoucherByCode, MAX_VOUCHERS_PER_TRANSACTION } from '../../lib/vouchers/voucher.repo.js';
import { rawInserts, startedFloorAction } from './bulk-bench.js';
import { batchPut, type BenchContext, benchRuntime, invokeOk, keyPairHeaders, newBenchProject, recordCommands, timed } from './context.js';
import { runJobs } from './job-runner.js';
import { callCounts, growth, perUnit, rekeyed, storedItems, transactionFloor, updatedKeys } from './job-floor.js';
import { check, type Check, type Section } from './report.js';
import { discountBody } from './requests-bench.js';
import { mib, perSecond, ratio } from './stats.js';

/** Rows one request may carry: MAX_BULK_ROWS and MAX_IMPORT_VOUCHERS. */
const ROWS_PER_REQUEST = 1000;
/**
 * Jobs run at once: one, as one Lambda runs them (one job an invocation). Lambda may run several,
 * but jobs of one project (one campaign) all move the same counter item in every transaction
 * (the project's product or customer count, the campaign's vouchers_count), so side by side they
 * conflict and retry: 10 import jobs into one campaign 4 at a time took longer than one after the
 * other would have (docs/benchmarks.md, "Items 16–19").
 */
const JOBS_AT_ONCE = 1;

class KeptJobs implements JobQueue {
  readonly sent: JobMessage[] = [];
  async send(job: JobMessage): Promise<void> {
    this.sent.push(job);
  }
}

/** POSTs `csv` as a multipart/form-data `file` part, as `curl -F file=@x.csv` sends it; the reply's async action id. */
async function postCsv(handler: ApiHandler, route: RouteDef, path: string, headers: Record<string, string>, csv: string): Promise<string> {
  const boundary = '----bench-boundary-5c1d';
  const event = toApiGatewayEvent({
    method: route.method,
    rawPath: path,
    rawQueryString: '',
    headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: multipartBody(boundary, [{ name: 'file', filename: 'import.csv', contentType: 'text/csv', data: csv }]),
    routeKey: `${route.method} ${route.path}`,
    pathParameters: matchPath(route.path, path) ?? {},
  });
  const result = await handler(event, lambdaContext('bench'));
  const status = result.statusCode ?? 200;
  const body = JSON.parse(result.body ?? '{}') as Record<string, unknown>;
  if (status >= 300) throw new Error(`${route.method} ${path} answered ${status}: ${result.body ?? ''}`);
  return body.async_action_id as string;
}

/** The async actions' outcome: all DONE, rows done and rows failed (with the first failure's reason). */
async function outcomeOf(
  runtime: Runtime,
  projectId: string,
  ids: readonly string[],
): Promise<{ done: number; failed: number; notDone: number; reason: string }> {
  const actions = await Promise.all(ids.map((id) => getAsyncAction(runtime, projectId, id)));
  const failures = actions.flatMap((a) => a?.import?.failed ?? []);
  return {
    done: actions.reduce((n, a) => n + (a?.doneCount ?? 0), 0),
    failed: failures.length,
    notDone: actions.filter((a: AsyncAction | null) => a?.status !== 'DONE').length,
    reason: failures[0]?.reason ?? actions.find((a) => a?.status !== 'DONE')?.failure ?? '',
  };
}

/** A project id of the same length as `projectId`, for the floor's re-keyed items. */
const floorProjectOf = (projectId: string, n: number): string => `${projectId.slice(0, -4)}f${String(n).padStart(3, '0')}`;

interface UpsertSpec {
  item: number;
  title: string;
  unit: string;
  /** Sends rows [from, to) of the set named `tag` through the route; the async action id. */
  send(runtime: Runtime, headers: Record<string, string>, jobs: KeptJobs, tag: string, from: number, to: number): Promise<string>;
}

/**
 * One upsert item: a warm-up import (discarded), then `count` rows in requests of ROWS_PER_REQUEST,
 * their jobs run JOBS_AT_ONCE at a time with every call recorded; then the floor: the items the
 * worker stored (storedItems: each Put), re-keyed to another project, written with BatchWriteItem
 * 25 at a time on as many lanes as jobs ran at once (a job applies its rows one after the other).
 */
async function benchUpserts(ctx: BenchContext, spec: UpsertSpec): Promise<Section[]> {
  const started = Date.now();
  const count = ctx.options.quick ? 1_000 : 10_000;
  const runtime = benchRuntime(ctx.engines);
  const pair = await newBenchProject(runtime, `bench ${spec.unit}`);
  const p = pair.project_id;
  const headers = keyPairHeaders(pair);
  const jobs = new KeptJobs();
  const worker = makeJobsWorker({ runtime });
  const n = spec.item;

  ctx.progress(`${n}. warming up: ${Math.min(200, count / 5)} ${spec.unit} through the route and the worker (discarded)`);
  await spec.send(runtime, headers, jobs, 'warm', 0, Math.min(200, count / 5));
  await runJobs(worker, jobs.sent.splice(0), 1);

  ctx.progress(`${n}. ${count} ${spec.unit} in ${Math.ceil(count / ROWS_PER_REQUEST)} requests`);
  const ids: string[] = [];
  const [requestMs] = await timed(async () => {
    for (let from = 0; from < count; from += ROWS_PER_REQUEST)
      ids.push(await spec.send(runtime, headers, jobs, 'run', from, Math.min(count, from + ROWS_PER_REQUEST)));
  });
  const queued = jobs.sent.splice(0);
  const atOnce = Math.min(JOBS_AT_ONCE, queued.length);
  const recorder = recordCommands(runtime);
  ctx.progress(`${n}. the jobs worker runs ${queued.length} jobs, ${atOnce} at a time`);
  const [workerMs] = await timed(() => runJobs(worker, queued, atOnce));
  const sent = [...recorder.sent];
  recorder.reset();
  const outcome = await outcomeOf(runtime, p, ids);

  const lanes = atOnce;
  const floor = transactionFloor(sent, p, floorProjectOf(p, n));
  const floorTransactions = floor.rounds.reduce((k, round) => k + round.length, 0);
  ctx.progress(
    `${n}. floor: the worker's ${floorTransactions} transactions raw, in its ${floor.rounds.length} rounds, and ${floor.loose.length} items outside them`,
  );
  // The items the job's updates move (counters, the action, its chunks), copied as they are now, so the floor's updates find them.
  const touchedKeys = updatedKeys(sent);
  const touched: Record<string, unknown>[] = [];
  for (let i = 0; i < touchedKeys.length; i += 100) {
    const res = await runtime.ddb.send(new BatchGetCommand({ RequestItems: { [runtime.tableName]: { Keys: touchedKeys.slice(i, i + 100) } } }));
    if (Object.keys(res.UnprocessedKeys ?? {}).length > 0) throw new Error('the floor could not read the items the job updates');
    touched.push(...(res.Responses?.[runtime.tableName] ?? []));
  }
  await batchPut(
    runtime,
    touched.map((item) => rekeyed(item, p, floorProjectOf(p, n))),
    1,
  );
  const [floorMs] = await timed(async () => {
    for (const round of floor.rounds)
      await Promise.all(round.map((TransactItems) => runtime.ddb.send(new TransactWriteCommand({ TransactItems: TransactItems as never }))));
    await batchPut(runtime, floor.loose, lanes);
  });
  const items = storedItems(sent).map((item) => rekeyed(item, p, floorProjectOf(p, n + 100)));
  ctx.progress(`${n}. for comparison: ${items.length} stored items with BatchWriteItem, 25 a call, ${lanes} lane(s)`);
  const [batchMs] = await timed(() => batchPut(runtime, items, lanes));

  const workerRate = count / (workerMs / 1000);
  const floorRate = count / (floorMs / 1000);
  const batchRate = count / (batchMs / 1000);
  const counts = callCounts(sent);
  return [
    {
      item: n,
      title: spec.title.replace('{count}', count.toLocaleString('en-US')),
      checks: [
        check({
          name: `${spec.unit}/s (worker) vs its transactions sent raw (the writes and only-if-absent conditions a row needs)`,
          measured: workerRate,
          floor: floorRate,
          unit: `${spec.unit}/s`,
          target: '≥ 0.7 × floor',
          bound: 0.7 * floorRate,
          direction: 'min',
          format: perSecond,
        }),
        check({
          name: `${spec.unit}/s (worker) vs BatchWriteItem of the items it stored (no conditions: cannot keep a source id unique)`,
          measured: workerRate,
          floor: batchRate,
          unit: `${spec.unit}/s`,
          target: 'reported',
          bound: null,
          direction: 'min',
          format: perSecond,
        }),
        check({
          name: 'rows done minus sent; failures; actions not DONE',
          measured: Math.abs(outcome.done - count) + outcome.failed + outcome.notDone,
          unit: 'rows',
          target: '0',
          bound: 0,
          format: (x) => (x === 0 ? '0' : `${x} (done ${outcome.done}, failed ${outcome.failed}, not DONE ${outcome.notDone}: ${outcome.reason.slice(0, 80)})`),
        }),
      ],
      details: {
        count,
        requests: ids.length,
        jobsAtOnce: atOnce,
        requestMs,
        workerMs,
        floorMs,
        floorTransactions,
        batchMs,
        storedItems: items.length,
        calls: counts,
        workerRate,
        floorRate,
        batchRate,
      },
      notes: [
        `requests ${(requestMs / 1000).toFixed(1)} s; worker ${(workerMs / 1000).toFixed(1)} s (${queued.length} jobs, ${atOnce} at once); floor ${(floorMs / 1000).toFixed(1)} s (${floorTransactions} transactions in ${floor.rounds.length} rounds); BatchWriteItem of its ${items.length} items (${(items.length / count).toFixed(2)} a row) ${(batchMs / 1000).toFixed(1)} s, ${lanes} lane(s)`,
        `the worker's calls per row: ${perUnit(counts, count)}`,
      ],
      seconds: (Date.now() - started) / 1000,
    },
  ];
}

/** Item 16 (issue 35): products through POST /v1/products/importCSV and the jobs worker. */
export function benchProductImport(ctx: BenchContext): Promise<Section[]> {
  let importer: ApiHandler | null = null;
  return benchUpserts(ctx, {
    item: 16,
    title: 'Product import: {count} products through POST /v1/products/importCSV and the jobs worker',
    unit: 'products',
    send: (runtime, headers, jobs, tag, from, to) => {
      importer ??= makeImportProducts({ runtime, jobs });
      const lines = ['name,source_id,price,color'];
      for (let i = from; i < to; i += 1)
        lines.push(`Product ${tag} ${i},prod-${tag}-${String(i).padStart(6, '0')},${100 + (i % 9000)},${['red', 'green', 'blue'][i % 3] ?? ''}`);
      return postCsv(importer, importProductsUsingCsvRoute, '/v1/products/importCSV', headers, `${lines.join('\n')}\n`);
    },
  });
}

/** Item 17 (issue 36): customers upserted by source_id through POST /v1/customers/bulk/async and the jobs worker. */
export function benchCustomerUpserts(ctx: BenchContext): Promise<Section[]> {
  let bulk: ApiHandler | null = null;
  return benchUpserts(ctx, {
    item: 17,
    title: 'Customer bulk upserts: {count} customers through POST /v1/customers/bulk/async and the jobs worker',
    unit: 'customers',
    send: async (runtime, headers, jobs, tag, from, to) => {
      bulk ??= makeUpdateCustomersInBulk({ runtime, jobs });
      const json = Array.from({ length: to - from }, (_, k) => {
        const i = from + k;
        return {
          source_id: `cust-${tag}-${String(i).padStart(6, '0')}`,
          name: `Customer ${i}`,
          email: `c${i}.${tag}@example.com`,
          metadata: { tier: i % 2 === 0 ? 'gold' : 'silver' },
        };
      });
      const reply = await invokeOk(bulk, updateCustomersInBulkRoute, { path: '/v1/customers/bulk/async', headers, json }, 202);
      return reply.async_action_id as string;
    },
  });
}

interface ChildResult {
  ms: number;
  rssBefore: number;
  heapBefore: number;
  peakRss: number;
  peakHeap: number;
}

const run = promisify(execFile);
const CHILD = join(import.meta.dirname, 'jobs-child.ts');

/** The jobs in a process of its own (test/bench/jobs-child.ts), so its memory is the worker's alone. */
async function childJobs(ctx: BenchContext, jobs: readonly JobMessage[], atOnce: number): Promise<ChildResult> {
  const e = ctx.engines;
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', CHILD, JSON.stringify({ region: e.region, tableName: e.tableName, dynamoEndpoint: e.dynamoEndpoint, jobs, atOnce })],
    { env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' }, maxBuffer: 1 << 20, timeout: 1_800_000 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as ChildResult;
}

/**
 * Item 19 (issue 38): a voucher CSV import of N codes into one campaign (POST
 * /v1/campaigns/{id}/importCSV, 1,000 codes a file: the route's bound), its jobs run by the jobs
 * worker in a child process at N/10 and N codes: rate beside item 4's floor (the same 100-item
 * transactions that make each code once and the count exact, sent raw), and the worker's peak
 * memory at both sizes.
 */
export async function benchVoucherImport(ctx: BenchContext): Promise<Section[]> {
  const started = Date.now();
  const big = ctx.options.quick ? 10_000 : 100_000;
  const sizes = [big / 10, big];
  const runtime = benchRuntime(ctx.engines);
  const pair = await newBenchProject(runtime, 'bench voucher import');
  const p = pair.project_id;
  const headers = keyPairHeaders(pair);
  const jobs = new KeptJobs();
  const createCampaign = makeCreateCampaign({ runtime, jobs });
  const importCsv = makeImportVouchersToCampaign({ runtime, jobs });
  const checks: Check[] = [];
  const results: Array<{
    size: number;
    child: ChildResult;
    floorMs: number;
    atOnce: number;
    requestMs: number;
    outcome: Awaited<ReturnType<typeof outcomeOf>>;
    stored: number;
  }> = [];
  for (const size of sizes) {
    const campaign = await invokeOk(createCampaign, createCampaignRoute, { path: '/v1/campaigns', headers, json: discountBody(`Import ${size}`) });
    const floorCampaign = await invokeOk(createCampaign, createCampaignRoute, { path: '/v1/campaigns', headers, json: discountBody(`Import floor ${size}`) });
    const campaignId = campaign.id as string;
    ctx.progress(`19. ${size} codes: ${size / ROWS_PER_REQUEST} CSV files of ${ROWS_PER_REQUEST} through POST /v1/campaigns/{id}/importCSV`);
    const ids: string[] = [];
    const [requestMs] = await timed(async () => {
      for (let from = 0; from < size; from += ROWS_PER_REQUEST) {
        const lines = ['Code'];
        for (let i = from; i < Math.min(size, from + ROWS_PER_REQUEST); i += 1) lines.push(`IMP${size}-${String(i).padStart(6, '0')}`);
        ids.push(await postCsv(importCsv, importVouchersToCampaignUsingCsvRoute, `/v1/campaigns/${campaignId}/importCSV`, headers, `${lines.join('\n')}\n`));
      }
    });
    const queued = jobs.sent.splice(0);
    const atOnce = Math.min(JOBS_AT_ONCE, queued.length);
    ctx.progress(`19. ${size} codes: the jobs worker in a child process, ${queued.length} jobs, ${atOnce} at a time`);
    const child = await childJobs(ctx, queued, atOnce);
    const outcome = await outcomeOf(runtime, p, ids);
    const stored = (await runtime.ddb.send(new GetCommand({ TableName: runtime.tableName, Key: keys.campaign(p, campaignId), ConsistentRead: true }))).Item
      ?.vouchersCount as number;

    const template = await getVoucherByCode(runtime, p, `IMP${size}-000000`);
    if (!template) throw new Error('imported voucher not found');
    // Item 4's floor: the transactions that make each code once and the count exact (49 × voucher +
    // id reference put only if absent, the checkpoint, the campaign's count), sent back to back.
    const floorAction = await startedFloorAction(runtime, p, floorCampaign.id as string, size);
    ctx.progress(`19. ${size} codes: floor, ${Math.ceil(size / MAX_VOUCHERS_PER_TRANSACTION)} raw transactions of ≤ 100 items`);
    const floorMs = await rawInserts(runtime, { ...template, campaignId: floorCampaign.id as string }, floorAction, size, `i${size}`);
    results.push({ size, child, floorMs, atOnce, requestMs, outcome, stored });
  }
  for (const r of results) {
    const workerRate = r.size / (r.child.ms / 1000);
    const floorRate = r.size / (r.floorMs / 1000);
    // The small size is one job in a fresh process (its first calls and JIT weigh on a few seconds): reported; the target is the big size's.
    const bounded = r.size === big;
    checks.push(
      check({
        name: `${r.size.toLocaleString('en-US')} codes: codes/s (worker) vs its transactions raw (item 4's floor)`,
        measured: workerRate,
        floor: floorRate,
        unit: 'codes/s',
        target: bounded ? '≥ 0.7 × floor' : 'reported',
        bound: bounded ? 0.7 * floorRate : null,
        direction: 'min',
        format: perSecond,
      }),
      check({
        name: `${r.size.toLocaleString('en-US')} codes: imported minus sent; failures; not DONE; vouchers_count`,
        measured: Math.abs(r.outcome.done - r.size) + r.outcome.failed + r.outcome.notDone + Math.abs(r.stored - r.size),
        unit: 'codes',
        target: '0',
        bound: 0,
        format: (x) => (x === 0 ? '0' : `${x} (done ${r.outcome.done}, failed ${r.outcome.failed}, count ${r.stored}: ${r.outcome.reason.slice(0, 60)})`),
      }),
    );
  }
  const [small, large] = results;
  if (small && large) {
    checks.push(
      check({
        name: `worker peak RSS at ${large.size.toLocaleString('en-US')} vs ${small.size.toLocaleString('en-US')} codes`,
        measured: large.child.peakRss,
        floor: small.child.peakRss,
        unit: 'bytes',
        target: '≤ 1.2 × small',
        bound: 1.2 * small.child.peakRss,
        format: mib,
      }),
      check({
        name: `worker peak heap at ${large.size.toLocaleString('en-US')} vs ${small.size.toLocaleString('en-US')} codes`,
        measured: large.child.peakHeap,
        floor: small.child.peakHeap,
        unit: 'bytes',
        target: '≤ 1.2 × small',
        bound: 1.2 * small.child.peakHeap,
        format: mib,
      }),
    );
  }
  return [
    {
      item: 19,
      title: `Voucher CSV import: ${big.toLocaleString('en-US')} codes into one campaign (files of ${ROWS_PER_REQUEST}), worker in a child process`,
      checks,
      details: {
        sizes: results.map((r) => ({ size: r.size, requestMs: r.requestMs, workerMs: r.child.ms, floorMs: r.floorMs, jobsAtOnce: r.atOnce, ...r.child })),
      },
      notes: [
        ...results.map(
          (r) =>
            `${r.size.toLocaleString('en-US')} codes: requests ${(r.requestMs / 1000).toFixed(1)} s, worker ${(r.child.ms / 1000).toFixed(1)} s (${r.atOnce} jobs at once), floor ${(r.floorMs / 1000).toFixed(1)} s; RSS ${mib(r.child.rssBefore)} → peak ${mib(r.child.peakRss)}, heap ${mib(r.child.heapBefore)} → peak ${mib(r.child.peakHeap)} (growth ${mib(growth(r.child.peakHeap, r.child.heapBefore))})`,
        ),
        ...(small && large
          ? [
              `peak RSS ${ratio(large.child.peakRss / small.child.peakRss)}, heap growth ${ratio(growth(large.child.peakHeap, large.child.heapBefore) / Math.max(1, growth(small.child.peakHeap, small.child.heapBefore)))} from ${small.size} to ${large.size} codes`,
            ]
          : []),
      ],
      seconds: (Date.now() - started) / 1000,
    },
  ];
}
