import { eachLimited } from '../concurrency.js';
import { transact } from '../db/transact.js';
import { AppError, NotFoundError } from '../errors.js';
import { stopIfAsked } from '../jobs/job-stop.js';
import type { Runtime } from '../runtime.js';
import { todayOf } from './expiration.js';
import { EXPIRY_SHARDS } from './points-bucket.js';
import type { PendingPoints } from './pending-points.js';
import { duePendingPages, endItems, orderEarningItem } from './pending-points.repo.js';
import { activatePendingEntry } from './pending-points.service.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids' | 'logger'>;

export interface PendingSweepOptions {
  /** Only this project's entries (an operator's or a test's sweep); every project's when absent. */
  projectId?: string | undefined;
  /** Index entries per Query page (default 100). */
  pageSize?: number;
  /** The host's stop signal: the sweep stops between cards (whatever is left stays in the index for the next run). */
  signal?: AbortSignal | undefined;
  /** Stops starting new pages after this time (ms since the epoch): a Lambda ends its run before its timeout. */
  deadline?: number | undefined;
}

/** What one sweep did; also its last log line. */
export interface PendingSweepReport {
  today: string;
  /** Index entries read. */
  found: number;
  /** Entries this sweep activated, and their points. */
  activated: number;
  points: number;
  /** Entries ended by another writer meanwhile (an activation, a cancellation), or of another project. */
  skipped: number;
  /** Entries whose card is gone: cancelled without a card change. */
  orphans: number;
}

/** Cancels an entry whose card is gone, so it leaves the due index; null when another writer ended it first. */
async function cancelOrphan(deps: Deps, entry: PendingPoints): Promise<boolean> {
  const at = deps.clock.now().toISOString();
  return (await transact(deps, [...endItems(deps, entry, 'CANCELED', at), orderEarningItem(deps, entry, 'CANCELED', entry.points, at)])).ok;
}

/**
 * The pending points worker's run: every PENDING entry whose activation date is today or before
 * (the clock's UTC date) is activated, each in its own transaction (activatePendingEntry: the
 * entry leaves the due index in the transaction that credits the card). The due index is the
 * checkpoint, as the expiry worker's: a run killed anywhere leaves exactly the entries still due
 * for the next run, and two runs at once activate each entry once (the loser's condition fails,
 * it reads the entry again and skips it). A card's entries are activated one after the other,
 * cards of a page 8 at a time.
 * @throws JobStoppedError when `signal` is raised (between cards; nothing is half done).
 */
export async function activateDuePendingPoints(deps: Deps, options: PendingSweepOptions = {}): Promise<PendingSweepReport> {
  const today = todayOf(deps.clock.now());
  const report: PendingSweepReport = { today, found: 0, activated: 0, points: 0, skipped: 0, orphans: 0 };
  const started = Date.now();
  let stoppedEarly = false;
  deps.logger.info('pending points activation started', { today, project_id: options.projectId });
  await eachLimited(
    Array.from({ length: EXPIRY_SHARDS }, (_, i) => i),
    4,
    async (shard) => {
      for await (const page of duePendingPages(deps, shard, today, options.pageSize ?? 100)) {
        report.found += page.length;
        const mine = options.projectId === undefined ? page : page.filter((p) => p.projectId === options.projectId);
        report.skipped += page.length - mine.length;
        const cards = new Map<string, PendingPoints[]>();
        for (const p of mine) cards.set(`${p.projectId}#${p.voucherId}`, [...(cards.get(`${p.projectId}#${p.voucherId}`) ?? []), p]);
        await eachLimited([...cards.values()], 8, async (due) => {
          stopIfAsked(options.signal, 'The pending points activation');
          for (const entry of due) {
            try {
              // The index's copy saves a read of the entry per activation (the transaction is conditioned on it).
              const done = await activatePendingEntry(deps, entry, null, entry);
              report.activated += 1;
              report.points += done.value.points;
            } catch (error) {
              if (error instanceof NotFoundError && error.resourceType === 'voucher') {
                if (await cancelOrphan(deps, entry)) {
                  report.orphans += 1;
                  deps.logger.warn('pending points of a missing loyalty card cancelled', {
                    project_id: entry.projectId,
                    voucher_id: entry.voucherId,
                    pending_points_id: entry.id,
                  });
                } else report.skipped += 1;
              } else if (error instanceof AppError && error.status < 500) report.skipped += 1;
              else throw error;
            }
          }
        });
        deps.logger.info('pending points activation progress', { today, shard, found: report.found, activated: report.activated, points: report.points });
        if (options.deadline !== undefined && Date.now() >= options.deadline) {
          stoppedEarly = true;
          return;
        }
      }
    },
  );
  deps.logger.info('pending points activation done', { ...report, stopped_early: stoppedEarly, seconds: (Date.now() - started) / 1000 });
  return report;
}
