import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makeHandler as makeCreateCampaign } from '../../functions/campaigns/create-campaign.js';
import { makeHandler as makeCreateExport } from '../../functions/exports/create-points-expiration-export.js';
import { createPointsExpirationExportRoute, createCampaignRoute } from '../../lib/api/routes.js';
import { getExport } from '../../lib/exports/export.repo.js';
import type { JobMessage, JobQueue } from '../../lib/jobs/job.js';
import type { PointsBucket } from '../../lib/loyalties/points-bucket.js';
import { bucketItem } from '../../lib/loyalties/points-bucket.repo.js';
import { batchPut, type BenchContext, benchRuntime, invokeOk, keyPairHeaders, newBenchProject } from './context.js';
import { check, type Check, type Section } from './report.js';
import { mib, perSecond, ratio } from './stats.js';
import { exportJobsWorker, heapFlags } from '../../lib/api/workers.js';

const run = promisify(execFile);
const CHILD = join(import.meta.dirname, 'export-child.ts');
/** Old-space cap (MiB) of the extra big-size run: far below what buffering 100k rows would take. */
const CAPPED_OLD_SPACE_MIB = 64;

class KeptJobs implements JobQueue {
  readonly sent: JobMessage[] = [];
  async send(job: JobMessage): Promise<void> {
    this.sent.push(job);
  }
}

const loyaltyBody = (name: string) => ({
  name,
  campaign_type: 'LOYALTY_PROGRAM',
  voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 100 } },
});

function buckets(projectId: string, campaignId: string, n: number): PointsBucket[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `lopb_${String(i).padStart(7, '0')}`,
    projectId,
    campaignId,
    voucherId: `v_card${String(i % 500).padStart(4, '0')}`,
    points: 1 + (i % 997),
    status: i % 31 === 0 ? 'USED' : 'ACTIVE',
    expiresAt: i % 50 === 0 ? null : new Date(Date.UTC(2027, 0, 1 + ((i * 7919) % 1500))).toISOString().slice(0, 10),
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  }));
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
}

/**
 * A child process with the export worker's heap bounds (lib/api/workers.ts `heap`, the function's NODE_OPTIONS in the
 * stack), as item 20's, so its memory is what the deployed function's would be; `nodeFlags` come after and win.
 */
async function child(args: Record<string, unknown>, nodeFlags: string[] = []): Promise<ChildResult> {
  const { stdout } = await run(process.execPath, [...heapFlags(exportJobsWorker), ...nodeFlags, '--import', 'tsx', CHILD, JSON.stringify(args)], {
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    maxBuffer: 1 << 20,
    timeout: 900_000,
  });
  const line = stdout.trim().split('\n').at(-1) ?? '{}';
  return JSON.parse(line) as ChildResult;
}

