import { eachLimited } from '../concurrency.js';
import { stopIfAsked } from '../jobs/job-stop.js';
import { orderLoyaltyEffects } from '../loyalties/order-earning.service.js';
import type { Runtime } from '../runtime.js';
import { ORDER_LOYALTY_SHARDS } from './order.js';
import { clearLoyaltyDue, dueOrderPages } from './order-loyalty.repo.js';
import { getOrder } from './order.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids' | 'logger'>;

/**
 * How old a mark must be before the sweep acts on it: the request that set it runs the effects right
 * after its commit, so a younger mark is most likely still being served (running them twice at once
 * is safe, only wasted).
 */
export const ORDER_LOYALTY_GRACE_MS = 5 * 60_000;

export interface OrderLoyaltySweepOptions {
  /** Only this project's orders (an operator's or a test's sweep); every project's when absent. */
  projectId?: string | undefined;
  /** Shards swept at once (default 4). */
  shardConcurrency?: number;
  /** Orders of one index page handled at once, per shard (default 8). */
  orderConcurrency?: number;
  pageSize?: number;
  /** The host's stop signal: the sweep stops between orders (the rest stay marked for the next run). */
  signal?: AbortSignal | undefined;
  /** Stops starting new pages after this time (ms since the epoch). */
  deadline?: number | undefined;
}

export interface OrderLoyaltySweepReport {
  /** Marked orders the index listed (older than the grace; of `projectId` only, when given). */
  found: number;
  /** Orders whose earning this sweep wrote (PAID, and the request had not earned). */
  earned: number;
  /** Orders whose earnings this sweep took back (CANCELED, and the request had not taken them back). */
  takenBack: number;
  /** Marks cleared. */
  cleared: number;
  /** Entries left alone: a mark that moved since the index listed it, or an order gone. */
  skipped: number;
}

/**
 * The order loyalty sweep (the scheduled `order-loyalty-worker`): for every order whose move to
 * PAID or CANCELED was marked more than ORDER_LOYALTY_GRACE_MS ago, runs that status's loyalty
 * effects (lib/loyalties/order-earning.service.ts orderLoyaltyEffects: once per order, so effects
 * the request already ran change nothing) and then clears the mark. A request that died between its
 * commit and its earning is made good here. The index is the checkpoint: a run stopped part-way
 * leaves the rest marked, and two runs at once give each effect once.
 */
export async function sweepOrderLoyalty(deps: Deps, options: OrderLoyaltySweepOptions = {}): Promise<OrderLoyaltySweepReport> {
  const before = new Date(deps.clock.now().getTime() - ORDER_LOYALTY_GRACE_MS).toISOString();
  const report: OrderLoyaltySweepReport = { found: 0, earned: 0, takenBack: 0, cleared: 0, skipped: 0 };
  const started = Date.now();
  let stoppedEarly = false;
  deps.logger.info('order loyalty sweep started', { before, project_id: options.projectId });
  const shards = Array.from({ length: ORDER_LOYALTY_SHARDS }, (_, i) => i);
  await eachLimited(shards, options.shardConcurrency ?? 4, async (shard) => {
    for await (const page of dueOrderPages(deps, shard, before, options.pageSize ?? 100)) {
      const mine = options.projectId === undefined ? page : page.filter((o) => o.projectId === options.projectId);
      report.found += mine.length;
      await eachLimited(mine, options.orderConcurrency ?? 8, async (listed) => {
        stopIfAsked(options.signal, 'The order loyalty sweep');
        const dueAt = listed.loyaltyDueAt;
        const order = await getOrder(deps, listed.projectId, listed.id);
        if (!order || dueAt === undefined || order.loyaltyDueAt !== dueAt) {
          report.skipped += 1;
          return;
        }
        // Counted by what this run wrote, not by the order's status: most marked orders had their
        // effects run by their request already, and the sweep only clears their marks.
        const outcome = await orderLoyaltyEffects(deps, order);
        if (outcome.entries > 0 && outcome.effect === 'earned') report.earned += 1;
        else if (outcome.entries > 0 && outcome.effect === 'taken_back') report.takenBack += 1;
        if (await clearLoyaltyDue(deps, order.projectId, order.id, dueAt)) report.cleared += 1;
        else report.skipped += 1;
      });
      // Every 5 minutes most shards have nothing due: only a page with orders is worth a line.
      if (mine.length > 0) deps.logger.info('order loyalty sweep progress', { shard, found: report.found, cleared: report.cleared });
      if (options.deadline !== undefined && Date.now() >= options.deadline) {
        stoppedEarly = true;
        return;
      }
    }
  });
  deps.logger.info('order loyalty sweep done', {
    found: report.found,
    earned: report.earned,
    taken_back: report.takenBack,
    cleared: report.cleared,
    skipped: report.skipped,
    stopped_early: stoppedEarly,
    seconds: (Date.now() - started) / 1000,
  });
  return report;
}
