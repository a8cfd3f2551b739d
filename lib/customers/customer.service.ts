import { util } from '../builtins.js';
import { RETRY, retryOnConflict } from '../db/transact.js';
import { InvalidPayloadError, InvalidQueryParamsError, NotFoundError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { enforceMetadata } from '../metadata-schemas/metadata-enforcement.js';
import type { Customer, CustomerFields, CustomerLoyaltyCard, CustomerRedemptionSummary } from './customer.js';
import { heldLoyaltyCards } from '../vouchers/voucher-holder.repo.js';
import { membershipOf, projectSegments } from '../segments/segment-membership.js';
import type { Segment } from '../segments/segment.js';
import { customerFieldsOf } from './customer.mapper.js';
import * as repo from './customer.repo.js';
import { ALL_CUSTOMERS, type ViewField, viewOf } from './customer-views.js';
import type { CreateCustomerBody, CustomerInput, ListCustomersQuery, UpdateCustomerBody } from './customer.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;
/** A direct write of customers: also checks the metadata sent against the project's customer metadata schema. */
type DirectWriteDeps = Deps & Pick<Runtime, 'metadataSchemaCache'>;

// Key order is not compared: DynamoDB maps come back in an order of their own.
const same = (a: unknown, b: unknown): boolean => util().isDeepStrictEqual(a, b);

/** Fields of `wanted` whose value differs from the customer's. */
function changes(customer: Customer, wanted: CustomerFields): CustomerFields {
  return Object.fromEntries(Object.entries(wanted).filter(([k, v]) => !same(customer[k as keyof Customer], v))) as CustomerFields;
}

/**
 * Sets `wanted` on the customer, from the copy `read`: one transaction that holds only if the
 * customer is still as read (its revision), moving its list entries and counts with it. A lost
 * race reads the customer again and re-applies. Nothing that differs: no write.
 * @throws NotFoundError (customer, named `ref`) when it is deleted meanwhile.
 */
async function applyChanges(deps: Deps, read: Customer, wanted: CustomerFields, ref: string = read.id): Promise<Customer> {
  let current: Customer | null = read;
  let segments: Awaited<ReturnType<typeof projectSegments>> | undefined;
  return retryOnConflict(`Too many concurrent writes of customer ${read.id}`, async (attempt) => {
    if (attempt > 0) current = await repo.getCustomer(deps, read.projectId, read.id);
    if (!current) throw new NotFoundError('customer', ref);
    const diff = changes(current, wanted);
    if (Object.keys(diff).length === 0) return current;
    segments ??= await projectSegments(deps, read.projectId);
    const next: Customer = { ...current, ...diff, updatedAt: deps.clock.now().toISOString(), revision: current.revision + 1, listed: true };
    next.segmentIds = membershipOf(next, segments);
    return (await repo.replaceCustomer(deps, current, next, deps.ids.id('act'))) ? next : RETRY;
  });
}

async function bySourceId(deps: Pick<Runtime, 'ddb' | 'tableName'>, projectId: string, sourceId: string): Promise<Customer | null> {
  const id = await repo.getCustomerIdBySourceId(deps, projectId, sourceId);
  return id ? repo.getCustomer(deps, projectId, id) : null;
}

/**
 * The customer a path names by `id` or `source_id`. Both are looked up at once; a customer whose
 * id it is wins over one whose source id it is (ids are the server's, `cust_` + 24 characters).
 */
export async function findCustomer(deps: Pick<Runtime, 'ddb' | 'tableName'>, projectId: string, ref: string): Promise<Customer | null> {
  const [byId, bySource] = await Promise.all([repo.getCustomer(deps, projectId, ref), bySourceId(deps, projectId, ref)]);
  return byId ?? bySource;
}

/**
 * GET /v1/customers/{customerId}: a customer by id or source id, with their redemption summary and
 * the loyalty cards they hold (the `loyalty` summary; read from the holder index, so a card joined
 * a moment ago may show a moment later).
 * @throws NotFoundError (customer).
 */
export async function getCustomer(
  deps: Pick<Runtime, 'ddb' | 'tableName'>,
  projectId: string,
  ref: string,
): Promise<Customer & { redemptionSummary: CustomerRedemptionSummary; loyaltyCards: CustomerLoyaltyCard[] }> {
  const customer = await findCustomer(deps, projectId, ref);
  if (!customer) throw new NotFoundError('customer', ref);
  const [redemptionSummary, cards] = await Promise.all([
    repo.getRedemptionSummary(deps, projectId, customer.id),
    heldLoyaltyCards(deps, projectId, customer.id),
  ]);
  const loyaltyCards = cards.flatMap((v) => (v.loyaltyCard ? [{ campaignName: v.campaignName ?? v.campaignId ?? '', balance: v.loyaltyCard.balance }] : []));
  return { ...customer, redemptionSummary, loyaltyCards };
}

/** A new customer of `sourceId` (null: anonymous) with the fields sent and the auto-update segments it passes, not written yet. */
async function newCustomer(deps: Deps, projectId: string, sourceId: string | null, fields: CustomerFields): Promise<Customer> {
  return newCustomerAmong(deps, projectId, sourceId, fields, await projectSegments(deps, projectId));
}

/** As newCustomer, with the project's segments already read (a bulk chunk reads them once for its rows). */
export function newCustomerAmong(deps: Deps, projectId: string, sourceId: string | null, fields: CustomerFields, segments: readonly Segment[]): Customer {
  const customer: Customer = {
    id: deps.ids.id('cust'),
    projectId,
    sourceId,
    name: null,
    email: null,
    description: null,
    phone: null,
    birthdate: null,
    address: null,
    metadata: {},
    ...fields,
    createdAt: deps.clock.now().toISOString(),
    updatedAt: null,
    revision: 0,
    listed: true,
  };
  const segmentIds = membershipOf(customer, segments);
  return segmentIds.length > 0 ? { ...customer, segmentIds } : customer;
}

/**
 * The customer a request names, created or updated as Voucherify does: by `id` (which must exist;
 * `source_id` is then ignored), else by `source_id`, created on first use. The other fields sent
 * replace the stored ones. A new source id yields one customer however many requests race for it:
 * the creating write is conditional, and the losers read the winner's customer back. With neither,
 * every request creates a new customer without a source id: nothing names it to merge it into
 * another (not its email either, which Voucherify does not treat as unique).
 * @throws NotFoundError (customer) for an unknown `id`.
 */
export async function upsertCustomer(deps: Deps, projectId: string, input: CustomerInput): Promise<Customer> {
  const fields = customerFieldsOf(input);
  if (input.id !== undefined) {
    const existing = await repo.getCustomer(deps, projectId, input.id);
    if (!existing) throw new NotFoundError('customer', input.id);
    return applyChanges(deps, existing, fields);
  }
  const sourceId = input.source_id;
  if (sourceId === undefined) {
    const anonymous = await newCustomer(deps, projectId, null, fields);
    if (!(await repo.insertCustomer(deps, anonymous, deps.ids.id('act')))) throw new Error(`Customer id ${anonymous.id} is already taken`);
    return anonymous;
  }
  const existing = await bySourceId(deps, projectId, sourceId);
  if (existing) return applyChanges(deps, existing, fields);
  const customer = await newCustomer(deps, projectId, sourceId, fields);
  if (await repo.insertCustomer(deps, customer, deps.ids.id('act'))) return customer;
  const winner = await bySourceId(deps, projectId, sourceId);
  if (!winner) throw new Error(`Customer with source id ${sourceId} was claimed but cannot be read`);
  return applyChanges(deps, winner, fields);
}

/**
 * POST /v1/customers: creates the customer of a new `source_id`, or updates the customer an `id`
 * or a known `source_id` names with the fields sent (Voucherify's upsert); with neither, creates a
 * new customer without a source id. One customer per source id however many requests race for it.
 * The metadata sent is checked against the project's customer metadata schema first.
 * @throws NotFoundError (customer) for an unknown `id`; MetadataValidationError.
 */
export async function createCustomer(deps: DirectWriteDeps, projectId: string, body: CreateCustomerBody): Promise<Customer> {
  await enforceMetadata(deps, projectId, 'customer', body.metadata);
  return upsertCustomer(deps, projectId, body);
}

/**
 * PUT /v1/customers/{customerId}: sets the fields sent on the customer an id or source id names;
 * the others stay (`metadata` is replaced as a whole). Nothing sent that differs: no write, and
 * `updated_at` stays.
 * @throws NotFoundError (customer); InvalidPayloadError for a `source_id` other than the customer's; MetadataValidationError.
 */
export async function updateCustomer(deps: DirectWriteDeps, projectId: string, ref: string, body: UpdateCustomerBody): Promise<Customer> {
  await enforceMetadata(deps, projectId, 'customer', body.metadata);
  const customer = await findCustomer(deps, projectId, ref);
  if (!customer) throw new NotFoundError('customer', ref);
  const { source_id: sourceId, ...fields } = body;
  if (sourceId !== undefined && sourceId !== customer.sourceId) {
    throw new InvalidPayloadError(`Property .source_id cannot be changed: the customer's source_id is ${JSON.stringify(customer.sourceId)}`);
  }
  return applyChanges(deps, customer, customerFieldsOf(fields), ref);
}

/**
 * DELETE /v1/customers/{customerId}: removes the customer an id or source id names and frees its
 * source id (a later request with it creates a new customer). What the customer did and was given
 * stays: its events, the vouchers published to it (their `holder_id` still names it) and its
 * referral conversions.
 * @throws NotFoundError (customer), also to all but one of concurrent deletes.
 */
export async function deleteCustomer(deps: Pick<Runtime, 'ddb' | 'tableName'>, projectId: string, ref: string): Promise<void> {
  const found = await findCustomer(deps, projectId, ref);
  if (!found) throw new NotFoundError('customer', ref);
  // A change meanwhile may have moved its list entries: read it again and delete what is there now.
  await retryOnConflict(`Too many concurrent writes of customer ${found.id}`, async (attempt) => {
    const current = attempt === 0 ? found : await repo.getCustomer(deps, projectId, found.id);
    if (!current) throw new NotFoundError('customer', ref);
    return (await repo.deleteCustomer(deps, current)) ? current : RETRY;
  });
}

/** One page of GET /v1/customers. */
export interface CustomerPage {
  customers: Customer[];
  /** The customers of the view read (all, or those of the email, city or name given); date bounds do not narrow it. */
  total: number;
  hasMore: boolean;
}

const VIEW_FIELDS: readonly ViewField[] = ['email', 'city', 'name'];

/**
 * The sort key range of the dates after `after` and before `before` (both excluded), in a
 * partition sorted by `<ISO date>#<customerId>`: `<after>$` sorts after every key of that instant
 * (`$` follows `#`), and `<before>` before every key of its instant. Null when the range is empty.
 */
function dateRange(after: string | undefined, before: string | undefined): { from?: string; to?: string } | null {
  if (after !== undefined && before !== undefined && after >= before) return null;
  return { ...(after !== undefined ? { from: `${after}$` } : {}), ...(before !== undefined ? { to: before } : {}) };
}

const later = (a: string | undefined, b: string | undefined) => (a === undefined ? b : b === undefined || a > b ? a : b);
const earlier = (a: string | undefined, b: string | undefined) => (a === undefined ? b : b === undefined || a < b ? a : b);

/**
 * GET /v1/customers: one page of customers, every read a Query on one view (see
 * customer-views.ts): all customers, or those of the exact `email`, `city` or `name` given. The
 * order picks the view's sort: creation (the view's partition), last change (its GSI1) or source
 * id (the source id index, with the customers without one after it ascending and before it
 * descending; all customers only). `created_at[…]` bounds go with the creation
 * order, `updated_at[…]` with the change order, and `starting_after` is a date in the order's own
 * field (before it descending, after it ascending), so each is a key range, never a filter over
 * read items. `total` is the view's count; `segment_id` matches nothing (there are no segments).
 * @throws InvalidQueryParamsError for combinations no single Query serves.
 */
export async function listCustomers(deps: Pick<Runtime, 'ddb' | 'tableName'>, projectId: string, q: ListCustomersQuery): Promise<CustomerPage> {
  const filters = VIEW_FIELDS.filter((f) => q[f] !== undefined);
  if (filters.length > 1) throw new InvalidQueryParamsError(`Filter by one of email, city and name at a time, not ${filters.join(' and ')}`);
  const ascending = !q.order.startsWith('-');
  const field = q.order.replace(/^-/, '') as 'created_at' | 'updated_at' | 'source_id';
  for (const other of ['created_at', 'updated_at'] as const) {
    if (other !== field && (q[`${other}[before]`] !== undefined || q[`${other}[after]`] !== undefined)) {
      throw new InvalidQueryParamsError(`${other}[before] and ${other}[after] go with order=${other} or order=-${other}`);
    }
  }
  if (field === 'source_id' && (filters.length > 0 || q.starting_after !== undefined)) {
    throw new InvalidQueryParamsError('order=source_id lists all customers: email, city, name and starting_after go with the date orders');
  }
  if (q.segment_id !== undefined) return { customers: [], total: 0, hasMore: false };

  const [filter] = filters;
  const value = filter === undefined ? undefined : q[filter];
  const view = filter === undefined || value === undefined ? ALL_CUSTOMERS : viewOf(filter, value);
  let range: { from?: string; to?: string } | null = {};
  if (field !== 'source_id') {
    const cursor = q.starting_after;
    const after = later(q[`${field}[after]`], ascending ? cursor : undefined);
    const before = earlier(q[`${field}[before]`], ascending ? undefined : cursor);
    range = dateRange(after, before);
  }
  const by = field === 'created_at' ? 'created' : field === 'updated_at' ? 'updated' : 'source_id';
  const [page, total] = await Promise.all([
    range === null ? { ids: [], hasMore: false } : repo.listCustomerIds(deps, projectId, { view, by, ascending, range }, (q.page - 1) * q.limit, q.limit),
    repo.countCustomers(deps, projectId, view),
  ]);
  return { customers: await repo.getCustomers(deps, projectId, page.ids), total, hasMore: page.hasMore };
}
