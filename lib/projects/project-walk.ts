import type { Item, ItemKey } from '../db/entity.js';
import { backoff, MAX_CONFLICT_ATTEMPTS, MAX_TRANSACTION_ITEMS, transact, type TransactItem } from '../db/transact.js';
import { stopIfAsked } from '../jobs/job-stop.js';
import type { Runtime } from '../runtime.js';
import { cursorAfter, projectItemsPage } from './project-items.repo.js';

/**
 * A checkpointed walk over every item of one project (lib/projects/project-items.repo.ts), shared
 * by the jobs that must reach all of a project's data: the removal of a deleted project's data and
 * a customer's erasure. Each chunk of writes commits in one transaction with the checkpoint on the
 * job's subject item, conditioned on the checkpoint the run read, so a chunk is written and counted
 * once however often the job is delivered, and a run killed at any point resumes after the last
 * chunk it committed.
 */

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock'> & { signal?: AbortSignal | undefined };

import { WALK_END, WALK_START, type WalkState } from './walk-state.js';

export { WALK_END, WALK_START, type WalkState } from './walk-state.js';

/** What one item of the project needs: its writes (none: untouched) and what they add to the subject's counts. */
export interface ItemPlan {
  writes: TransactItem[];
  tally: Record<string, number>;
}

export interface WalkOptions {
  projectId: string;
  /** The job's subject item (async status, checkpoint, `counts`); its `status` is IN_PROGRESS while the walk runs. */
  subjectKey: ItemKey;
  /** Table items evaluated per page. */
  evaluate: number;
  /** At most this many passes; the last one ends the walk whatever it changed. */
  maxPasses: number;
  what: string;
  /** The writes one item needs, or null to leave it. */
  plan(item: Item): Promise<ItemPlan | null>;
  /** The subject's walk state as stored now; null when the job is no longer open (final or gone). */
  reread(): Promise<WalkState | null>;
  /** Ends the job (status DONE, marker deleted), once the last pass is over. */
  finish(state: WalkState): Promise<void>;
}

/** The subject's checkpoint move from `prev` to `next`, with the tallies added: holds only if the subject is still at `prev`. */
export function checkpointItem(
  deps: Pick<Runtime, 'tableName'>,
  key: ItemKey,
  prev: WalkState,
  next: WalkState,
  tally: Record<string, number>,
  now: string,
): TransactItem {
  const names: Record<string, string> = { '#s': 'status' };
  const values: Record<string, unknown> = {
    ':open': 'IN_PROGRESS',
    ':prevCursor': prev.walkCursor,
    ':prevPass': prev.walkPass,
    ':cursor': next.walkCursor,
    ':pass': next.walkPass,
    ':changed': next.walkChanged,
    ':now': now,
  };
  const adds = Object.entries(tally)
    .filter(([, n]) => n !== 0)
    .map(([name, n], i) => {
      names[`#t${i}`] = name;
      values[`:t${i}`] = n;
      return `counts.#t${i} :t${i}`;
    });
  return {
    Update: {
      TableName: deps.tableName,
      Key: key,
      UpdateExpression: `SET walkCursor = :cursor, walkPass = :pass, walkChanged = :changed, updatedAt = :now${adds.length > 0 ? ` ADD ${adds.join(', ')}` : ''}`,
      ConditionExpression: '#s = :open AND walkCursor = :prevCursor AND walkPass = :prevPass',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

const addTally = (into: Record<string, number>, from: Record<string, number>) => {
  for (const [k, n] of Object.entries(from)) into[k] = (into[k] ?? 0) + n;
};

/** The planned items of a page, cut into chunks of at most one transaction's writes (less the checkpoint). */
function chunksOf(planned: { item: Item; plan: ItemPlan }[]): { item: Item; plan: ItemPlan }[][] {
  const chunks: { item: Item; plan: ItemPlan }[][] = [];
  let current: { item: Item; plan: ItemPlan }[] = [];
  let size = 0;
  for (const p of planned) {
    if (size + p.plan.writes.length > MAX_TRANSACTION_ITEMS - 1 && current.length > 0) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(p);
    size += p.plan.writes.length;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/**
 * Runs (or resumes) a walk from `state` to its end. Safe to run any number of times at once: a
 * run whose checkpoint lost reads the subject again and goes on from there, or stops when the
 * job is no longer open. `deps.signal` stops it between chunks (every chunk committed is checkpointed).
 * @throws JobStoppedError; Error (transient: the message is retried).
 */
export async function runWalk(deps: Deps, options: WalkOptions, start: WalkState): Promise<void> {
  let state = start;
  let losses = 0;
  for (;;) {
    stopIfAsked(deps.signal, options.what);
    if (state.walkCursor === WALK_END) {
      if (state.walkChanged === 0 || state.walkPass + 1 >= options.maxPasses) {
        await options.finish(state);
        return;
      }
      const next = { walkCursor: WALK_START, walkPass: state.walkPass + 1, walkChanged: 0 };
      const moved = await transact(deps, [checkpointItem(deps, options.subjectKey, state, next, {}, deps.clock.now().toISOString())]);
      const fresh = moved.ok ? next : await options.reread();
      if (!fresh) return;
      state = fresh;
      continue;
    }
    const page = await projectItemsPage(deps, options.projectId, state.walkCursor === WALK_START ? null : state.walkCursor, options.evaluate);
    const planned: { item: Item; plan: ItemPlan }[] = [];
    for (const item of page.items) {
      const plan = await options.plan(item);
      if (plan && plan.writes.length > 0) planned.push({ item, plan });
    }
    const chunks = chunksOf(planned);
    const pageEnd = page.next ?? WALK_END;
    if (chunks.length === 0) chunks.push([]);
    let lost = false;
    for (let i = 0; i < chunks.length; i += 1) {
      stopIfAsked(deps.signal, options.what);
      const chunk = chunks[i] ?? [];
      const last = chunk[chunk.length - 1];
      const cursor = i === chunks.length - 1 || !last ? pageEnd : cursorAfter(last.item);
      const tally: Record<string, number> = {};
      for (const p of chunk) addTally(tally, p.plan.tally);
      const next: WalkState = { walkCursor: cursor, walkPass: state.walkPass, walkChanged: state.walkChanged + chunk.length };
      const writes = chunk.flatMap((p) => p.plan.writes);
      const outcome = await transact(deps, [...writes, checkpointItem(deps, options.subjectKey, state, next, tally, deps.clock.now().toISOString())]);
      if (!outcome.ok) {
        // Another run moved the checkpoint, or an item changed under this chunk: start again from what is stored.
        const fresh = await options.reread();
        if (!fresh) return;
        losses += 1;
        if (losses >= MAX_CONFLICT_ATTEMPTS) throw new Error(`${options.what}: too many lost writes at one checkpoint`);
        await backoff(losses);
        state = fresh;
        lost = true;
        break;
      }
      losses = 0;
      state = next;
    }
    if (lost) continue;
  }
}
