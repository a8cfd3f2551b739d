import { eachLimited } from '../concurrency.js';
import { RETRY, retryOnConflict, transact } from '../db/transact.js';
import { stopIfAsked } from '../jobs/job-stop.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from '../vouchers/voucher.js';
import { getVoucherByCode, getVoucherCodeById } from '../vouchers/voucher.repo.js';
import { todayOf } from './expiration.js';
import { activeBucketPoints } from './loyalty-card.js';
import { listCardBuckets } from './loyalty-card.repo.js';
import { EXPIRY_SHARDS, expiresKeyOf, type PointsBucket } from './points-bucket.js';
import { emptyReport, type ExpirySweepReport, isPastDue, MAX_WRITE_OFFS_PER_COMMIT, planCardWriteOff } from './points-expiry.js';
import { dueBucketPages, getBucket, orphanWriteOffItem, writeOffItems } from './points-expiry.repo.js';
import { withTier } from './tier-period.js';
import { programTiers } from './tier.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids' | 'logger'>;

export interface ExpirySweepOptions {
  /** Only this project's buckets (an operator's or a test's sweep); every project's when absent. */
  projectId?: string | undefined;
  /** Shards swept at once (default 4). */
  shardConcurrency?: number;
  /** Cards of one index page written off at once, per shard (default 8). */
  cardConcurrency?: number;
  /** Index entries per Query page (default 100). */
  pageSize?: number;
  /** The host's stop signal: the sweep stops between cards (whatever is left stays in the index for the next run). */
  signal?: AbortSignal | undefined;
  /** Stops starting new pages after this time (ms since the epoch): a Lambda ends its run before its timeout. */
  deadline?: number | undefined;
}

/** What happened to one card's due buckets. */
interface CardOutcome {
  writtenOff: number;
  points: number;
  skipped: number;
  orphans: number;
}

/**
 * Writes off one card's past-due buckets (as the index listed them), in one transaction (up to
 * MAX_WRITE_OFFS_PER_COMMIT buckets each), conditioned on the card's revision and the bucket's points and status as read. The card is
 * read once (its buckets too, unless the due ones are all it holds); a lost race reads everything
 * again, the buckets consistently, and skips the ones no longer due. A card that is gone gets its
 * buckets emptied alone.
 */
/** Soonest expiry first, then by id: the order the index gives a card's buckets. */
const byExpiry = (a: PointsBucket, b: PointsBucket): number => {
  const x = `${expiresKeyOf(a.expiresAt)}#${a.id}`;
  const y = `${expiresKeyOf(b.expiresAt)}#${b.id}`;
  return x < y ? -1 : x > y ? 1 : 0;
};

async function writeOffCard(deps: Deps, due: PointsBucket[], today: string, now: Date): Promise<CardOutcome> {
  const first = due[0];
  if (!first) return { writtenOff: 0, points: 0, skipped: 0, orphans: 0 };
  const { projectId, voucherId } = first;
  const outcome: CardOutcome = { writtenOff: 0, points: 0, skipped: 0, orphans: 0 };
  const date = now.toISOString();
  const code = first.voucherCode ?? (await getVoucherCodeById(deps, projectId, voucherId));
  let pending = due;
  await retryOnConflict(`Too many concurrent changes to loyalty card ${voucherId} during the points expiry`, async (attempt) => {
    if (attempt > 0) {
      const current = await Promise.all(pending.map((b) => getBucket(deps, b)));
      const still = current.filter((b): b is PointsBucket => b !== null && b.status === 'ACTIVE' && b.points > 0 && isPastDue(b, today));
      outcome.skipped += pending.length - still.length;
      pending = still;
      if (pending.length === 0) return true;
    }
    const voucher: Voucher | null = code === null ? null : await getVoucherByCode(deps, projectId, code);
    if (!voucher?.loyaltyCard || voucher.id !== voucherId) {
      for (const b of pending) {
        const done = await transact(deps, [orphanWriteOffItem(deps, b, date)]);
        if (done.ok) outcome.orphans += 1;
        else outcome.skipped += 1;
      }
      if (pending.length > 0)
        deps.logger.warn('points of a missing loyalty card expired without a card transaction', {
          project_id: projectId,
          voucher_id: voucherId,
          buckets: pending.length,
        });
      pending = [];
      return true;
    }
    let card = voucher.loyaltyCard;
    const duePoints = pending.reduce((s, b) => s + b.points, 0);
    // When the due buckets hold every bucketed point of the card, it has no other bucket to read for its next expiry.
    let others: PointsBucket[] = [];
    if ((card.bucketedPoints ?? 0) !== duePoints) {
      others = await listCardBuckets(deps, projectId, voucherId);
      if (activeBucketPoints(others) !== (card.bucketedPoints ?? 0)) return RETRY;
      // A shard's index pages mix every card's entries, so a card's other due buckets may sit on a later page. Read
      // here anyway, they go in the same transaction; their own entries have left the index by the time a later page
      // is read (or, read stale, fail their condition and are skipped).
      const named = new Set(pending.map((b) => b.id));
      const alsoDue = others.filter((b) => !named.has(b.id) && b.status === 'ACTIVE' && b.points > 0 && isPastDue(b, today));
      if (alsoDue.length > 0) pending = [...pending, ...alsoDue].sort(byExpiry);
    }
    // Expiry lowers the balance: the card's tier follows in the same transaction (lib/loyalties/tier.ts).
    const tiers = voucher.campaignId ? await programTiers(deps, projectId, voucher.campaignId) : { tiers: [] };
    while (pending.length > 0) {
      const batch = pending.slice(0, MAX_WRITE_OFFS_PER_COMMIT);
      const writeOff = planCardWriteOff(card, batch, others, today, date, () => deps.ids.id('vtx'));
      const { records } = writeOff;
      const plan = { ...writeOff.plan, card: withTier(card, writeOff.plan.card, tiers, date) };
      const done = await transact(deps, writeOffItems(deps, { ...voucher, loyaltyCard: card }, plan, records, date));
      if (!done.ok) return RETRY;
      outcome.writtenOff += batch.length;
      outcome.points += plan.expired;
      card = plan.card;
      const gone = new Set(batch.map((b) => b.id));
      others = others.filter((b) => !gone.has(b.id));
      pending = pending.slice(batch.length);
    }
    return true;
  });
  return outcome;
}

