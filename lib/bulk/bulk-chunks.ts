import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import type { BulkActionType } from '../async-actions/async-action.js';
import type { Customer } from '../customers/customer.js';
import { customerFieldsOf } from '../customers/customer.mapper.js';
import { newCustomerItems } from '../customers/customer.repo.js';
import type { CustomerInput } from '../customers/customer.schema.js';
import { newCustomerAmong, upsertCustomer } from '../customers/customer.service.js';
import { type BulkRow, customerSourceId, productSource } from '../db/entities.js';
import type { ItemKey } from '../db/entity.js';
import { MAX_TRANSACTION_ITEMS, RETRY, retryOnConflict, transact, type TransactItem } from '../db/transact.js';
import { AppError, ConflictRetryError } from '../errors.js';
import { enforceMetadata } from '../metadata-schemas/metadata-enforcement.js';
import { autoCollectionsOf, membershipWritesAmong, projectCollections } from '../product-collections/membership.js';
import { plainProduct, type StoredProduct } from '../products/product.js';
import { newProductItems, productCounterAdd } from '../products/product.repo.js';
import type { CreateProductBody } from '../products/product.schema.js';
import { createProduct, newProduct } from '../products/product.service.js';
import type { Runtime } from '../runtime.js';
import { projectSegments } from '../segments/segment-membership.js';

/*
 * Upserts of a whole chunk at once (products and customers by source id): the path that makes a
 * bulk job write at the table's pace instead of a request's. Per chunk: one BatchGetItem of the
 * source id reservations, one read of the project's AUTO_UPDATE collections or segments, then the
 * rows that make a new resource in as few transactions as fit (each row's reservation put if
 * absent and its items, the project's counters added once a transaction); the other rows (updates,
 * a source id taken meanwhile, a repeat of a source id within the chunk) go through the
 * single-request service, rows of distinct source ids side by side, rows of one source id in order.
 * A redelivered chunk finds its new rows reserved and applies them as updates that change nothing,
 * so each row is done once (docs/decisions.md "Bulk upserts a chunk at a time").
 */

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids' | 'metadataSchemaCache'>;

/** What a chunk came to: how many rows were applied, and each failed row with its error (row order). */
export interface ChunkOutcome {
  done: number;
  failed: { row: BulkRow; error: AppError }[];
  /** The chunk's checkpoint was written with its rows (or by another run): the caller writes none. */
  checkpointed: boolean;
}

/** Bulk action types whose chunks are applied by applyUpsertChunk. */
export const CHUNKED_TYPES: ReadonlySet<BulkActionType> = new Set([
  'PRODUCTS.IMPORT_CSV',
  'PRODUCTS.BULK_UPDATE',
  'CUSTOMERS.IMPORT_CSV',
  'CUSTOMERS.BULK_UPDATE',
]);

/** Rows of the per-row path applied at once (distinct source ids): enough to fill the table's round trips, few enough not to swamp it. */
const ROWS_AT_ONCE = 8;

const keyString = (k: ItemKey): string => `${k.PK}\u0000${k.SK}`;

/** Which of `keys` hold an item (strongly consistent BatchGetItem, 100 keys a call, unprocessed keys asked again). */
async function existingKeys(deps: Pick<Runtime, 'ddb' | 'tableName'>, keys: readonly ItemKey[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < keys.length; i += 100) {
    let pending: Record<string, unknown>[] = keys.slice(i, i + 100).map((k) => ({ PK: k.PK, SK: k.SK }));
    await retryOnConflict('Too many unprocessed reads of source ids', async () => {
      const res = await deps.ddb.send(
        new BatchGetCommand({ RequestItems: { [deps.tableName]: { Keys: pending, ConsistentRead: true, ProjectionExpression: 'PK, SK' } } }),
      );
      for (const item of res.Responses?.[deps.tableName] ?? []) found.add(keyString(item as unknown as ItemKey));
      pending = res.UnprocessedKeys?.[deps.tableName]?.Keys ?? [];
      return pending.length > 0 ? RETRY : undefined;
    });
  }
  return found;
}

