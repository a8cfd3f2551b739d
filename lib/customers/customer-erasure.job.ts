import { zlib } from '../builtins.js';
import * as entities from '../db/entities.js';
import type { Item } from '../db/entity.js';
import { updateStatusWith } from '../db/status-update.js';
import type { TransactItem } from '../db/transact.js';
import { canRead, type ExportFiles } from '../exports/export-files.js';
import { openJobDelete } from '../jobs/open-job.repo.js';
import { type ItemPlan, runWalk, WALK_END, WALK_START, type WalkState } from '../projects/project-walk.js';
import type { Runtime } from '../runtime.js';
import { keyHoldsPersonal, namesCustomer, redact } from './customer-erasure.rules.js';
import { type CustomerErasure, ERASURE_SETTLE_MS, erasureKey, getCustomerErasure } from './customer-erasure.service.js';

/**
 * The `erase-customer` job (customer-erasure.service.ts starts it; on the export jobs queue, whose
 * worker has the export bucket): walks the project's items (lib/projects/project-walk.ts), deletes
 * the customer's partitions (events, counters) and anonymises every other item that names the
 * customer (customer-erasure.rules.ts), chunk by chunk with its checkpoint, until a pass changes
 * nothing; then rewrites the project's export files without the customer (customer-erasure-files.ts);
 * then the erasure is DONE and forgets the values it looked for.
 */

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'logger'> & { signal?: AbortSignal | undefined; files?: ExportFiles | undefined };

/** Table items read per Scan page. */
const ERASURE_PAGE = 500;
/** A pass that changed items is followed by another; at most this many. */
const MAX_PASSES = 3;

/** Top-level attributes that are structure, never personal: left as they are even when equal to a personal value. */
const STRUCTURAL = new Set(['PK', 'SK', 'entity', 'v', 'ttl', 'id', 'projectId', 'status', 'type', 'object', 'createdAt', 'updatedAt', 'revision']);

const deleteOf = (deps: Pick<Runtime, 'tableName'>, item: Item): TransactItem => ({
  Delete: { TableName: deps.tableName, Key: { PK: item.PK as string, SK: item.SK as string } },
});

const ownPartition = (pk: string, projectId: string, customerId: string): boolean => {
  const own = `P#${projectId}#CUSTOMER#${customerId}`;
  return pk === own || pk.startsWith(`${own}#`);
};

/** What one item of the project needs for the erasure (null: nothing). */
export function planErasure(deps: Pick<Runtime, 'tableName'>, erasure: CustomerErasure, item: Item): ItemPlan | null {
  const personal = erasure.personal;
  if (!personal) return null;
  const pk = item.PK as string;
  const sk = item.SK as string;
  const subject = erasureKey(erasure.projectId, erasure.customerId);
  if (pk === subject.PK && sk === subject.SK) return null;
  if (ownPartition(pk, erasure.projectId, erasure.customerId)) {
    return { writes: [deleteOf(deps, item)], tally: item.entity === 'custom_event' ? { events: 1 } : { customerEvents: 1 } };
  }
  const gz = item.replyGz instanceof Uint8Array ? zlib().gunzipSync(item.replyGz).toString('utf8') : null;
  const text = JSON.stringify(item, (_k, v: unknown) => (v instanceof Uint8Array ? null : v instanceof Set ? [...v] : v)) + (gz ?? '');
  if (!namesCustomer(text, personal)) return null;
  const tally: Record<string, number> = item.entity === 'order' ? { orders: 1 } : { customerEvents: 1 };
  if (keyHoldsPersonal(pk, personal) || keyHoldsPersonal(sk, personal)) return { writes: [deleteOf(deps, item)], tally };
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  for (const [attribute, value] of Object.entries(item)) {
    if (STRUCTURAL.has(attribute) || attribute.startsWith('GSI')) continue;
    let next: unknown;
    if (attribute === 'replyGz' && gz !== null) {
      const cleaned = redact(gz, personal);
      next = cleaned === gz ? value : cleaned === null ? null : zlib().gzipSync(Buffer.from(String(cleaned), 'utf8'));
    } else next = redact(value, personal);
    if (next === value) continue;
    const i = sets.length;
    names[`#a${i}`] = attribute;
    values[`:a${i}`] = next;
    sets.push(`#a${i} = :a${i}`);
  }
  if (sets.length === 0) return null;
  return {
    writes: [
      {
        Update: {
          TableName: deps.tableName,
          Key: { PK: pk, SK: sk },
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        },
      },
    ],
    tally,
  };
}

