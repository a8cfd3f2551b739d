import { eachLimited } from '../concurrency.js';
import { ALL_CUSTOMERS } from '../customers/customer-views.js';
import * as customers from '../customers/customer.repo.js';
import type { Customer } from '../customers/customer.js';
import { InvalidPayloadError, NotFoundError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { MAX_SEGMENT_SCAN, MAX_SEGMENTS_PER_PROJECT, type Segment } from './segment.js';
import { parseSegmentFilter, UnsupportedFilterError } from './segment-filter.js';
import { inSegment, projectSegments } from './segment-membership.js';
import * as repo from './segment.repo.js';
import type { CreateSegmentBody, ListSegmentsQuery } from './segment.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;
type ReadDeps = Pick<Runtime, 'ddb' | 'tableName'>;

/** The customer a reference names: by id, else by source id (as the customer routes find them). */
async function findCustomer(deps: ReadDeps, projectId: string, ref: string): Promise<Customer | null> {
  const [byId, sourceOwner] = await Promise.all([customers.getCustomer(deps, projectId, ref), customers.getCustomerIdBySourceId(deps, projectId, ref)]);
  return byId ?? (sourceOwner ? customers.getCustomer(deps, projectId, sourceOwner) : null);
}

/** The first MAX_SEGMENT_SCAN customers of the project, oldest first. */
async function scanCustomers(deps: ReadDeps, projectId: string): Promise<Customer[]> {
  const { ids } = await customers.listCustomerIds(deps, projectId, { view: ALL_CUSTOMERS, by: 'created', ascending: true }, 0, MAX_SEGMENT_SCAN);
  const found: Customer[] = [];
  for (let i = 0; i < ids.length; i += 100) found.push(...(await customers.getCustomers(deps, projectId, ids.slice(i, i + 100))));
  return found;
}

/**
 * POST /v1/segments. Static: its customers (ids or source ids) become members. Auto-update and
 * passive: the filter is checked, then the project's first MAX_SEGMENT_SCAN customers that pass it
 * become members; later customer writes move auto-update memberships only.
 * @throws InvalidPayloadError (a filter it cannot evaluate, named; a filter on a static segment or
 * none on the others; the project's MAX_SEGMENTS_PER_PROJECT reached); NotFoundError (customer).
 */
export async function createSegment(deps: Deps, projectId: string, body: CreateSegmentBody): Promise<Segment> {
  const isStatic = body.type === 'static';
  if (isStatic && body.filter !== undefined)
    throw new InvalidPayloadError('Property .filter goes with type auto-update or passive; a static segment lists its customers');
  if (!isStatic && body.customers !== undefined)
    throw new InvalidPayloadError(`Property .customers goes with type static; a ${body.type} segment has a filter`);
  if (!isStatic && body.filter === undefined) throw new InvalidPayloadError(`Property .filter is required for a ${body.type} segment`);
  if (body.filter !== undefined) {
    try {
      parseSegmentFilter(body.filter);
    } catch (e) {
      if (e instanceof UnsupportedFilterError) throw new InvalidPayloadError(`Property .${e.message}`);
      throw e;
    }
  }
  if ((await projectSegments(deps, projectId)).length >= MAX_SEGMENTS_PER_PROJECT) {
    throw new InvalidPayloadError(`A project holds at most ${MAX_SEGMENTS_PER_PROJECT} segments; delete one first`);
  }
  const members: Customer[] = [];
  if (isStatic) {
    const refs = [...new Set(body.customers ?? [])];
    const found = await Promise.all(refs.map((ref) => findCustomer(deps, projectId, ref)));
    found.forEach((c, i) => {
      if (!c) throw new NotFoundError('customer', refs[i] ?? '');
      if (!members.some((m) => m.id === c.id)) members.push(c);
    });
  }
  const segment: Segment = {
    id: deps.ids.id('seg'),
    name: body.name,
    type: body.type,
    filter: body.filter ?? null,
    customerIds: members.map((c) => c.id),
    createdAt: deps.clock.now().toISOString(),
  };
  await repo.insertSegment(deps, projectId, segment);
  const joining = isStatic ? members : (await scanCustomers(deps, projectId)).filter((c) => inSegment(c, segment));
  await eachLimited(joining, 10, (c) => repo.addMember(deps, projectId, c, segment.id, deps.ids.id('act'), segment.createdAt));
  return segment;
}

/** GET /v1/segments/{segmentId}. @throws NotFoundError (segment). */
export async function getSegment(deps: ReadDeps, projectId: string, segmentId: string): Promise<Segment> {
  const found = await repo.getSegment(deps, projectId, segmentId);
  if (!found) throw new NotFoundError('segment', segmentId);
  return found;
}

/** GET /v1/segments: one page of the project's segments (all read: at most MAX_SEGMENTS_PER_PROJECT) by creation. */
export async function listSegment(deps: ReadDeps, projectId: string, q: ListSegmentsQuery): Promise<{ segments: Segment[]; total: number }> {
  const all = (await projectSegments(deps, projectId)).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  if (q.order === '-created_at') all.reverse();
  return { segments: all.slice((q.page - 1) * q.limit, q.page * q.limit), total: all.length };
}

/**
 * DELETE /v1/segments/{segmentId}. Members keep the id on their item until their next write drops
 * it (lib/segments/segment-membership.ts); GET /v1/customers/{id}/segments shows existing segments only.
 * @throws NotFoundError (segment).
 */
export async function deleteSegment(deps: ReadDeps, projectId: string, segmentId: string): Promise<void> {
  if (!(await repo.deleteSegment(deps, projectId, segmentId))) throw new NotFoundError('segment', segmentId);
}

/** GET /v1/customers/{customerId}/segments: the segments the customer is in, from its own item. @throws NotFoundError (customer). */
export async function listCustomerSegments(deps: ReadDeps, projectId: string, ref: string): Promise<Segment[]> {
  const c = await findCustomer(deps, projectId, ref);
  if (!c) throw new NotFoundError('customer', ref);
  return repo.getSegments(deps, projectId, c.segmentIds ?? []);
}
