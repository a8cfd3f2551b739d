import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makeHandler as makeCreateCampaign } from '../../functions/campaigns/create-campaign.js';
import { makeHandler as makeCreateCustomer } from '../../functions/customers/create-customer.js';
import { makeHandler as makeCreateExport } from '../../functions/exports/create-export.js';
import { makeHandler as makeCreateOrder } from '../../functions/orders/create-order.js';
import { makeHandler as makeCreatePublication } from '../../functions/publications/create-publication.js';
import { makeHandler as makeRedeem } from '../../functions/redemptions/redeem-stacked-discounts.js';
import { makeHandler as makeAddVouchers } from '../../functions/vouchers/add-vouchers-to-campaign.js';
import { makeHandler as makeCreateVoucher } from '../../functions/vouchers/create-voucher.js';
import {
  addVouchersToCampaignRoute,
  createCampaignRoute,
  createCustomerRoute,
  createExportRoute,
  createOrderRoute,
  createPublicationRoute,
  createVoucherRoute,
  redeemStackedDiscountsRoute,
} from '../../lib/api/routes.js';
import { cardTransaction, customerListEntry, orderListEntry, publicationListEntry, redemptionByProject, voucherByProject } from '../../lib/db/entities.js';
import { keys } from '../../lib/db/keys.js';
import { tableDesign } from '../../lib/db/table.js';
import { ALL_CUSTOMERS } from '../../lib/customers/customer-views.js';
import { EXPORTED_OBJECTS, type ExportedObject } from '../../lib/exports/export.js';
import { getExport } from '../../lib/exports/export.repo.js';
import { EXPORTERS } from '../../lib/exports/exporters.js';
import type { JobMessage, JobQueue } from '../../lib/jobs/job.js';
import type { CardTransaction } from '../../lib/loyalties/card-transaction.js';
import { bucketItem } from '../../lib/loyalties/points-bucket.repo.js';
import { ALL_PUBLICATIONS } from '../../lib/publications/publication.js';
import type { Runtime } from '../../lib/runtime.js';
import { getVoucherByCode, voucherPutItems } from '../../lib/vouchers/voucher.repo.js';
import { batchPut, type BenchContext, benchRuntime, invokeOk, keyPairHeaders, newBenchProject, recordCommands } from './context.js';
import type { ExportChildArgs, FloorPlan } from './exports-all-child.js';
import { cloneWithIds, exportSizes, growth, rate } from './flow-helpers.js';
import { childFlags } from './flow-helpers.js';
import { exportJobsWorker, heapFlags } from '../../lib/api/workers.js';
import { check, type Check, type Section } from './report.js';
import { discountBody } from './requests-bench.js';
import { mib, perSecond, ratio } from './stats.js';

const run = promisify(execFile);
const CHILD = join(import.meta.dirname, 'exports-all-child.ts');
/** The exported object measured at 100,000 rows (full run); the others at 10,000. The voucher export reads keys from GSI3, then each page's items. */
const BIG = 'voucher';

class KeptJobs implements JobQueue {
  readonly sent: JobMessage[] = [];
  async send(job: JobMessage): Promise<void> {
    this.sent.push(job);
  }
}

interface ChildResult {
  ms: number;
  rows?: number | null;
  status?: string | null;
  items?: number;
  bytes?: number;
  queryMs?: number;
  uploadMs?: number;
  rssBefore: number;
  peakRss: number;
  peakHeap: number;
  heapKept?: number;
}

/** Old-space cap (MiB) of the extra run of the largest export: far below what holding its rows would take (as item 5). */
const CAPPED_OLD_SPACE_MIB = 64;

/**
 * A child process with the export worker's heap bounds (lib/api/workers.ts `heap`, the function's
 * NODE_OPTIONS in the stack), so its memory is what the deployed function's would be; `nodeFlags` come after and win.
 */
