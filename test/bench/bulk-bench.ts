import { randomBytes } from 'node:crypto';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { makeHandler as makeAddVouchers } from '../../functions/vouchers/add-vouchers-to-campaign.js';
import { makeHandler as makeCreateCampaign } from '../../functions/campaigns/create-campaign.js';
import { makeHandler as makeJobsWorker } from '../../functions/workers/jobs-worker.js';
import { lambdaContext } from '../../infra/local/api-gateway-event.js';
import { toSqsRecord } from '../../infra/local/sqs-poller.js';
import { addVouchersToCampaignRoute, createCampaignRoute } from '../../lib/api/routes.js';
import { getAsyncAction, insertAsyncAction, progressItem, startAsyncAction } from '../../lib/async-actions/async-action.repo.js';
import { type AsyncAction, newAsyncAction } from '../../lib/async-actions/async-action.js';
import { createDocumentClient } from '../../lib/db/client.js';
import { tableDesign } from '../../lib/db/table.js';
import { keys } from '../../lib/db/keys.js';
import type { JobMessage, JobQueue } from '../../lib/jobs/job.js';
import type { Runtime } from '../../lib/runtime.js';
import { countVouchersItem, getVoucherByCode, MAX_VOUCHERS_PER_TRANSACTION, voucherPutItems } from '../../lib/vouchers/voucher.repo.js';
import type { Voucher } from '../../lib/vouchers/voucher.js';
import { type BenchContext, benchRuntime, invokeOk, keyPairHeaders, newBenchProject, timed } from './context.js';
import { check, type Section } from './report.js';
import { discountBody } from './requests-bench.js';
import { perSecond } from './stats.js';

class KeptJobs implements JobQueue {
  readonly sent: JobMessage[] = [];
  async send(job: JobMessage): Promise<void> {
    this.sent.push(job);
  }
}

/**
 * The floor: the same transaction shape the worker needs for uniqueness and an exact count
 * (49 × [Put voucher if absent + Put id ref if absent] + progress checkpoint + campaign count),
 * written back to back with codes made up in advance, nothing else.
 */
export async function rawInserts(runtime: Runtime, template: Voucher, action: AsyncAction, count: number, tag: string): Promise<number> {
  const [t] = await timed(async () => {
    let done = action.doneCount;
    for (let written = 0; written < count; ) {
      const n = Math.min(MAX_VOUCHERS_PER_TRANSACTION, count - written);
      const items = [];
      for (let k = 0; k < n; k += 1) {
        // Unique by construction (random codes would collide now and then at 100k: birthday bound), same length as generated ones.
        const serial = `${tag}${String(written + k).padStart(6, '0')}`;
        items.push(
          ...voucherPutItems(runtime, template.campaignId ?? '', { ...template, id: `v_floor${serial}${randomBytes(3).toString('hex')}`, code: `F${serial}` }),
        );
      }
      items.push(progressItem(runtime, action, done, n, new Date().toISOString()));
      items.push(countVouchersItem(runtime, template.projectId, template.campaignId ?? '', n));
      await runtime.ddb.send(new TransactWriteCommand({ TransactItems: items }));
      done += n;
      written += n;
    }
    action.doneCount = done;
  });
  return t;
}

/** A started generation action on `campaignId`, whose checkpoint the floor's transactions move as the worker's do. */
export async function startedFloorAction(runtime: Runtime, projectId: string, campaignId: string, requested: number): Promise<AsyncAction> {
  const now = new Date().toISOString();
  const floorAction = newAsyncAction(
    {
      id: `aa_benchfloor${Date.now()}${randomBytes(2).toString('hex')}`,
      projectId,
      type: 'CAMPAIGN.VOUCHERS_GENERATE',
      requestId: 'bench',
      campaignId,
      requested,
    },
    now,
  );
  await insertAsyncAction(runtime, floorAction);
  const started = await startAsyncAction(runtime, projectId, floorAction.id, now);
  if (!started) throw new Error('floor action did not start');
  return started;
}