/**
 * A row that makes a new resource: its position in the chunk; its own writes (the reservation
 * first when it has a source id, conditioned); its count adds (unconditioned `ADD #count :delta`,
 * merged with the other rows' adds on the same item: a transaction may name an item once).
 */
export interface NewRow {
  index: number;
  reserved: boolean;
  own: TransactItem[];
  adds: TransactItem[];
}

const isCountAdd = (item: TransactItem): boolean =>
  item.Update?.UpdateExpression?.includes('ADD #count :delta') === true && item.Update.ConditionExpression === undefined;

/** A new row of `items`: the count adds set apart from its own writes. */
export const newRow = (index: number, reserved: boolean, items: TransactItem[]): NewRow => ({
  index,
  reserved,
  own: items.filter((i) => !isCountAdd(i)),
  adds: items.filter(isCountAdd),
});

/** Count adds on one item summed into one. */
export function mergedAdds(adds: readonly TransactItem[]): TransactItem[] {
  const byKey = new Map<string, TransactItem>();
  for (const item of adds) {
    const u = item.Update;
    if (!u) continue;
    const key = keyString(u.Key as unknown as ItemKey);
    const seen = byKey.get(key)?.Update?.ExpressionAttributeValues;
    const delta = u.ExpressionAttributeValues?.[':delta'] as number;
    if (seen) seen[':delta'] = (seen[':delta'] as number) + delta;
    else byKey.set(key, { Update: { ...u, ExpressionAttributeValues: { ...u.ExpressionAttributeValues } } });
  }
  return [...byKey.values()];
}

/** What insertRows came to: rows whose reservation was taken meanwhile (updates now); whether the closing item was written, or was refused (`elsewhere`: another run counted the chunk). */
interface Inserted {
  taken: number[];
  closed: boolean | 'elsewhere';
}

/**
 * Writes the new rows, as many a transaction as fit, one transaction after another (they share
 * the counters), the rows' own writes first and their count adds (with `extra(pack)`) merged
 * after. `closing` (the chunk's checkpoint), when given, joins the last transaction as long as no
 * row turned into an update. A row whose reservation is taken meanwhile is left out and returned.
 * @throws ConflictRetryError, Error (an id taken: not a row's fault).
 */
async function insertRows(
  deps: Deps,
  rows: NewRow[],
  extra: (rows: NewRow[]) => TransactItem[],
  what: string,
  closing: (() => TransactItem) | null,
): Promise<Inserted> {
  const result: Inserted = { taken: [], closed: false };
  const sizeOf = (pack: NewRow[]) => pack.reduce((n, r) => n + r.own.length, 0) + mergedAdds([...pack.flatMap((r) => r.adds), ...extra(pack)]).length + 1;
  let rest = rows;
  while (rest.length > 0) {
    let pack: NewRow[] = [];
    for (const row of rest) {
      if (pack.length > 0 && sizeOf([...pack, row]) > MAX_TRANSACTION_ITEMS) break;
      pack.push(row);
    }
    rest = rest.slice(pack.length);
    await retryOnConflict(`Too many concurrent writes of ${what}`, async () => {
      const close = closing && rest.length === 0 && result.taken.length === 0 ? closing() : null;
      if (pack.length === 0 && !close) return undefined;
      const own = pack.flatMap((r) => r.own);
      const items = [...own, ...(pack.length > 0 ? mergedAdds([...pack.flatMap((r) => r.adds), ...extra(pack)]) : []), ...(close ? [close] : [])];
      const outcome = await transact(deps, items);
      if (outcome.ok) {
        if (close) result.closed = true;
        return undefined;
      }
      if (!('failed' in outcome)) return RETRY;
      if (close && outcome.failed.includes(items.length - 1)) {
        result.closed = 'elsewhere';
        return undefined;
      }
      // A failed reservation (a row's first own item) moves its row to the updates; anything else is not a row's doing.
      const lost = new Set<number>();
      let at = 0;
      for (const r of pack) {
        for (const f of outcome.failed)
          if (f >= at && f < at + r.own.length && (f !== at || !r.reserved)) throw new Error(`A new ${what} could not be written: its id is taken`);
        if (r.reserved && outcome.failed.includes(at)) lost.add(r.index);
        at += r.own.length;
      }
      result.taken.push(...lost);
      pack = pack.filter((r) => !lost.has(r.index));
      return RETRY;
    });
    if (result.closed === 'elsewhere') return result;
  }
  return result;
}