async function child(args: ExportChildArgs, nodeFlags: string[] = []): Promise<ChildResult> {
  const { stdout } = await run(
    process.execPath,
    [...childFlags(), ...heapFlags(exportJobsWorker), ...nodeFlags, '--import', 'tsx', CHILD, JSON.stringify(args)],
    {
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
      maxBuffer: 1 << 20,
      timeout: 900_000,
    },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as ChildResult;
}

/** One project holding one exported object's rows, grown on demand by BatchWriteItem, and the export's request and floor. */
interface Subject {
  object: ExportedObject;
  projectId: string;
  headers: Record<string, string>;
  /** Writes rows from..to-1 (clones of one real object, or items of the repo's layout). */
  seed(from: number, to: number): Promise<void>;
  body: Record<string, unknown>;
  plan: FloorPlan;
  /** Rows the export of `n` seeded objects has (a redemption of one voucher stores one row per redemption, the parent too). */
  rowsOf(n: number): number;
}

const pad = (i: number) => String(i).padStart(7, '0');

/** The Put items of the transactions (or single Puts) a runtime sent since its recorder was reset. */
function putItemsOf(sent: ReturnType<typeof recordCommands>['sent']): Record<string, unknown>[] {
  return sent.flatMap((c) => {
    if (c.name === 'TransactWrite')
      return (c.input.TransactItems as Array<{ Put?: { Item: Record<string, unknown> } }>).flatMap((t) => (t.Put ? [t.Put.Item] : []));
    if (c.name === 'Put') return [c.input.Item as Record<string, unknown>];
    return [];
  });
}

const fieldsBody = (object: ExportedObject, filters?: Record<string, unknown>) => ({
  exported_object: object,
  parameters: { fields: [...EXPORTERS[object].fields], ...(filters ? { filters } : {}) },
});

/** Makes the subject of each exported object: a project, one real object made through its handler as the clone template. */
async function makeSubject(runtime: Runtime, object: ExportedObject): Promise<Subject> {
  const pair = await newBenchProject(runtime, `bench export ${object}`);
  const p = pair.project_id;
  const headers = keyPairHeaders(pair);
  const recorder = recordCommands(runtime);
  const gsi3 = tableDesign.indexes.gsi3;
  const clones = async (make: () => Promise<string[]>, plan: FloorPlan, body: Record<string, unknown>, perObject = 1): Promise<Subject> => {
    recorder.reset();
    const ids = await make();
    const template = putItemsOf(recorder.sent);
    return {
      object,
      projectId: p,
      headers,
      body,
      plan,
      rowsOf: (n) => n * perObject,
      // Clone 0 is the template itself, already stored.
      seed: (from, to) =>
        batchPut(runtime, Array.from({ length: to - Math.max(from, 1) }, (_, k) => cloneWithIds(template, ids, `x${pad(Math.max(from, 1) + k)}`)).flat()),
    };
  };
  switch (object) {
    case 'voucher': {
      const campaign = await invokeOk(makeCreateCampaign({ runtime }), createCampaignRoute, {
        path: '/v1/campaigns',
        headers,
        json: discountBody('Export vouchers'),
      });
      const sample = await invokeOk(makeAddVouchers({ runtime }), addVouchersToCampaignRoute, {
        path: `/v1/campaigns/${String(campaign.id)}/vouchers`,
        headers,
        json: {},
      });
      const template = await getVoucherByCode(runtime, p, sample.code as string);
      if (!template) throw new Error('template voucher not found');
      const base = Date.parse(template.createdAt) + 1000;
      return {
        object,
        projectId: p,
        headers,
        body: fieldsBody(object),
        plan: { kind: 'keys', index: gsi3.name, pkName: gsi3.partitionKey, pk: voucherByProject.partition(p) },
        rowsOf: (n) => n,
        seed: (from, to) =>
          batchPut(
            runtime,
            Array.from({ length: to - Math.max(from, 1) }, (_, k) => {
              const i = Math.max(from, 1) + k;
              return voucherPutItems(runtime, String(campaign.id), {
                ...template,
                id: `v_exp${pad(i)}`,
                code: `EXP-${pad(i)}`,
                createdAt: new Date(base + i).toISOString(),
              }).map((t) => t.Put?.Item as Record<string, unknown>);
            }).flat(),
          ),
      };
    }
    case 'redemption': {
      await invokeOk(makeCreateVoucher({ runtime }), createVoucherRoute, {
        path: '/v1/vouchers/EXP-RDM',
        headers,
        json: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } },
      });
      let rows = 1;
      const subject = await clones(
        async () => {
          await invokeOk(makeRedeem({ runtime }), redeemStackedDiscountsRoute, {
            path: '/v1/redemptions',
            headers,
            json: { redeemables: [{ object: 'voucher', id: 'EXP-RDM' }], order: { amount: 20_000 } },
          });
          const made = putItemsOf(recorder.sent).filter((i) => i.entity === 'redemption');
          rows = made.length;
          return made.map((i) => String(i.id));
        },
        { kind: 'keys', index: gsi3.name, pkName: gsi3.partitionKey, pk: redemptionByProject.partition(p) },
        fieldsBody(object),
      );
      return { ...subject, rowsOf: (n) => n * rows };
    }
    case 'customer':
      return clones(
        async () => {
          const made = await invokeOk(makeCreateCustomer({ runtime }), createCustomerRoute, {
            path: '/v1/customers',
            headers,
            json: {
              source_id: 'exp-cust',
              name: 'Export Customer',
              email: 'export@example.com',
              address: { city: 'Warsaw', country: 'PL' },
              metadata: { tier: 'gold' },
            },
          });
          return [String(made.id)];
        },
        { kind: 'entries', pk: customerListEntry.key.partition(p, ALL_CUSTOMERS), follow: 'customer' },
        fieldsBody(object),
      );
    case 'publication':
      await invokeOk(makeCreateVoucher({ runtime }), createVoucherRoute, {
        path: '/v1/vouchers/EXP-PUB',
        headers,
        json: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } },
      });
      return clones(
        async () => {
          const made = await invokeOk(makeCreatePublication({ runtime }), createPublicationRoute, {
            path: '/v1/publications',
            headers,
            json: { voucher: 'EXP-PUB', customer: { source_id: 'exp-pub' }, metadata: { channel: 'bench' } },
          });
          return [String(made.id)];
        },
        { kind: 'entries', pk: publicationListEntry.key.partition(p, ALL_PUBLICATIONS), follow: 'publication' },
        fieldsBody(object),
      );
    case 'order':
      return clones(
        async () => {
          const made = await invokeOk(makeCreateOrder({ runtime }), createOrderRoute, {
            path: '/v1/orders',
            headers,
            json: { amount: 12_300, status: 'PAID', metadata: { shop: 'bench' } },
          });
          return [String(made.id)];
        },
        { kind: 'entries', pk: orderListEntry.key.partition(p), follow: 'order' },
        fieldsBody(object),
      );
    case 'points_expiration':
    case 'voucher_transactions': {
      const campaign = await invokeOk(makeCreateCampaign({ runtime }), createCampaignRoute, {
        path: '/v1/campaigns',
        headers,
        json: { name: `Export ${object}`, campaign_type: 'LOYALTY_PROGRAM', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 100 } } },
      });
      const campaignId = String(campaign.id);
      const filters = { campaign_id: { conditions: { $is: campaignId } } };
      if (object === 'points_expiration') {
        return {
          object,
          projectId: p,
          headers,
          body: fieldsBody(object, filters),
          plan: { kind: 'items', index: null, pkName: 'PK', pk: keys.campaignBucketsPartition(p, campaignId) },
          rowsOf: (n) => n,
          seed: (from, to) =>
            batchPut(
              runtime,
              Array.from({ length: to - from }, (_, k) => {
                const i = from + k;
                return bucketItem({
                  id: `lopb_${pad(i)}`,
                  projectId: p,
                  campaignId,
                  voucherId: `v_card${String(i % 500).padStart(4, '0')}`,
                  points: 1 + (i % 997),
                  status: 'ACTIVE',
                  expiresAt: new Date(Date.UTC(2027, 0, 1 + ((i * 7919) % 1500))).toISOString().slice(0, 10),
                  createdAt: '2026-01-01T00:00:00.000Z',
                  updatedAt: '2026-01-01T00:00:00.000Z',
                });
              }),
            ),
        };
      }
      const gsi2 = tableDesign.indexes.gsi2;
      return {
        object,
        projectId: p,
        headers,
        body: fieldsBody(object, filters),
        plan: { kind: 'items', index: gsi2.name, pkName: gsi2.partitionKey, pk: cardTransaction.sparse.partition(p, campaignId) },
        rowsOf: (n) => n,
        seed: (from, to) =>
          batchPut(
            runtime,
            Array.from({ length: to - from }, (_, k) => {
              const i = from + k;
              const t: CardTransaction = {
                id: `vtx_exp${pad(i)}`,
                projectId: p,
                campaignId,
                voucherId: `v_card${String(i % 500).padStart(4, '0')}`,
                type: 'POINTS_ADDITION',
                source: 'API',
                sourceId: `src-${i}`,
                reason: 'bench',
                points: 10,
                total: 10 * (1 + Math.floor(i / 500)),
                balance: 10 * (1 + Math.floor(i / 500)),
                createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
              };
              return cardTransaction.toItem(t);
            }),
          ),
      };
    }
  }
}

