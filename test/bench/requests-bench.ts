import { BatchGetCommand, GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { makeHandler as makeGetAsyncAction } from '../../functions/async-actions/get-async-action.js';
import { makeHandler as makeListBin } from '../../functions/bin/list-bin-entries.js';
import { makeHandler as makeAddVouchers } from '../../functions/vouchers/add-vouchers-to-campaign.js';
import { makeHandler as makeCreateCampaign } from '../../functions/campaigns/create-campaign.js';
import { makeHandler as makeGetCampaign } from '../../functions/campaigns/get-campaign.js';
import { makeHandler as makeListCampaigns } from '../../functions/campaigns/list-campaigns.js';
import { makeHandler as makeGetVoucher } from '../../functions/vouchers/get-voucher.js';
import { makeHandler as makeCreatePublication } from '../../functions/publications/create-publication.js';
import { startLocal } from '../../infra/local/start-local.js';
import {
  addVouchersToCampaignRoute,
  createCampaignRoute,
  createPublicationRoute,
  getAsyncActionRoute,
  getCampaignRoute,
  getVoucherRoute,
  listBinEntriesRoute,
  listCampaignsRoute,
} from '../../lib/api/routes.js';
import type { IssuedKeyPair } from '../../lib/app-keys/app-key.service.js';
import { campaignCounterItem, campaignItem, getCampaignCounter, listEntryItem, viewEntryItems } from '../../lib/campaigns/campaign.repo.js';
import type { Campaign } from '../../lib/campaigns/campaign.js';
import { tableDesign } from '../../lib/db/table.js';
import { keys } from '../../lib/db/keys.js';
import type { ApiHandler } from '../../lib/http/endpoint.js';
import type { RouteDef } from '../../lib/api/route.js';
import type { JobMessage, JobQueue } from '../../lib/jobs/job.js';
import { silentLogger } from '../../lib/logger.js';
import type { Runtime } from '../../lib/runtime.js';
import { countVouchersItem, getVoucherByCode, voucherPutItems } from '../../lib/vouchers/voucher.repo.js';
import { upsertCustomer } from '../../lib/customers/customer.service.js';
import { customer as customerEntity, heldVoucher, objectAssignments, voucherRedemptionCount, voucher as voucherEntity } from '../../lib/db/entities.js';
import { type Publication, publishedVoucherOf } from '../../lib/publications/publication.js';
import { publicationItems } from '../../lib/publications/publication.repo.js';
import type { VoucherCampaign } from '../../lib/campaigns/campaign.js';
import { generateVouchers } from '../../lib/vouchers/voucher-generation.js';
import { publishPooledItem } from '../../lib/vouchers/voucher-pool.repo.js';
import { putHeldVoucherItem } from '../../lib/vouchers/voucher-holder.repo.js';
import {
  type BenchContext,
  type BenchRequest,
  benchRuntime,
  interleaved,
  invokeOk,
  keyPairHeaders,
  newBenchProject,
  recordCommands,
  timed,
} from './context.js';
import { check, type Check, type Section } from './report.js';
import { median, ms, percentile, perSecond } from './stats.js';

/** A jobs queue that only keeps messages: the request path is timed, not the job. */
class KeptJobs implements JobQueue {
  readonly sent: JobMessage[] = [];
  async send(job: JobMessage): Promise<void> {
    this.sent.push(job);
  }
}

export const discountBody = (name: string) => ({
  name,
  campaign_type: 'DISCOUNT_COUPONS',
  voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } },
});

interface Endpoint {
  label: string;
  route: RouteDef;
  handler: ApiHandler;
  request: (i: number) => BenchRequest;
  status?: number;
  /** The DynamoDB calls the endpoint cannot avoid, raw, with the same keys. */
  floor: (i: number) => Promise<unknown>;
  floorCalls: string;
}

