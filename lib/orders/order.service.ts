import { util } from '../builtins.js';
import { upsertCustomer } from '../customers/customer.service.js';
import { MAX_ORDER_BYTES, storedBytes } from '../db/item-size.js';
import { RETRY, retryOnConflict } from '../db/transact.js';
import { DuplicateError, InvalidPayloadError, NotFoundError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { enforceMetadata } from '../metadata-schemas/metadata-enforcement.js';
import { orderLoyaltyEffects } from '../loyalties/order-earning.service.js';
import { markLoyaltyDue, type Order } from './order.js';
import { itemsAmount, orderItemOf } from './order-lines.js';
import { lineRefOf, withCatalog } from './order-catalog.js';
import { readCatalog } from './order-catalog.repo.js';
import * as repo from './order.repo.js';
import type { CreateOrderBody, ListOrdersQuery, UpdateOrderBody } from './order.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;
type Reads = Pick<Runtime, 'ddb' | 'tableName'>;

/** The fields of an order a request may change. */
type OrderFields = Partial<Pick<Order, 'status' | 'amount' | 'items' | 'metadata' | 'customerId' | 'referrerId'>>;

/**
 * What a request sets, as stored fields. `items` sent replace the lines; `amount` is the one sent,
 * else (when lines are sent) their sum, else unchanged. The customer is upserted as a publication's
 * is (by id, or by source id created on first use), and so is a `referrer` object.
 * @throws InvalidPayloadError for inconsistent line figures; NotFoundError for an unknown customer id.
 */
async function fieldsOf(deps: Deps, projectId: string, body: UpdateOrderBody): Promise<OrderFields> {
  const lines = body.items?.map(orderItemOf);
  const catalog = lines ? await readCatalog(deps, projectId, lines.map(lineRefOf)) : null;
  const items = lines && catalog ? lines.map((i, n) => withCatalog(i, catalog, n)) : undefined;
  const amount = body.amount ?? (items ? itemsAmount(items) : undefined);
  if (body.referrer !== undefined && body.referrer_id !== undefined)
    throw new InvalidPayloadError('Property .referrer and .referrer_id name the referrer twice: send one');
  const customer = body.customer ? await upsertCustomer(deps, projectId, body.customer) : undefined;
  const referrer = body.referrer ? await upsertCustomer(deps, projectId, body.referrer) : undefined;
  const referrerId = referrer !== undefined ? referrer.id : body.referrer_id;
  return {
    ...(body.status !== undefined ? { status: body.status } : {}),
    ...(amount !== undefined ? { amount } : {}),
    ...(items !== undefined ? { items } : {}),
    ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
    ...(customer !== undefined ? { customerId: customer.id } : {}),
    ...(referrerId !== undefined ? { referrerId } : {}),
  };
}

/** Refuses an order (or the request that makes one) too large to store with room for its redemptions (docs/decisions.md "Stored size bounds"). */
function checkStoredSize(order: Order | Omit<CreateOrderBody, 'id'>): void {
  const bytes = storedBytes(order);
  if (bytes > MAX_ORDER_BYTES)
    throw new InvalidPayloadError(
      `The order would take ${bytes} bytes stored, over the ${MAX_ORDER_BYTES} an order may hold: send fewer or shorter items or metadata`,
    );
}

/**
 * Sets `wanted` on the order, from the copy `read`: a write that holds only if the order is still
 * as read (its revision). A lost race reads it again and re-applies. Nothing that differs: no write.
 * @throws NotFoundError (order, named `ref`) when it is gone meanwhile.
 */
async function applyChanges(deps: Deps, read: Order, wanted: OrderFields, ref: string = read.id): Promise<Order> {
  let current: Order | null = read;
  let before: Order | null = null;
  const written = await retryOnConflict(`Too many concurrent writes of order ${read.id}`, async (attempt) => {
    if (attempt > 0) current = await repo.getOrder(deps, read.projectId, read.id);
    if (!current) throw new NotFoundError('order', ref);
    const from = current;
    const diff = Object.fromEntries(Object.entries(wanted).filter(([k, v]) => !util().isDeepStrictEqual(from[k as keyof Order], v)));
    if (Object.keys(diff).length === 0) return current;
    const at = deps.clock.now().toISOString();
    const next = markLoyaltyDue(current, { ...current, ...diff, updatedAt: at, revision: current.revision + 1 }, at);
    checkStoredSize(next);
    if (!(await repo.replaceOrder(deps, current, next))) return RETRY;
    before = from;
    return next;
  });
  return afterStatusChange(deps, before, written);
}

/**
 * The loyalty effects of the write that moved an order from `before` (null: a new order, or no
 * write) to `after`: becoming PAID earns by the `order.paid` rules, becoming CANCELED takes back
 * what it earned. Each is once per order however many writes race (order-earning.service.ts), so
 * only the writer that changed the status runs it; and each commits only while the stored order
 * still has that status. When a later write moved it meanwhile (PAID ‖ CANCELED), this request's
 * effects stop and it replies with the order as stored, whose status the card then agrees with.
 * @returns the order to reply with.
 */
async function afterStatusChange(deps: Deps, before: Order | null, after: Order, created = false): Promise<Order> {
  if (!created && (before === null || before.status === after.status)) return after;
  const outcome = await orderLoyaltyEffects(deps, after);
  if (!outcome.superseded) return after;
  return (await repo.getOrder(deps, after.projectId, after.id)) ?? after;
}

async function bySourceId(deps: Reads, projectId: string, sourceId: string): Promise<Order | null> {
  const id = await repo.getOrderIdBySourceId(deps, projectId, sourceId);
  return id ? repo.getOrder(deps, projectId, id) : null;
}

/** The order a path names by id or source id; its id wins over another order's equal source id. */
async function findOrder(deps: Reads, projectId: string, ref: string): Promise<Order | null> {
  const [byId, bySource] = await Promise.all([repo.getOrder(deps, projectId, ref), bySourceId(deps, projectId, ref)]);
  return byId ?? bySource;
}

/**
 * GET /v1/orders/{orderId}: an order by id or source id.
 * @throws NotFoundError (order).
 */
export async function getOrder(deps: Reads, projectId: string, ref: string): Promise<Order> {
  const found = await findOrder(deps, projectId, ref);
  if (!found) throw new NotFoundError('order', ref);
  return found;
}

/**
 * POST /v1/orders: a new order, or (Voucherify's upsert mode) the order an `id` or a known
 * `source_id` names, with the fields sent set on it. One order per source id however many
 * requests race for it: the source id claim is conditional, and the losers update the winner's.
 * @throws NotFoundError (order) for an unknown `id`, (customer) for an unknown customer id;
 *   InvalidPayloadError for inconsistent line figures or a `source_id` other than the order's.
 */
export async function createOrder(deps: Deps & Pick<Runtime, 'metadataSchemaCache'>, projectId: string, body: CreateOrderBody): Promise<Order> {
  // An upsert: metadata sent replaces the order's, none sent keeps it, so only what is sent is checked.
  await enforceMetadata(deps, projectId, 'order', body.metadata);
  const { id, ...rest } = body;
  // The request's own size first: an order refused for its size must not leave its customer upserted.
  checkStoredSize(rest);
  if (id !== undefined) {
    // Checked before the customer is upserted, so that a refused request writes nothing.
    const existing = await repo.getOrder(deps, projectId, id);
    if (!existing) throw new NotFoundError('order', id);
    if (body.source_id !== undefined && body.source_id !== existing.sourceId) {
      throw new InvalidPayloadError(`Property .source_id cannot be changed: the order's source_id is ${JSON.stringify(existing.sourceId)}`);
    }
    return applyChanges(deps, existing, await fieldsOf(deps, projectId, rest));
  }
  const fields = await fieldsOf(deps, projectId, rest);
  const sourceId = body.source_id ?? null;
  if (sourceId !== null) {
    const existing = await bySourceId(deps, projectId, sourceId);
    if (existing) return applyChanges(deps, existing, fields);
  }
  const createdAt = deps.clock.now().toISOString();
  const unmarked: Order = {
    id: deps.ids.id('ord'),
    projectId,
    sourceId,
    status: 'CREATED',
    amount: 0,
    items: [],
    metadata: {},
    customerId: null,
    referrerId: null,
    ...fields,
    createdAt,
    updatedAt: null,
    revision: 0,
  };
  const order = markLoyaltyDue(null, unmarked, createdAt);
  checkStoredSize(order);
  if (await repo.insertOrder(deps, order)) return afterStatusChange(deps, null, order, true);
  const winner = sourceId === null ? null : await bySourceId(deps, projectId, sourceId);
  if (!winner) throw new Error(`Order with source id ${sourceId} was claimed but cannot be read`);
  return applyChanges(deps, winner, fields);
}

/** The order a row of an import made: the one stored under its minted id; a source id another order holds is a failure. */
async function importedOrder(deps: Reads, projectId: string, id: string, sourceId: string | null): Promise<Order | null> {
  const stored = await repo.getOrder(deps, projectId, id);
  if (stored) return stored;
  const holder = sourceId === null ? null : await repo.getOrderIdBySourceId(deps, projectId, sourceId);
  if (holder !== null && holder !== id) throw new DuplicateError('order', `An order with source_id ${JSON.stringify(sourceId)} already exists`, holder);
  return null;
}

/**
 * One order of POST /v1/orders/import (a row of the ORDERS.IMPORT bulk action): stored with its
 * list entry, count and source id claim as POST /v1/orders stores a new one, its customer and
 * referrer upserted, but with **no effects**: not marked for loyalty (a PAID import earns nothing,
 * now or by the sweep) and no event (the reference: an import stores no events). `id` was minted
 * when the request was accepted, so a redelivered row finds its own order and writes nothing more;
 * a `source_id` any other order holds (stored before, or an earlier row of the same request) is
 * the row's failure, never an update.
 * @throws DuplicateError (source id taken), InvalidPayloadError, NotFoundError, MetadataValidationError: the row's failure.
 */
export async function importOrder(deps: Deps & Pick<Runtime, 'metadataSchemaCache'>, projectId: string, id: string, body: UpdateOrderBody): Promise<Order> {
  await enforceMetadata(deps, projectId, 'order', body.metadata);
  checkStoredSize(body);
  const sourceId = body.source_id ?? null;
  const before = await importedOrder(deps, projectId, id, sourceId);
  if (before) return before;
  const fields = await fieldsOf(deps, projectId, body);
  const createdAt = deps.clock.now().toISOString();
  const order: Order = {
    id,
    projectId,
    sourceId,
    status: 'CREATED',
    amount: 0,
    items: [],
    metadata: {},
    customerId: null,
    referrerId: null,
    ...fields,
    createdAt,
    updatedAt: null,
    revision: 0,
  };
  checkStoredSize(order);
  let inserted: boolean;
  try {
    inserted = await repo.insertOrder(deps, order);
  } catch (error) {
    // A redelivery running at once inserted this row's order first (its id is taken).
    const stored = await repo.getOrder(deps, projectId, id);
    if (stored) return stored;
    throw error;
  }
  if (inserted) return order;
  const after = await importedOrder(deps, projectId, id, sourceId);
  if (!after) throw new Error(`Order with source id ${sourceId} was claimed but cannot be read`);
  return after;
}

/**
 * PUT /v1/orders/{orderId}: sets the fields sent on the order an id or source id names; the others
 * stay (`items` and `metadata` are replaced as a whole). Nothing that differs: no write.
 * @throws NotFoundError (order, customer); InvalidPayloadError for a `source_id` other than the order's.
 */
export async function updateOrder(deps: Deps & Pick<Runtime, 'metadataSchemaCache'>, projectId: string, ref: string, body: UpdateOrderBody): Promise<Order> {
  await enforceMetadata(deps, projectId, 'order', body.metadata);
  const found = await findOrder(deps, projectId, ref);
  if (!found) throw new NotFoundError('order', ref);
  if (body.source_id !== undefined && body.source_id !== found.sourceId) {
    throw new InvalidPayloadError(`Property .source_id cannot be changed: the order's source_id is ${JSON.stringify(found.sourceId)}`);
  }
  return applyChanges(deps, found, await fieldsOf(deps, projectId, body), ref);
}

/** One page of GET /v1/orders. */
export interface OrderPage {
  orders: Order[];
  /** Every order of the project (the count shards' sum). */
  total: number;
  hasMore: boolean;
}

/**
 * GET /v1/orders: one page of the project's orders, by creation (the list partition, strongly
 * consistent) or last change (its GSI1, eventually consistent); `total` counts all the project's orders.
 */
export async function listOrders(deps: Reads, projectId: string, q: ListOrdersQuery): Promise<OrderPage> {
  const ascending = !q.order.startsWith('-');
  const by = q.order.endsWith('updated_at') ? 'updated' : 'created';
  const [page, total] = await Promise.all([
    repo.listOrderIds(deps, projectId, { by, ascending }, (q.page - 1) * q.limit, q.limit),
    repo.countOrders(deps, projectId),
  ]);
  return { orders: await repo.getOrders(deps, projectId, page.ids), total, hasMore: page.hasMore };
}