interface Measured {
  object: ExportedObject;
  size: number;
  rows: number;
  bytes: number;
  workerMs: number;
  floorMs: number;
  floorQueryMs: number;
  floorUploadMs: number;
  floorItems: number;
  rssBefore: number;
  peakRss: number;
  peakHeap: number;
  heapKept: number;
  load1m: number;
}

/**
 * Item 20 (issue 38): every exported object of POST /v1/exports at two sizes (1k and 10k rows, the
 * voucher export 10k and 100k; quick: a tenth), rows seeded straight into the table by
 * BatchWriteItem (clones of one object made through its handler, or the repo's item layout),
 * the export created through its handler and run by the export worker in a child process, beside
 * its floor in another child: the reads the rows need (same partition or index, Query pages of
 * 1000, BatchGetItem of each 100 keys where the list holds keys only) and one PutObject of the file.
 */
export async function benchExportsAll(ctx: BenchContext): Promise<Section[]> {
  const started = Date.now();
  const runtime = benchRuntime(ctx.engines);
  const jobs = new KeptJobs();
  const createExport = makeCreateExport({ runtime, jobs });
  const e = ctx.engines;
  const sizes = exportSizes(EXPORTED_OBJECTS, BIG, ctx.options.quick);
  const checks: Check[] = [];
  const measured: Measured[] = [];
  const notes: string[] = [];
  for (const object of EXPORTED_OBJECTS) {
    const subject = await makeSubject(runtime, object);
    const [small, large] = sizes[object] ?? [0, 0];
    let seeded = 0;
    const atSize: Measured[] = [];
    for (const size of [small, large]) {
      ctx.progress(`20. ${object}: seeding up to ${size} objects (BatchWriteItem)`);
      await subject.seed(seeded, size);
      seeded = size;
      const created = await invokeOk(createExport, createExportRoute, { path: '/v1/exports', headers: subject.headers, json: subject.body });
      jobs.sent.splice(0);
      const stored = await getExport(runtime, subject.projectId, String(created.id));
      if (!stored) throw new Error(`export ${String(created.id)} not stored`);
      const base = {
        region: e.region,
        tableName: e.tableName,
        bucketName: e.bucketName,
        dynamoEndpoint: e.dynamoEndpoint,
        s3Endpoint: e.s3Endpoint,
        projectId: subject.projectId,
        exportId: stored.id,
        objectKey: stored.objectKey,
        plan: subject.plan,
      };
      ctx.progress(`20. ${object}, ${size} objects: the export worker in a child process, then its floor`);
      const w = await child({ ...base, mode: 'worker' });
      if (w.status !== 'DONE') throw new Error(`${object} export ${stored.id} ended ${String(w.status)}`);
      const expected = subject.rowsOf(size);
      if (w.rows !== expected) throw new Error(`${object} export wrote ${String(w.rows)} rows, ${expected} seeded`);
      const f = await child({ ...base, mode: 'floor' });
      atSize.push({
        object,
        size,
        rows: w.rows ?? 0,
        bytes: f.bytes ?? 0,
        workerMs: w.ms,
        floorMs: f.ms,
        floorQueryMs: f.queryMs ?? 0,
        floorUploadMs: f.uploadMs ?? 0,
        floorItems: f.items ?? 0,
        rssBefore: w.rssBefore,
        peakRss: w.peakRss,
        peakHeap: w.peakHeap,
        heapKept: w.heapKept ?? 0,
        load1m: loadavg()[0] ?? 0,
      });
      if (object === BIG && size === large) {
        // RSS also follows how lazily V8 collects; a hard cap on the old space shows what the job really keeps.
        const again = await invokeOk(createExport, createExportRoute, { path: '/v1/exports', headers: subject.headers, json: subject.body });
        jobs.sent.splice(0);
        const record = await getExport(runtime, subject.projectId, String(again.id));
        ctx.progress(`20. ${object}, ${size} objects once more with the worker's old space capped at ${CAPPED_OLD_SPACE_MIB} MiB`);
        const capped = await child({ ...base, mode: 'worker', exportId: String(again.id), objectKey: record?.objectKey ?? '' }, [
          `--max-old-space-size=${CAPPED_OLD_SPACE_MIB}`,
        ]).catch(
          (error: unknown) => ({ ms: Number.NaN, status: `crashed: ${String(error).slice(0, 120)}`, rssBefore: 0, peakRss: 0, peakHeap: 0 }) as ChildResult,
        );
        checks.push(
          check({
            name: `${object}: ${expected.toLocaleString('en-US')} rows with --max-old-space-size=${CAPPED_OLD_SPACE_MIB}`,
            measured: capped.status === 'DONE' ? 1 : 0,
            unit: '',
            target: 'completes (DONE)',
            bound: 1,
            direction: 'min',
            format: (n) => (n === 1 ? 'DONE' : String(capped.status)),
            note: `peak RSS ${mib(capped.peakRss)}, peak heap ${mib(capped.peakHeap)}, ${(capped.ms / 1000).toFixed(1)} s`,
          }),
        );
        notes.push(
          `${object} with the old space capped at ${CAPPED_OLD_SPACE_MIB} MiB: ${String(capped.status)} in ${(capped.ms / 1000).toFixed(1)} s, peak RSS ${mib(capped.peakRss)}, peak heap ${mib(capped.peakHeap)}`,
        );
      }
    }
    const [s, l] = atSize;
    if (!s || !l) continue;
    measured.push(s, l);
    for (const m of [l]) {
      const workerRate = rate(m.rows, m.workerMs);
      const floorRate = rate(m.rows, m.floorMs);
      checks.push(
        check({
          name: `${object}: ${m.rows.toLocaleString('en-US')} rows, rows/s`,
          measured: workerRate,
          floor: floorRate,
          unit: 'rows/s',
          target: '≥ 0.7 × floor',
          bound: 0.7 * floorRate,
          direction: 'min',
          format: perSecond,
          note: `load ${m.load1m.toFixed(1)}`,
        }),
      );
    }
    checks.push(
      check({
        name: `${object}: worker peak RSS at ${l.rows.toLocaleString('en-US')} vs ${s.rows.toLocaleString('en-US')} rows`,
        measured: l.peakRss,
        floor: s.peakRss,
        unit: 'bytes',
        target: '≤ 1.2 × small',
        bound: 1.2 * s.peakRss,
        format: mib,
      }),
    );
    notes.push(
      `${object}: ${s.rows} rows ${perSecond(rate(s.rows, s.workerMs))} (floor ${perSecond(rate(s.rows, s.floorMs))}); ${l.rows} rows in ${(l.workerMs / 1000).toFixed(1)} s ` +
        `(floor ${(l.floorMs / 1000).toFixed(1)} s: reads ${(l.floorQueryMs / 1000).toFixed(1)} s + upload ${(l.floorUploadMs / 1000).toFixed(2)} s of ${mib(l.bytes)}); ` +
        `peak RSS ${mib(s.peakRss)} → ${mib(l.peakRss)} (${ratio(growth(s.peakRss, l.peakRss))}), peak heap ${mib(s.peakHeap)} → ${mib(l.peakHeap)}, heap kept after a full GC ${mib(s.heapKept)} → ${mib(l.heapKept)}; load ${s.load1m.toFixed(1)} / ${l.load1m.toFixed(1)}`,
    );
  }
  return [
    {
      item: 20,
      title: 'Exports: every exported object of POST /v1/exports (worker in a child process)',
      checks,
      details: { sizes, measured },
      notes: [
        `${BIG} at ${(sizes[BIG] ?? []).join(' and ')} rows, the others at ${(sizes.order ?? []).join(' and ')}; rows/s of the larger size, one run each; every field exported, in the default order (the source's own)`,
        "floor: the same partition or index in Query pages of 1000, a BatchGetItem (consistent) of each 100 keys where the list holds keys only (vouchers, redemptions: GSI3; customers, publications, orders: list entries), then one PutObject of the worker's file",
        ...notes,
      ],
      seconds: (Date.now() - started) / 1000,
    },
  ];
}
