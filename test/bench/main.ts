/**
 * The benchmark suite (issue 7): `npm run bench -- [--quick] [--out FILE] [--only 1,3]`.
 * Every target is a ratio to a floor measured in the same run on the same engines, because the
 * machines it runs on are shared and noisy. Progress goes to stderr, the table to stdout, and
 * `--out` writes the sections as JSON. See docs/benchmarks.md.
 */
import { writeFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { startEngines, type Engines } from '../../infra/local/engines.js';
import { benchBulkGeneration } from './bulk-bench.js';
import { benchBundles } from './bundles-bench.js';
import type { BenchContext } from './context.js';
import { benchExport } from './export-bench.js';
import { benchExportsAll } from './exports-all-bench.js';
import { benchListing } from './listing-bench.js';
import { benchVoucherListing } from './voucher-listing-bench.js';
import { benchOAuth } from './oauth-bench.js';
import { benchQualifications } from './qualification-bench.js';
import { sectionTable, type Section } from './report.js';
import { benchRedemption } from './redemption-bench.js';
import { benchRequests } from './requests-bench.js';
import { benchRewardRedemption } from './reward-bench.js';
import { benchPointsExpiry } from './expiry-bench.js';
import { benchOrderEarning } from './earning-bench.js';
import { benchCollectionRule, benchSegmentRule } from './rules-bench.js';
import { benchCustomerUpserts, benchProductImport, benchVoucherImport } from './jobs-bench.js';
import { benchPendingActivation } from './pending-bench.js';
import { LAST_ITEM, parseBenchArgs } from './stats.js';
import { benchOutboxCost, benchWebhookDelivery } from './webhooks-bench.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

let options;
try {
  options = parseBenchArgs(process.argv.slice(2));
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}

const startedAt = Date.now();
const progress = (message: string): void => {
  process.stderr.write(`[${((Date.now() - startedAt) / 1000).toFixed(0).padStart(4)} s] ${message}\n`);
};
const wanted = (item: number): boolean => options.only.length === 0 || options.only.includes(item);

const sections: Section[] = [];
const emit = (list: Section[]): void => {
  for (const section of list) {
    sections.push(section);
    process.stdout.write(`${sectionTable(section)}\n\n`);
  }
};
/** Runs one item; a crash becomes a failed check of its own, and the other items still run. */
const attempt = async (item: number, title: string, fn: () => Promise<Section[]>): Promise<void> => {
  const itemStart = Date.now();
  try {
    emit(await fn());
  } catch (error) {
    progress(`${item}. ${title} crashed: ${(error as Error).stack ?? String(error)}`);
    emit([
      {
        item,
        title: `${title} (crashed)`,
        checks: [
          {
            name: 'ran to the end',
            measured: 0,
            floor: null,
            unit: '',
            target: 'no error',
            bound: null,
            pass: false,
            show: { measured: (error as Error).message.slice(0, 200), floor: '', bound: '' },
          },
        ],
        details: { error: String(error) },
        notes: [],
        seconds: (Date.now() - itemStart) / 1000,
      },
    ]);
  }
};

let engines: Engines | undefined;
try {
  progress(`benchmark ${options.quick ? '--quick' : 'full run'} on ${availableParallelism()} cores, node ${process.version}`);
  if (wanted(1) || wanted(2)) await attempt(1, 'Bundles and cold start', () => benchBundles({ options, progress }));
  // Every item after the bundles (3 to LAST_ITEM) runs on the engines.
  if (Array.from({ length: LAST_ITEM - 2 }, (_, i) => i + 3).some(wanted)) {
    progress('starting DynamoDB Local, s3rver and the local SQS');
    engines = await startEngines({ dataDir: null });
    const ctx: BenchContext = { engines, options, progress };
    if (wanted(3)) await attempt(3, 'Request overhead', () => benchRequests(ctx));
    if (wanted(4)) await attempt(4, 'Bulk generation', () => benchBulkGeneration(ctx));
    if (wanted(5)) await attempt(5, 'Export', () => benchExport(ctx));
    if (wanted(6)) await attempt(6, 'Listing depth', () => benchListing(ctx));
    if (wanted(7)) await attempt(7, 'OAuth', () => benchOAuth(ctx));
    if (wanted(8)) await attempt(8, 'Voucher listing depth', () => benchVoucherListing(ctx));
    if (wanted(9)) await attempt(9, 'Validation and redemption', () => benchRedemption(ctx));
    if (wanted(10)) await attempt(10, 'Reward redemption', () => benchRewardRedemption(ctx));
    if (wanted(11)) await attempt(11, 'Qualifications', () => benchQualifications(ctx));
    if (wanted(12)) await attempt(12, 'Points expiry', () => benchPointsExpiry(ctx));
    if (wanted(13)) await attempt(13, 'Validation against product collections', () => benchCollectionRule(ctx));
    if (wanted(14)) await attempt(14, 'Earning on order.paid', () => benchOrderEarning(ctx));
    if (wanted(15)) await attempt(15, 'Validation against a segment', () => benchSegmentRule(ctx));
    if (wanted(16)) await attempt(16, 'Product import', () => benchProductImport(ctx));
    if (wanted(17)) await attempt(17, 'Customer bulk upserts', () => benchCustomerUpserts(ctx));
    if (wanted(18)) await attempt(18, 'Pending points activation', () => benchPendingActivation(ctx));
    if (wanted(19)) await attempt(19, 'Voucher CSV import', () => benchVoucherImport(ctx));
    if (wanted(20)) await attempt(20, 'Exports of every object', () => benchExportsAll(ctx));
    if (wanted(21)) await attempt(21, 'Outbox cost on redemption and publication', () => benchOutboxCost(ctx));
    if (wanted(22)) await attempt(22, 'Webhook delivery rate', () => benchWebhookDelivery(ctx));
  }
} finally {
  await engines?.stop();
}

const checks = sections.flatMap((s) => s.checks.map((c) => ({ item: s.item, ...c })));
const failed = checks.filter((c) => c.pass === false);
const summary = `${checks.filter((c) => c.pass === true).length} checks pass, ${failed.length} fail, ${checks.filter((c) => c.pass === null).length} reported only; ${((Date.now() - startedAt) / 1000).toFixed(0)} s`;
process.stdout.write(`${summary}\n`);
for (const f of failed) process.stdout.write(`  FAIL ${f.item}. ${f.name}: ${f.show.measured} (bound ${f.show.bound})\n`);

if (options.out) {
  const machine = {
    cores: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryBytes: totalmem(),
    node: process.version,
    platform: process.platform,
  };
  writeFileSync(
    options.out,
    `${JSON.stringify({ mode: options.quick ? 'quick' : 'full', startedAt: new Date(startedAt).toISOString(), seconds: (Date.now() - startedAt) / 1000, machine, summary, sections }, null, 2)}\n`,
  );
  progress(`wrote ${options.out}`);
}
process.exitCode = failed.length > 0 ? 1 : 0;