/** Item 3: per-endpoint overhead in-process against the raw calls, then the local HTTP server under 16 clients. */
export async function benchRequests(ctx: BenchContext): Promise<Section[]> {
  const started = Date.now();
  const runtime = benchRuntime(ctx.engines);
  const { tableName: TableName, ddb } = runtime;
  const pair = await newBenchProject(runtime, 'bench requests');
  const p = pair.project_id;
  const headers = keyPairHeaders(pair);
  const jobs = new KeptJobs();
  const h = {
    createCampaign: makeCreateCampaign({ runtime, jobs }),
    getCampaign: makeGetCampaign({ runtime }),
    listCampaigns: makeListCampaigns({ runtime }),
    addVouchers: makeAddVouchers({ runtime, jobs }),
    getVoucher: makeGetVoucher({ runtime }),
    getAsyncAction: makeGetAsyncAction({ runtime }),
    listBinEntries: makeListBin({ runtime }),
    createPublication: makeCreatePublication({ runtime }),
  };

  ctx.progress('3. seeding: campaigns, vouchers, an async action');
  const campaign = await invokeOk(h.createCampaign, createCampaignRoute, { path: '/v1/campaigns', headers, json: discountBody('Requests') });
  const campaignId = campaign.id as string;
  for (let i = 0; i < 30; i += 1) await invokeOk(h.createCampaign, createCampaignRoute, { path: '/v1/campaigns', headers, json: discountBody(`Filler ${i}`) });
  const voucher = await invokeOk(h.addVouchers, addVouchersToCampaignRoute, { path: `/v1/campaigns/${campaignId}/vouchers`, headers, json: {} });
  const code = voucher.code as string;
  const action = await invokeOk(
    h.addVouchers,
    addVouchersToCampaignRoute,
    { path: `/v1/campaigns/${campaignId}/vouchers`, query: 'vouchers_count=5', headers, json: {} },
    202,
  );
  const actionId = action.async_action_id as string;
  const domainVoucher = await getVoucherByCode(runtime, p, code);
  if (!domainVoucher) throw new Error('seeded voucher not found');

  // Floors of the write endpoints write the same items into a project of their own.
  const floorProject = `${p}_floor`;
  const floorCampaign = { ...(await readCampaign(runtime, p, campaignId)), projectId: floorProject, id: `${campaignId}f` };
  await runtime.ddb.send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName, Item: campaignItem(floorCampaign) } },
        { Put: { TableName, Item: campaignCounterItem(floorProject, { campaignCount: 1, lastCreatedAt: floorCampaign.createdAt }) } },
      ],
    }),
  );

  // Publications: a STATIC campaign whose pool holds a voucher for every run, and a known customer per run (the
  // common case: one code to one customer), in the project and, for the floor, in the floor project.
  const runsAll = (ctx.options.quick ? 60 : 200) + (ctx.options.quick ? 10 : 30) + 1;
  ctx.progress(`3. seeding publications: ${runsAll} pool vouchers and customers, twice`);
  const pubCampaign = await invokeOk(h.createCampaign, createCampaignRoute, {
    path: '/v1/campaigns',
    headers,
    json: { ...discountBody('Publish'), type: 'STATIC' },
  });
  const pubCampaignId = pubCampaign.id as string;
  const floorPubCampaign = { ...(await readCampaign(runtime, p, pubCampaignId)), projectId: floorProject, id: `${pubCampaignId}f` } as VoucherCampaign;
  await ddb.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName, Item: campaignItem(floorPubCampaign) } }] }));
  await generateVouchers(runtime, (await readCampaign(runtime, p, pubCampaignId)) as VoucherCampaign, runsAll, { category: null });
  await generateVouchers(runtime, floorPubCampaign, runsAll, { category: null });
  for (let i = 0; i < runsAll; i += 1) {
    await upsertCustomer(runtime, p, { source_id: `pub-${i}` });
    await upsertCustomer(runtime, floorProject, { source_id: `pub-${i}` });
  }

  const appKey = () => ddb.send(new GetCommand({ TableName, Key: keys.appKey(pair.app_id), ConsistentRead: true }));
  const endpoints: Endpoint[] = [
    {
      label: 'GET /v1/vouchers/{code}',
      route: getVoucherRoute,
      handler: h.getVoucher,
      request: () => ({ path: `/v1/vouchers/${code}`, headers }),
      // The voucher has no redemption limit, so its uses are counted on shards (docs/architecture.md "The counter design"),
      // and the reply lists its rule assignments (issue 19): both are keyed by its id, known here as a warm container knows it.
      floorCalls: 'Get key → Get voucher ‖ Query use shards ‖ Get rule assignments',
      floor: async () => {
        await appKey();
        await Promise.all([
          ddb.send(new GetCommand({ TableName, Key: keys.voucher(p, code), ConsistentRead: true })),
          ddb.send(
            new QueryCommand({
              TableName,
              KeyConditionExpression: 'PK = :pk',
              ExpressionAttributeValues: { ':pk': voucherRedemptionCount.key.partition(p, domainVoucher.id) },
              ConsistentRead: true,
            }),
          ),
          ddb.send(new GetCommand({ TableName, Key: objectAssignments.key(p, domainVoucher.id), ConsistentRead: true })),
        ]);
      },
    },
    {
      label: 'GET /v1/campaigns/{campaignId}',
      route: getCampaignRoute,
      handler: h.getCampaign,
      request: () => ({ path: `/v1/campaigns/${campaignId}`, headers }),
      floorCalls: 'Get key → Get campaign ‖ Get name (an id may be a name) ‖ Get rule assignments',
      floor: async () => {
        await appKey();
        await Promise.all([
          ddb.send(new GetCommand({ TableName, Key: keys.campaign(p, campaignId), ConsistentRead: true })),
          ddb.send(new GetCommand({ TableName, Key: keys.campaignName(p, campaignId), ConsistentRead: true })),
          ddb.send(new GetCommand({ TableName, Key: objectAssignments.key(p, campaignId), ConsistentRead: true })),
        ]);
      },
    },
    {
      label: 'GET /v1/campaigns?limit=10',
      route: listCampaignsRoute,
      handler: h.listCampaigns,
      request: () => ({ path: '/v1/campaigns', query: 'limit=10', headers }),
      floorCalls: 'Get key → Get counter → Query 10 → BatchGet 10',
      floor: async () => {
        await appKey();
        const total = (await getCampaignCounter(runtime, p))?.campaignCount ?? 0;
        const page = await ddb.send(
          new QueryCommand({
            TableName,
            IndexName: tableDesign.indexes.gsi1.name,
            KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK BETWEEN :a AND :b',
            ExpressionAttributeValues: {
              ':pk': keys.campaignSequencePartition(p),
              ':a': keys.campaignSequenceSortKey(total - 9),
              ':b': keys.campaignSequenceSortKey(total),
            },
            ScanIndexForward: false,
          }),
        );
        const Keys = (page.Items ?? []).map((item) => keys.campaign(p, item.id as string));
        await ddb.send(new BatchGetCommand({ RequestItems: { [TableName]: { Keys, ConsistentRead: true } } }));
      },
    },
    {
      label: 'GET /v1/async-actions/{id}',
      route: getAsyncActionRoute,
      handler: h.getAsyncAction,
      request: () => ({ path: `/v1/async-actions/${actionId}`, headers }),
      floorCalls: 'Get key → Get action',
      floor: async () => {
        await appKey();
        await ddb.send(new GetCommand({ TableName, Key: keys.asyncAction(p, actionId), ConsistentRead: true }));
      },
    },
    {
      label: 'GET /v1/trash-bin',
      route: listBinEntriesRoute,
      handler: h.listBinEntries,
      request: () => ({ path: '/v1/trash-bin', headers }),
      floorCalls: 'Get key → Query 11',
      floor: async () => {
        await appKey();
        await ddb.send(
          new QueryCommand({
            TableName,
            KeyConditionExpression: 'PK = :pk',
            ExpressionAttributeValues: { ':pk': keys.binPartition(p) },
            ScanIndexForward: false,
            Limit: 11,
          }),
        );
      },
    },
    {
      label: 'POST /v1/campaigns',
      route: createCampaignRoute,
      handler: h.createCampaign,
      request: (i) => ({ path: '/v1/campaigns', headers, json: discountBody(`Timed ${i}`) }),
      floorCalls: 'Get key → Get counter → Transact(name, counter, campaign, list entry, 3 view entries)',
      floor: async (i) => {
        await appKey();
        const counter = await getCampaignCounter(runtime, floorProject);
        const seq = (counter?.campaignCount ?? 0) + 1;
        const c: Campaign = { ...floorCampaign, id: `camp_floor${i}`, name: `Timed ${i}`, createdAt: new Date().toISOString() };
        await ddb.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: { TableName, Item: { ...keys.campaignName(floorProject, c.name), campaignId: c.id }, ConditionExpression: 'attribute_not_exists(PK)' } },
              {
                Put: {
                  TableName,
                  Item: campaignCounterItem(floorProject, { campaignCount: seq, lastCreatedAt: c.createdAt }),
                  ConditionExpression: 'campaignCount = :n',
                  ExpressionAttributeValues: { ':n': seq - 1 },
                },
              },
              { Put: { TableName, Item: campaignItem(c), ConditionExpression: 'attribute_not_exists(PK)' } },
              { Put: { TableName, Item: listEntryItem(c, seq, [seq, seq, seq]) } },
              ...viewEntryItems(floorProject, { ...c, isReferralCode: false }, [seq, seq, seq]).map((Item) => ({
                Put: { TableName, Item, ConditionExpression: 'attribute_not_exists(PK)' },
              })),
            ],
          }),
        );
      },
    },
    {
      label: 'POST /v1/campaigns/{id}/vouchers (1 generated)',
      route: addVouchersToCampaignRoute,
      handler: h.addVouchers,
      request: () => ({ path: `/v1/campaigns/${campaignId}/vouchers`, headers, json: {} }),
      floorCalls: 'Get key → Get campaign ‖ Get name → Transact(voucher, id ref, count)',
      floor: async (i) => {
        await appKey();
        await Promise.all([
          ddb.send(new GetCommand({ TableName, Key: keys.campaign(floorProject, floorCampaign.id), ConsistentRead: true })),
          ddb.send(new GetCommand({ TableName, Key: keys.campaignName(floorProject, floorCampaign.id), ConsistentRead: true })),
        ]);
        const v = { ...domainVoucher, projectId: floorProject, id: `v_floor${i}_${Date.now()}`, code: `FLOOR-${i}-${Date.now()}` };
        await ddb.send(
          new TransactWriteCommand({
            TransactItems: [...voucherPutItems(runtime, floorCampaign.id, v), countVouchersItem(runtime, floorProject, floorCampaign.id, 1)],
          }),
        );
      },
    },
    {
      label: 'POST /v1/publications (campaign, 1 voucher)',
      route: createPublicationRoute,
      handler: h.createPublication,
      request: (i) => ({ path: '/v1/publications', headers, json: { campaign: { name: pubCampaignId }, customer: { source_id: `pub-${i + 1}` } } }),
      floorCalls:
        'Get key → Get campaign ‖ Get name → Get source id → Get customer → Get held ‖ Query pool 10 → Transact(voucher, held, publication, 4 entries, 4 counts)',
      floor: async (i) => {
        await appKey();
        const [campaignRead] = await Promise.all([
          ddb.send(new GetCommand({ TableName, Key: keys.campaign(floorProject, floorPubCampaign.id), ConsistentRead: true })),
          ddb.send(new GetCommand({ TableName, Key: keys.campaignName(floorProject, floorPubCampaign.id), ConsistentRead: true })),
        ]);
        if (!campaignRead.Item) throw new Error('floor campaign missing');
        const sourceId = `pub-${i + 1}`;
        const src = await ddb.send(new GetCommand({ TableName, Key: keys.customerSourceId(floorProject, sourceId), ConsistentRead: true }));
        const customerId = String(src.Item?.customerId);
        const customerRead = await ddb.send(new GetCommand({ TableName, Key: keys.customer(floorProject, customerId), ConsistentRead: true }));
        const [, pool] = await Promise.all([
          ddb.send(new GetCommand({ TableName, Key: heldVoucher.key(floorProject, customerId, floorPubCampaign.id), ConsistentRead: true })),
          ddb.send(
            new QueryCommand({
              TableName,
              IndexName: tableDesign.indexes.gsi2.name,
              KeyConditionExpression: 'GSI2PK = :pk',
              ExpressionAttributeValues: { ':pk': voucherEntity.sparse.partition(floorProject, floorPubCampaign.id) },
              Limit: 10,
            }),
          ),
        ]);
        const picked = voucherEntity.fromItem((pool.Items ?? [])[0] ?? {});
        const at = new Date().toISOString();
        const pubId = `pub_floor${i}_${Date.now()}`;
        const published = { ...picked, holderId: customerId, publishCount: 1, publicationId: pubId, updatedAt: at };
        const publication: Publication = {
          id: pubId,
          projectId: floorProject,
          createdAt: at,
          customerId,
          customer: customerEntity.fromItem(customerRead.Item ?? {}),
          metadata: {},
          channel: 'API',
          sourceId: null,
          campaignId: floorPubCampaign.id,
          voucherType: picked.type,
          isReferralCode: false,
          vouchers: [{ id: picked.id, code: picked.code }],
          voucher: publishedVoucherOf(published),
        };
        await ddb.send(
          new TransactWriteCommand({
            TransactItems: [
              publishPooledItem(runtime, picked, customerId, pubId, at),
              putHeldVoucherItem(runtime, published, null, pubId),
              ...publicationItems(runtime, publication, null),
            ],
          }),
        );
      },
    },
  ];

  const runs = ctx.options.quick ? 60 : 200;
  const warmup = ctx.options.quick ? 10 : 30;
  const checks: Check[] = [];
  const perEndpoint: Record<string, unknown>[] = [];
  const recorder = recordCommands(runtime);
  for (const e of endpoints) {
    ctx.progress(`3. ${e.label}: ${runs} interleaved runs beside its floor (${e.floorCalls})`);
    recorder.reset();
    await invokeOk(e.handler, e.route, e.request(-1), e.status ?? 200);
    const handlerCalls = recorder.sent.map((c) => c.name);
    const samples = await interleaved(
      runs,
      warmup,
      (i) => invokeOk(e.handler, e.route, e.request(i), e.status ?? 200),
      (i) => e.floor(i),
    );
    const p50 = median(samples.subject);
    const floor50 = median(samples.floor);
    checks.push(
      check({ name: `${e.label} p50`, measured: p50, floor: floor50, unit: 'ms', target: '≤ 1.25 × floor + 2 ms', bound: 1.25 * floor50 + 2, format: ms }),
    );
    checks.push(check({ name: `${e.label} p99`, measured: percentile(samples.subject, 99), floor: percentile(samples.floor, 99), unit: 'ms', format: ms }));
    perEndpoint.push({
      endpoint: e.label,
      p50,
      p99: percentile(samples.subject, 99),
      floorP50: floor50,
      floorP99: percentile(samples.floor, 99),
      floorCalls: e.floorCalls,
      handlerCalls,
    });
  }
  const inProcess: Section = {
    item: 3,
    title: `Request overhead in-process (API Gateway event → handler), ${runs} runs interleaved with the floor`,
    checks,
    details: { runs, warmup, endpoints: perEndpoint },
    notes: perEndpoint.map((e) => `${String(e.endpoint)}: handler calls ${(e.handlerCalls as string[]).join(', ')} (floor: ${String(e.floorCalls)})`),
    seconds: (Date.now() - started) / 1000,
  };
  return [inProcess, await benchHttp(ctx)];
}

