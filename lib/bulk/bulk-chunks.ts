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

/** A row that makes a new resource: its position in the chunk, its writes (the reservation first, when it has a source id). */
interface NewRow {
  index: number;
  reserved: boolean;
  items: TransactItem[];
}

/**
 * Count adds (`ADD #count :delta`) on one item merged into one (a transaction may name an item
 * once): customers of one transaction often share a count shard.
 */
function mergedCounts(items: readonly TransactItem[]): TransactItem[] {
  const out: TransactItem[] = [];
  const adds = new Map<string, TransactItem>();
  for (const item of items) {
    const u = item.Update;
    if (!u?.UpdateExpression?.includes('ADD #count :delta') || u.ConditionExpression !== undefined) {
      out.push(item);
      continue;
    }
    const key = keyString(u.Key as unknown as ItemKey);
    const seen = adds.get(key)?.Update;
    if (seen?.ExpressionAttributeValues) {
      seen.ExpressionAttributeValues[':delta'] = (seen.ExpressionAttributeValues[':delta'] as number) + (u.ExpressionAttributeValues?.[':delta'] as number);
      continue;
    }
    const copy: TransactItem = { Update: { ...u, ExpressionAttributeValues: { ...u.ExpressionAttributeValues } } };
    adds.set(key, copy);
    out.push(copy);
  }
  return out;
}

/**
 * Writes the new rows, as many a transaction as fit with `extra(rows)` (the counters), one
 * transaction after another (they share the counters). A row whose reservation is taken
 * meanwhile is left out and returned: it is an update now.
 * @throws ConflictRetryError, Error (an id taken: not a row's fault).
 */
async function insertRows(deps: Deps, rows: NewRow[], extra: (rows: NewRow[]) => TransactItem[], what: string): Promise<number[]> {
  const taken: number[] = [];
  let rest = rows;
  while (rest.length > 0) {
    let pack: NewRow[] = [];
    let size = 0;
    for (const row of rest) {
      // Room for the counters: one per transaction for products, at most one a view's shard for customers (merged).
      if (pack.length > 0 && size + row.items.length + extra([...pack, row]).length > MAX_TRANSACTION_ITEMS) break;
      pack.push(row);
      size += row.items.length;
    }
    rest = rest.slice(pack.length);
    await retryOnConflict(`Too many concurrent writes of ${what}`, async () => {
      if (pack.length === 0) return undefined;
      const items = mergedCounts([...pack.flatMap((r) => r.items), ...extra(pack)]);
      const outcome = await transact(deps, items);
      if (outcome.ok) return undefined;
      if (!('failed' in outcome)) return RETRY;
      // Map failed conditions back to their rows: a reservation taken moves its row to the updates; anything else is not a row's doing.
      const starts: number[] = [];
      let at = 0;
      for (const r of pack) {
        starts.push(at);
        at += r.items.length;
      }
      const lost = new Set<number>();
      for (const f of outcome.failed) {
        const i = starts.findIndex((s, k) => f >= s && f < s + (pack[k]?.items.length ?? 0));
        const row = pack[i];
        if (!row?.reserved || f !== starts[i]) throw new Error(`A new ${what} could not be written: its id is taken`);
        lost.add(row.index);
      }
      taken.push(...lost);
      pack = pack.filter((r) => !lost.has(r.index));
      return RETRY;
    });
  }
  return taken;
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
 * single request does (metadata schema, `id` must exist, one resource per source id).
 * @throws ConflictRetryError, Error: transient (the chunk is applied again, its rows as updates).
 */
export async function applyUpsertChunk(deps: Deps, projectId: string, type: BulkActionType, rows: readonly BulkRow[]): Promise<ChunkOutcome> {
  const outcome: ChunkOutcome = { done: 0, failed: [] };
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
      fresh.push({ index: i, reserved: sourceId !== undefined, items });
    } else {
      const c: Customer = newCustomerAmong(deps, projectId, sourceId ?? null, customerFieldsOf(body as CustomerInput), segments ?? []);
      fresh.push({ index: i, reserved: sourceId !== undefined, items: newCustomerItems(deps, c, deps.ids.id('act')) });
    }
  }
  const counters = (pack: NewRow[]): TransactItem[] => (products ? [productCounterAdd(deps, projectId, pack.length)] : []);
  // A customer's count adds are in its own items (sharded by its id); merged per transaction by mergedCounts.
  const taken = new Set(await insertRows(deps, fresh, counters, `${object}s of project ${projectId}`));
  const inserted = new Set(fresh.map((r) => r.index).filter((i) => !taken.has(i)));
  outcome.done += inserted.size;

  const others = rows.flatMap((_, i) => (inserted.has(i) || failedAt.has(i) ? [] : [i]));
  const keyOf = (i: number) => {
    const b = bodies[i];
    return b?.id !== undefined ? `id:${b.id}` : b?.source_id !== undefined ? `source:${b.source_id}` : `row:${i}`;
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