/** Item 4: bulk generation of N codes through the jobs worker beside raw conditional inserts. */
export async function benchBulkGeneration(ctx: BenchContext): Promise<Section[]> {
  const started = Date.now();
  const count = ctx.options.quick ? 10_000 : 100_000;
  const runtime = benchRuntime(ctx.engines);
  const pair = await newBenchProject(runtime, 'bench bulk');
  const p = pair.project_id;
  const headers = keyPairHeaders(pair);
  const jobs = new KeptJobs();
  const createCampaign = makeCreateCampaign({ runtime, jobs });
  const addVouchers = makeAddVouchers({ runtime, jobs });
  const worker = makeJobsWorker({ runtime });

  const target = await invokeOk(createCampaign, createCampaignRoute, { path: '/v1/campaigns', headers, json: discountBody('Bulk target') });
  const floorCampaign = await invokeOk(createCampaign, createCampaignRoute, { path: '/v1/campaigns', headers, json: discountBody('Bulk floor') });
  const sample = await invokeOk(addVouchers, addVouchersToCampaignRoute, { path: `/v1/campaigns/${floorCampaign.id as string}/vouchers`, headers, json: {} });
  const template = await getVoucherByCode(runtime, p, sample.code as string);
  if (!template) throw new Error('template voucher not found');
  const startedAction = await startedFloorAction(runtime, p, floorCampaign.id as string, count + Math.min(2000, count / 5));

  ctx.progress('4. warming up the write path (discarded)');
  await rawInserts(runtime, template, startedAction, Math.min(2000, count / 5), 'w');
  const half = Math.floor(count / 2);
  ctx.progress(`4. floor, first half: ${half} codes as raw 100-item transactions`);
  const floorA = await rawInserts(runtime, template, startedAction, half, 'a');

  ctx.progress(`4. POST /v1/campaigns/{id}/vouchers?vouchers_count=${count}, then the jobs worker runs the job`);
  const [requestMs, accepted] = await timed(() =>
    invokeOk(
      addVouchers,
      addVouchersToCampaignRoute,
      { path: `/v1/campaigns/${target.id as string}/vouchers`, query: `vouchers_count=${count}`, headers, json: {} },
      202,
    ),
  );
  const job = jobs.sent.splice(0)[0];
  if (!job) throw new Error('no job was enqueued');
  const record = toSqsRecord(
    { MessageId: 'bench-bulk', ReceiptHandle: 'r', Body: JSON.stringify(job), Attributes: { ApproximateReceiveCount: '1' } },
    'arn:aws:sqs:local:000000000000:promo-engine-jobs',
  );
  const progressTimer = setInterval(() => {
    void getAsyncAction(runtime, p, accepted.async_action_id as string).then((a) => a && ctx.progress(`4. worker: ${a.doneCount}/${a.requested}`));
  }, 15_000);
  let workerMs: number;
  try {
    const [t, result] = await timed(() => worker({ Records: [record] }, lambdaContext('jobs-worker', 900_000)));
    if (result.batchItemFailures.length > 0) throw new Error('the worker failed the job');
    workerMs = t;
  } finally {
    clearInterval(progressTimer);
  }

  ctx.progress(`4. worker done in ${(workerMs / 1000).toFixed(1)} s; floor, second half: ${count - half} codes`);
  const floorB = await rawInserts(runtime, template, startedAction, count - half, 'b');

  ctx.progress('4. checking: every code once, vouchers_count exact, action DONE');
  const action = await getAsyncAction(runtime, p, accepted.async_action_id as string);
  const campaignItem = await runtime.ddb.send(
    new GetCommand({ TableName: runtime.tableName, Key: keys.campaign(p, target.id as string), ConsistentRead: true }),
  );
  const codes = new Set<string>();
  let rows = 0;
  let start: Record<string, unknown> | undefined;
  // DynamoDB Local pages a 100k-entry index partition slowly: small pages and a patient client of its own.
  const reader = createDocumentClient({ region: ctx.engines.region, endpoint: ctx.engines.dynamoEndpoint, requestTimeoutMs: 300_000 });
  do {
    const res = await reader.send(
      new QueryCommand({
        TableName: runtime.tableName,
        IndexName: tableDesign.indexes.gsi1.name,
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.campaignVouchersPartition(p, target.id as string) },
        ProjectionExpression: 'code',
        Limit: 2000,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of res.Items ?? []) {
      codes.add(item.code as string);
      rows += 1;
    }
    start = res.LastEvaluatedKey;
  } while (start);
  reader.destroy();
  const stored = campaignItem.Item?.vouchersCount as number;
  const floorRate = count / ((floorA + floorB) / 1000);
  const workerRate = count / (workerMs / 1000);
  return [
    {
      item: 4,
      title: `Bulk generation: ${count.toLocaleString('en-US')} codes on one campaign through the jobs worker`,
      checks: [
        check({
          name: 'codes/s (worker) vs raw conditional inserts',
          measured: workerRate,
          floor: floorRate,
          unit: 'codes/s',
          target: '≥ 0.7 × floor',
          bound: 0.7 * floorRate,
          direction: 'min',
          format: perSecond,
        }),
        check({ name: 'duplicate codes', measured: rows - codes.size, unit: 'codes', target: '0', bound: 0, format: String }),
        check({ name: 'vouchers stored minus requested', measured: rows - count, unit: 'codes', target: '0', bound: 0, format: String }),
        check({ name: 'vouchers_count minus requested', measured: Math.abs(stored - count), unit: 'codes', target: '0', bound: 0, format: String }),
        check({
          name: 'action DONE with done_count = requested',
          measured: action?.status === 'DONE' && action.doneCount === count ? 0 : 1,
          unit: '',
          target: 'DONE',
          bound: 0,
          format: (n) => (n === 0 ? 'DONE' : String(action?.status)),
        }),
      ],
      details: {
        count,
        requestMs,
        workerMs,
        floorMs: floorA + floorB,
        workerCodesPerSecond: workerRate,
        floorCodesPerSecond: floorRate,
        transactions: Math.ceil(count / MAX_VOUCHERS_PER_TRANSACTION),
      },
      notes: [
        `the request (202) took ${requestMs.toFixed(0)} ms; the worker ${(workerMs / 1000).toFixed(1)} s for ${Math.ceil(count / MAX_VOUCHERS_PER_TRANSACTION)} transactions of ≤ 100 items; the floor ${((floorA + floorB) / 1000).toFixed(1)} s in two halves around it`,
      ],
      seconds: (Date.now() - started) / 1000,
    },
  ];
}