/**
 * The new rows in groups that share no count item (rows that add to one item, e.g. one customer
 * count shard, stay in one group), small groups joined up to a transaction's size: the groups'
 * transactions can run side by side without cancelling each other.
 */
export function independentGroups(rows: readonly NewRow[]): NewRow[][] {
  const components: { rows: NewRow[]; keys: Set<string> }[] = [];
  for (const row of rows) {
    const keys = new Set(row.adds.map((a) => keyString(a.Update?.Key as unknown as ItemKey)));
    const joined = { rows: [row], keys };
    for (let i = components.length - 1; i >= 0; i -= 1) {
      const c = components[i];
      if (c && [...c.keys].some((k) => keys.has(k))) {
        joined.rows.unshift(...c.rows);
        for (const k of c.keys) joined.keys.add(k);
        components.splice(i, 1);
      }
    }
    components.push(joined);
  }
  const groups: { rows: NewRow[]; size: number }[] = [];
  for (const c of components) {
    const size = c.rows.reduce((n, r) => n + r.own.length, 0) + c.keys.size;
    const fit = groups.find((g) => g.size + size < MAX_TRANSACTION_ITEMS);
    if (fit) {
      fit.rows.push(...c.rows);
      fit.size += size;
    } else groups.push({ rows: [...c.rows], size });
  }
  return groups.map((g) => g.rows.sort((a, b) => a.index - b.index));
}

/** Runs `apply` on the rows of `indexes`: rows of one key one after another in chunk order, keys side by side (ROWS_AT_ONCE). */
async function byKey(indexes: readonly number[], keyOf: (index: number) => string, apply: (index: number) => Promise<void>): Promise<void> {
  const lanes = new Map<string, number[]>();
  for (const i of indexes) {
    const k = keyOf(i);
    lanes.set(k, [...(lanes.get(k) ?? []), i]);
  }
  const queue = [...lanes.values()];
  const worker = async () => {
    for (let lane = queue.shift(); lane; lane = queue.shift()) for (const i of lane) await apply(i);
  };
  await Promise.all(Array.from({ length: Math.min(ROWS_AT_ONCE, queue.length) }, worker));
}

/** Records a row's failure (an AppError that is not a lost race); anything else propagates (transient: the chunk runs again). */
function rowFailure(outcome: ChunkOutcome, row: BulkRow, error: unknown): void {
  if (!(error instanceof AppError) || error instanceof ConflictRetryError) throw error;
  outcome.failed.push({ row, error });
}

/**
 * Applies a chunk of product or customer upserts (CHUNKED_TYPES). Every row obeys what the
 * single request does (metadata schema, `id` must exist, one resource per source id). When every
 * row makes a new resource, `checkpoint` (the chunk's, given the outcome) is written in the
 * transaction of the last rows: one round trip less a chunk.
 * @throws ConflictRetryError, Error: transient (the chunk is applied again, its rows as updates).
 */