async function readCampaign(runtime: Runtime, projectId: string, campaignId: string): Promise<Campaign> {
  const res = await runtime.ddb.send(new GetCommand({ TableName: runtime.tableName, Key: keys.campaign(projectId, campaignId), ConsistentRead: true }));
  if (!res.Item) throw new Error(`campaign ${campaignId} not found`);
  const { PK: _pk, SK: _sk, entity: _e, v: _v, ...rest } = res.Item;
  return rest as unknown as Campaign;
}

/** The local HTTP server (the same handler modules behind node:http) under 16 concurrent clients, mixed reads and writes. */
async function benchHttp(ctx: BenchContext): Promise<Section> {
  const started = Date.now();
  ctx.progress('3. starting the local HTTP server (infra/local/start-local.ts) on the bench engines');
  const local = await startLocal({ dataDir: null, port: 0, downloadPort: 0, logger: silentLogger, logLevel: 'error', engines: ctx.engines });
  try {
    const pair: IssuedKeyPair = local.devKey;
    const headers = { ...keyPairHeaders(pair), 'content-type': 'application/json' };
    const api = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
      const res = await fetch(`${local.apiUrl.replace(/\/$/, '')}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
      const json = (await res.json()) as Record<string, unknown>;
      if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`);
      return json;
    };
    // Writes spread over 8 campaigns: 16 clients adding to one campaign would measure its item's transaction conflicts.
    const campaignIds: string[] = [];
    for (let i = 0; i < 8; i += 1) campaignIds.push((await api('POST', '/v1/campaigns', discountBody(`Http ${Date.now()} ${i}`))).id as string);
    const campaignId = campaignIds[0] ?? '';
    const codes: string[] = [];
    for (let i = 0; i < 20; i += 1) codes.push((await api('POST', `/v1/campaigns/${campaignIds[i % campaignIds.length] ?? ''}/vouchers`, {})).code as string);
    const mix: Array<[string, (i: number) => Promise<unknown>]> = [
      ['GET voucher', (i) => api('GET', `/v1/vouchers/${codes[i % codes.length] ?? ''}`)],
      ['GET campaign', () => api('GET', `/v1/campaigns/${campaignId}`)],
      ['GET campaigns', () => api('GET', '/v1/campaigns?limit=10')],
      ['GET voucher', (i) => api('GET', `/v1/vouchers/${codes[(i * 7) % codes.length] ?? ''}`)],
      ['POST voucher', (i) => api('POST', `/v1/campaigns/${campaignIds[i % campaignIds.length] ?? ''}/vouchers`, {})],
    ];
    const total = ctx.options.quick ? 800 : 4000;
    const clients = 16;
    ctx.progress(`3. HTTP: ${total} requests from ${clients} concurrent clients (mix: ${mix.map(([n]) => n).join(', ')})`);
    const latencies: number[] = [];
    let next = 0;
    const wallStart = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (next < total) {
          const i = next++;
          const fn = (mix[i % mix.length] ?? mix[0])?.[1];
          if (!fn) return;
          const [t] = await timed(() => fn(i));
          latencies.push(t);
        }
      }),
    );
    const wall = (performance.now() - wallStart) / 1000;
    return {
      item: 3,
      title: `Local HTTP server, ${clients} concurrent clients, mixed workload (${total} requests)`,
      checks: [
        check({ name: 'HTTP p50', measured: median(latencies), unit: 'ms', format: ms }),
        check({ name: 'HTTP p99', measured: percentile(latencies, 99), unit: 'ms', format: ms }),
        check({ name: 'HTTP throughput', measured: total / wall, unit: 'req/s', format: perSecond }),
      ],
      details: { clients, total, mix: mix.map(([n]) => n), p50: median(latencies), p99: percentile(latencies, 99), requestsPerSecond: total / wall },
      notes: ['reported only: the server, the handlers and DynamoDB Local share the same cores, so this is queueing on the machine, not the design'],
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await local.stop();
  }
}