const walkStateOf = (e: CustomerErasure): WalkState => ({ walkCursor: e.walkCursor ?? WALK_START, walkPass: e.walkPass ?? 0, walkChanged: e.walkChanged ?? 0 });

/** Waits `ms`, or less when the host's stop signal rises (the caller then stops at its checkpoint). */
const sleep = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Runs (or resumes) a customer's erasure; safe to run any number of times, even at once. Waits
 * until ERASURE_SETTLE_MS after the request first (by `deps.clock`), walks the table, then
 * erases the project's export files (customer-erasure-files.ts, with `deps.files`); DONE only
 * after both. `read`: the erasure as its caller already started reading it (customer-erasure.runner.ts), instead of a
 * read of its own.
 * @returns the erasure as it ends; null when none was asked.
 * @throws JobStoppedError; Error (transient: the message is retried; also when `deps.files` cannot read files).
 */
export async function runCustomerErasure(
  deps: Deps,
  projectId: string,
  customerId: string,
  read?: Promise<CustomerErasure | null>,
): Promise<CustomerErasure | null> {
  // The file stage is a lazy chunk of the worker's package: its load starts now and overlaps the walk's reads.
  const fileStage = import('../exports/export-lane.lazy.js');
  // Awaited only by the file stage; a run that ends before it must not leave a rejection unhandled.
  fileStage.catch(() => undefined);
  let erasure = await (read ?? getCustomerErasure(deps, projectId, customerId));
  if (erasure?.status !== 'IN_PROGRESS') return erasure;
  const key = erasureKey(projectId, customerId);
  if (!erasure.walkEndedAt) {
    const wait = Date.parse(erasure.createdAt) + ERASURE_SETTLE_MS - deps.clock.now().getTime();
    if (wait > 0) await sleep(wait, deps.signal);
    const subject = erasure;
    await runWalk(
      deps,
      {
        projectId,
        subjectKey: key,
        evaluate: ERASURE_PAGE,
        maxPasses: MAX_PASSES,
        what: `Erasure of customer ${customerId}`,
        plan: async (item) => planErasure(deps, subject, item),
        reread: async () => {
          const fresh = await getCustomerErasure(deps, projectId, customerId);
          return fresh?.status === 'IN_PROGRESS' && !fresh.walkEndedAt ? walkStateOf(fresh) : null;
        },
        // The walk's end is the file stage's start: the status stays IN_PROGRESS, the values it looks for stay.
        finish: async (state) => {
          const now = deps.clock.now().toISOString();
          await updateStatusWith(
            deps,
            entities.customerErasure,
            key,
            {
              set: 'SET walkEndedAt = :now, updatedAt = :now',
              condition: '#s = :open AND walkCursor = :end AND walkPass = :pass AND attribute_not_exists(walkEndedAt)',
              values: { ':open': 'IN_PROGRESS', ':end': WALK_END, ':pass': state.walkPass, ':now': now },
            },
            [],
            `The erasure of customer ${customerId} is busy`,
          );
        },
      },
      walkStateOf(erasure),
    );
    erasure = await getCustomerErasure(deps, projectId, customerId);
    if (erasure?.status !== 'IN_PROGRESS' || !erasure.walkEndedAt) return erasure;
  }
  const files = deps.files;
  if (!canRead(files)) throw new Error(`The erasure of customer ${customerId} reaches export files: it needs the export jobs worker's file store`);
  const { eraseExportFiles } = await fileStage;
  const ended = await eraseExportFiles({ ...deps, files }, erasure);
  if (!ended) return getCustomerErasure(deps, projectId, customerId);
  await updateStatusWith(
    deps,
    entities.customerErasure,
    key,
    {
      set: 'SET #s = :done, updatedAt = :now REMOVE walkCursor, walkPass, walkChanged, filesCursor, personal',
      condition: '#s = :open AND attribute_exists(walkEndedAt)',
      values: { ':done': 'DONE', ':open': 'IN_PROGRESS', ':now': deps.clock.now().toISOString() },
    },
    [openJobDelete(deps, projectId, customerId)],
    `The erasure of customer ${customerId} is busy`,
  );
  return getCustomerErasure(deps, projectId, customerId);
}