export async function applyUpsertChunk(
  deps: Deps,
  projectId: string,
  type: BulkActionType,
  rows: readonly BulkRow[],
  checkpoint?: (outcome: ChunkOutcome) => TransactItem,
): Promise<ChunkOutcome> {
  const outcome: ChunkOutcome = { done: 0, failed: [], checkpointed: false };
  const products = type === 'PRODUCTS.IMPORT_CSV' || type === 'PRODUCTS.BULK_UPDATE';
  const object = products ? 'product' : 'customer';
  const bodies = rows.map((r) => r.body as { id?: string; source_id?: string; metadata?: Record<string, unknown> | null });
  const sourceKey = (sourceId: string) => (products ? productSource.key(projectId, sourceId) : customerSourceId.key(projectId, sourceId));
  const candidates = bodies.flatMap((b, i) => (b.id === undefined ? [i] : []));
  const [checked, reserved, collections, segments] = await Promise.all([
    Promise.all(
      bodies.map((b) =>
        enforceMetadata(deps, projectId, object, b.metadata ?? undefined).then(
          () => null,
          (error: unknown) => error,
        ),
      ),
    ),
    existingKeys(deps, [...new Set(candidates.flatMap((i) => (bodies[i]?.source_id !== undefined ? [bodies[i].source_id] : [])))].map(sourceKey)),
    products ? projectCollections(deps, projectId) : null,
    products ? null : projectSegments(deps, projectId),
  ]);
  const failedAt = new Map<number, unknown>();
  for (const [i, error] of checked.entries()) if (error !== null) failedAt.set(i, error);

  // The first row of each source id not reserved yet makes the resource; rows without either make one each (as the single request).
  const firstOf = new Set<string>();
  const fresh: NewRow[] = [];
  const autos = collections ? autoCollectionsOf(collections) : [];
  for (const i of candidates) {
    const body = bodies[i];
    if (!body || failedAt.has(i)) continue;
    const sourceId = body.source_id;
    if (sourceId !== undefined && (reserved.has(keyString(sourceKey(sourceId))) || firstOf.has(sourceId))) continue;
    if (sourceId !== undefined) firstOf.add(sourceId);
    if (products) {
      const { id: _id, source_id: _s, ...fields } = body as CreateProductBody;
      const p: StoredProduct = newProduct(deps, sourceId ?? null, fields);
      const items = [...newProductItems(deps, projectId, p), ...membershipWritesAmong(deps, projectId, autos, null, plainProduct(p), p.createdAt)];
      fresh.push(newRow(i, sourceId !== undefined, items));
    } else {
      const c: Customer = newCustomerAmong(deps, projectId, sourceId ?? null, customerFieldsOf(body as CustomerInput), segments ?? []);
      fresh.push(newRow(i, sourceId !== undefined, newCustomerItems(deps, c, deps.ids.id('act'))));
    }
  }
  const counters = (pack: NewRow[]): TransactItem[] => (products ? [productCounterAdd(deps, projectId, pack.length)] : []);
  // Every row makes a new resource (or failed its check): the checkpoint can go with the last of their writes.
  const allNew = fresh.length > 0 && fresh.length + failedAt.size === rows.length;
  const early = [...failedAt.entries()].sort((a, b) => a[0] - b[0]);
  // Products share the project's counter: one transaction after another. Customers' count shards part them into groups written side by side.
  const groups = products ? [fresh] : independentGroups(fresh);
  const closing =
    checkpoint && allNew && groups.length === 1
      ? () => checkpoint({ done: fresh.length, failed: early.map(([i, error]) => ({ row: rows[i] as BulkRow, error: error as AppError })), checkpointed: true })
      : null;
  if (closing) for (const [i, error] of early) rowFailure({ done: 0, failed: [], checkpointed: false }, rows[i] as BulkRow, error);
  const written = await Promise.all(groups.map((group) => insertRows(deps, group, counters, `${object}s of project ${projectId}`, closing)));
  if (written.some((w) => w.closed === 'elsewhere')) return { done: 0, failed: [], checkpointed: true };
  const taken = new Set(written.flatMap((w) => w.taken));
  const inserted = new Set(fresh.map((r) => r.index).filter((i) => !taken.has(i)));
  outcome.done += inserted.size;
  outcome.checkpointed = written.some((w) => w.closed === true);

  const others = rows.flatMap((_, i) => (inserted.has(i) || failedAt.has(i) ? [] : [i]));
  // A row naming an `id` may name the resource another row names by source id: with any such row, all go in file order.
  const byId = others.some((i) => bodies[i]?.id !== undefined);
  const keyOf = (i: number) => {
    const b = bodies[i];
    return byId ? 'in order' : b?.source_id !== undefined ? `source:${b.source_id}` : `row:${i}`;
  };
  await byKey(others, keyOf, async (i) => {
    const row = rows[i] as BulkRow;
    try {
      if (products) await createProduct(deps, projectId, row.body as CreateProductBody);
      else await upsertCustomer(deps, projectId, row.body as CustomerInput);
      outcome.done += 1;
    } catch (error) {
      failedAt.set(i, error);
    }
  });
  for (const [i, error] of [...failedAt.entries()].sort((a, b) => a[0] - b[0])) rowFailure(outcome, rows[i] as BulkRow, error);
  return outcome;
}