/** Item 5: points-expiration exports at two sizes: rows/s beside the raw Query + one upload, and the worker's peak memory. */
export async function benchExport(ctx: BenchContext): Promise<Section[]> {
  const started = Date.now();
  const sizes = ctx.options.quick ? [2_000, 20_000] : [10_000, 100_000];
  const runtime = benchRuntime(ctx.engines);
  const pair = await newBenchProject(runtime, 'bench export');
  const p = pair.project_id;
  const headers = keyPairHeaders(pair);
  const jobs = new KeptJobs();
  const createCampaign = makeCreateCampaign({ runtime, jobs });
  const createExport = makeCreateExport({ runtime, jobs });
  const e = ctx.engines;
  const checks: Check[] = [];
  const extraNotes: string[] = [];
  const results: Record<string, unknown>[] = [];
  for (const size of sizes) {
    const campaign = await invokeOk(createCampaign, createCampaignRoute, { path: '/v1/campaigns', headers, json: loyaltyBody(`Export ${size}`) });
    const campaignId = campaign.id as string;
    ctx.progress(`5. seeding ${size} points buckets (the repo's item layout, BatchWriteItem)`);
    await batchPut(runtime, buckets(p, campaignId, size).map(bucketItem));
    const base = {
      region: e.region,
      tableName: e.tableName,
      bucketName: e.bucketName,
      dynamoEndpoint: e.dynamoEndpoint,
      s3Endpoint: e.s3Endpoint,
      projectId: p,
      campaignId,
    };
    const workerRuns: ChildResult[] = [];
    const floorRuns: ChildResult[] = [];
    // Exports each followed by its floor, so drift on the machine falls on both.
    const rounds = ctx.options.quick ? 1 : 2;
    for (let round = 0; round < rounds; round += 1) {
      const created = await invokeOk(createExport, createPointsExpirationExportRoute, {
        path: `/v1/loyalties/${campaignId}/points-expiration/export`,
        headers,
        json: { parameters: { fields: ['id', 'campaign_id', 'voucher_id', 'status', 'expires_at', 'points'] } },
      });
      jobs.sent.splice(0);
      const exportId = created.id as string;
      const stored = await getExport(runtime, p, exportId);
      if (!stored) throw new Error(`export ${exportId} not stored`);
      ctx.progress(`5. ${size} buckets, round ${round + 1}/${rounds}: the export worker in a child process`);
      const w = await child({ ...base, mode: 'worker', exportId, objectKey: stored.objectKey });
      if (w.status !== 'DONE') throw new Error(`export ${exportId} ended ${String(w.status)}`);
      workerRuns.push(w);
      ctx.progress(`5. ${size} buckets, round ${round + 1}/${rounds}: the floor (raw Query pages + one PutObject of the same bytes)`);
      floorRuns.push(await child({ ...base, mode: 'floor', exportId, objectKey: stored.objectKey }));
    }
    if (size === sizes.at(-1)) {
      // RSS also follows how lazily V8 collects; a hard cap on the old space shows what the job really keeps.
      const created = await invokeOk(createExport, createPointsExpirationExportRoute, {
        path: `/v1/loyalties/${campaignId}/points-expiration/export`,
        headers,
        json: {},
      });
      jobs.sent.splice(0);
      const stored = await getExport(runtime, p, created.id as string);
      ctx.progress(`5. ${size} buckets once more with the worker's old space capped at ${CAPPED_OLD_SPACE_MIB} MiB`);
      const capped = await child({ ...base, mode: 'worker', exportId: created.id as string, objectKey: stored?.objectKey ?? '' }, [
        `--max-old-space-size=${CAPPED_OLD_SPACE_MIB}`,
      ]).catch(
        (error: unknown) => ({ ms: Number.NaN, status: `crashed: ${String(error).slice(0, 120)}`, rssBefore: 0, peakRss: 0, peakHeap: 0 }) as ChildResult,
      );
      extraNotes.push(
        `old space capped at ${CAPPED_OLD_SPACE_MIB} MiB: ${String(capped.status)} in ${(capped.ms / 1000).toFixed(1)} s, peak RSS ${mib(capped.peakRss)}, peak heap ${mib(capped.peakHeap)}`,
      );
      checks.push(
        check({
          name: `${size.toLocaleString('en-US')} buckets with --max-old-space-size=${CAPPED_OLD_SPACE_MIB}`,
          measured: capped.status === 'DONE' ? 1 : 0,
          unit: '',
          target: 'completes (DONE)',
          bound: 1,
          direction: 'min',
          format: (n) => (n === 1 ? 'DONE' : String(capped.status)),
          note: `peak RSS ${mib(capped.peakRss)}, peak heap ${mib(capped.peakHeap)}`,
        }),
      );
    }
    const best = (list: ChildResult[]) => Math.min(...list.map((r) => r.ms));
    const rows = workerRuns[0]?.rows ?? 0;
    const workerRate = rows / (best(workerRuns) / 1000);
    const floorRate = rows / (best(floorRuns) / 1000);
    checks.push(
      check({
        name: `${size.toLocaleString('en-US')} buckets: rows/s`,
        measured: workerRate,
        floor: floorRate,
        unit: 'rows/s',
        target: '≥ 0.7 × floor',
        bound: 0.7 * floorRate,
        direction: 'min',
        format: perSecond,
      }),
    );
    results.push({
      buckets: size,
      rows,
      bytes: floorRuns[0]?.bytes,
      workerMs: workerRuns.map((r) => r.ms),
      floorMs: floorRuns.map((r) => r.ms),
      floorQueryMs: floorRuns.map((r) => r.queryMs),
      floorUploadMs: floorRuns.map((r) => r.uploadMs),
      peakRss: Math.max(...workerRuns.map((r) => r.peakRss)),
      rssBefore: Math.min(...workerRuns.map((r) => r.rssBefore)),
      peakHeap: Math.max(...workerRuns.map((r) => r.peakHeap)),
    });
  }
  const [small, big] = results as Array<{ peakRss: number; rssBefore: number; peakHeap: number; buckets: number }>;
  if (small && big) {
    checks.push(
      check({
        name: `worker peak RSS at ${big.buckets.toLocaleString('en-US')} vs ${small.buckets.toLocaleString('en-US')} buckets`,
        measured: big.peakRss,
        floor: small.peakRss,
        unit: 'bytes',
        target: '≤ 1.2 × small',
        bound: 1.2 * small.peakRss,
        format: mib,
      }),
    );
    checks.push(check({ name: 'worker peak heap, big size', measured: big.peakHeap, floor: small.peakHeap, unit: 'bytes', format: mib }));
  }
  return [
    {
      item: 5,
      title: 'Export: points-expiration CSV (Query pages → multipart upload), worker in a child process',
      checks,
      details: { sizes: results },
      notes: [
        "rows/s: the faster run of each (full: two); the floor reads the same partition with Limit 1000 pages and uploads the worker's file with one PutObject",
        ...extraNotes,
        ...(small && big
          ? [`peak RSS ${mib(small.peakRss)} → ${mib(big.peakRss)} (${ratio(big.peakRss / small.peakRss)}); RSS before the job ${mib(small.rssBefore)}`]
          : []),
      ],
      seconds: (Date.now() - started) / 1000,
    },
  ];
}