/**
 * The expiry worker's run: every bucket whose last day is before today (the clock's UTC date) and
 * that still holds points is written off, one DynamoDB transaction per card (up to
 * MAX_WRITE_OFFS_PER_COMMIT buckets, whichever index pages they were found on) that ends its due
 * buckets (each conditioned on its points as read), moves their points from the card's `balance`
 * to `expired_points` and writes one POINTS_EXPIRATION card transaction per bucket. Due buckets are found in the
 * expiry index, one Query per shard (never a Scan). The index is the run's checkpoint: a written-off
 * bucket leaves it in the same transaction, so a run killed at any point (kill -9, a Lambda timeout,
 * a lost schedule) leaves exactly the buckets still due for the next run, and two runs at once
 * write each bucket off once (the loser's condition fails and it moves on). Logs its progress
 * after every page and a summary at the end.
 * @throws JobStoppedError when `signal` is raised (between cards; nothing is half done).
 */
export async function expirePoints(deps: Deps, options: ExpirySweepOptions = {}): Promise<ExpirySweepReport> {
  const now = deps.clock.now();
  const today = todayOf(now);
  const report = emptyReport(today);
  const started = Date.now();
  const shards = Array.from({ length: EXPIRY_SHARDS }, (_, i) => i);
  let stoppedEarly = false;
  deps.logger.info('points expiry started', { today, project_id: options.projectId });
  await eachLimited(shards, options.shardConcurrency ?? 4, async (shard) => {
    for await (const page of dueBucketPages(deps, shard, today, options.pageSize ?? 100)) {
      report.found += page.length;
      const mine = options.projectId === undefined ? page : page.filter((b) => b.projectId === options.projectId);
      report.skipped += page.length - mine.length;
      const cards = new Map<string, PointsBucket[]>();
      for (const b of mine) {
        const key = `${b.projectId}#${b.voucherId}`;
        const list = cards.get(key);
        if (list) list.push(b);
        else cards.set(key, [b]);
      }
      await eachLimited([...cards.values()], options.cardConcurrency ?? 8, async (due) => {
        stopIfAsked(options.signal, 'The points expiry');
        const o = await writeOffCard(deps, due, today, now);
        report.writtenOff += o.writtenOff;
        report.points += o.points;
        report.skipped += o.skipped;
        report.orphans += o.orphans;
      });
      deps.logger.info('points expiry progress', { today, shard, found: report.found, written_off: report.writtenOff, points: report.points });
      if (options.deadline !== undefined && Date.now() >= options.deadline) {
        stoppedEarly = true;
        return;
      }
    }
  });
  deps.logger.info('points expiry done', {
    today,
    found: report.found,
    written_off: report.writtenOff,
    points: report.points,
    skipped: report.skipped,
    orphans: report.orphans,
    stopped_early: stoppedEarly,
    seconds: (Date.now() - started) / 1000,
  });
  return report;
}
