/**
 * Jobs of the jobs queue run in a process of their own, so its memory is the worker's alone (item 19,
 * test/bench/jobs-bench.ts): each job through the jobs worker's handler, one record an invocation,
 * `atOnce` at a time, RSS and heap sampled every 5 ms. Prints one JSON line. Started with `node --import tsx`.
 */
import { makeHandler as makeJobsWorker } from '../../functions/workers/jobs-worker.js';
import { createDocumentClient } from '../../lib/db/client.js';
import type { JobMessage } from '../../lib/jobs/job.js';
import { silentLogger } from '../../lib/logger.js';
import { createRuntime } from '../../lib/runtime.js';
import { runJobs } from './job-runner.js';

interface ChildArgs {
  region: string;
  tableName: string;
  dynamoEndpoint: string;
  jobs: JobMessage[];
  atOnce: number;
}

const args = JSON.parse(process.argv[2] ?? '{}') as ChildArgs;
const ddb = createDocumentClient({ region: args.region, endpoint: args.dynamoEndpoint });
const runtime = createRuntime(
  { tableName: args.tableName, region: args.region, dynamoDbEndpoint: args.dynamoEndpoint, cluster: 'api', logLevel: 'error' },
  { ddb, logger: silentLogger },
);

const rssBefore = process.memoryUsage().rss;
const heapBefore = process.memoryUsage().heapUsed;
let peakRss = rssBefore;
let peakHeap = heapBefore;
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
}, 5);

const t = performance.now();
await runJobs(makeJobsWorker({ runtime }), args.jobs, args.atOnce);
const ms = performance.now() - t;
clearInterval(sampler);
process.stdout.write(`${JSON.stringify({ ms, rssBefore, heapBefore, peakRss, peakHeap })}\n`);
ddb.destroy();
