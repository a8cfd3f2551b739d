import { getCampaign as getStoredCampaign, getCampaignIdByName } from '../campaigns/campaign.repo.js';
import { upsertCustomer } from '../customers/customer.service.js';
import { order as orderEntity } from '../db/entities.js';
import { backoff, MAX_CONFLICT_ATTEMPTS, type TransactItem } from '../db/transact.js';
import { rewardRefundItems } from '../loyalties/reward-refund.js';
import { givenFilters, isOr, matchesFilters, operatorsOf, soleValue } from '../filter-conditions.js';
import type { StringFilterConditions } from '../filter-conditions.schema.js';
import { AlreadyRolledBackError, ConflictRetryError, InvalidQueryParamsError, NotFoundError } from '../errors.js';
import type { Order } from '../orders/order.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from '../vouchers/voucher.js';
import { loadVoucher } from '../vouchers/voucher.service.js';
import { REDEMPTION_FILTER_FIELDS, type Redemption, type RedemptionFilterField } from './redemption.js';
import * as repo from './redemption.repo.js';
import { writeRollback } from './rollback.repo.js';
import type { ListRedemptionsQuery, RollbackBody, RollbackQuery } from './redemption.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;
type Reads = Pick<Runtime, 'ddb' | 'tableName'>;

/**
 * GET /v1/redemptions/{redemptionId}: a redemption (parent or child) or a rollback record.
 * @throws NotFoundError (redemption).
 */
export async function getRedemption(deps: Reads, projectId: string, redemptionId: string): Promise<Redemption> {
  const r = await repo.getRedemption(deps, projectId, redemptionId);
  if (!r) throw new NotFoundError('redemption', redemptionId);
  return r;
}

/** At most this many entries are read for one page of a list whose filters are applied to what is read (docs/decisions.md). */
export const MAX_FILTER_SCAN = 2_000;

export interface RedemptionPage {
  redemptions: Redemption[];
  total: number;
  hasMore: boolean;
}

/** A redemption's value of a `filters[…]` field, as its reply shows it; null where it has none. */
function filterValue(r: Redemption, field: RedemptionFilterField): string | null {
  switch (field) {
    case 'voucher_code':
      return r.voucher?.code ?? null;
    case 'related_object_id':
      return r.relatedObjectId;
    case 'related_object_parent_id':
      return r.campaignId;
    case 'parent_redemption_id':
      return r.redemption;
    case 'result':
      return r.result;
    case 'object':
      return r.object;
    case 'customer_id':
      return r.customerId;
    case 'campaign_name':
      return r.campaignName;
    // No failure is stored (a refused redemption writes nothing), and no dashboard user redeems here.
    case 'failure_code':
    case 'user_login':
      return null;
  }
}

/** The filters an index partition serves: `$is` (or `$in` of one value) on a voucher, related object, customer or campaign id. */
const PARTITION_FIELDS: readonly RedemptionFilterField[] = ['related_object_id', 'voucher_code', 'customer_id', 'related_object_parent_id'];

/**
 * The campaign id a `campaign` filter names: the campaign with that id, else the one with that name (an id wins when a
 * string is both, as in `{campaignId}`), else the string as an id (the redemptions of a deleted campaign keep its id). One round.
 */
async function campaignIdOf(deps: Deps, projectId: string, idOrName: string): Promise<string> {
  const [byId, byName] = await Promise.all([getStoredCampaign(deps, projectId, idOrName), getCampaignIdByName(deps, projectId, idOrName)]);
  return byId !== null || byName === null ? idOrName : byName;
}

/** What a list request reads: one index partition, or nothing (a voucher that does not exist has no redemptions). */
async function partitionOf(
  deps: Deps,
  projectId: string,
  q: ListRedemptionsQuery,
  given: [RedemptionFilterField, StringFilterConditions][],
  or: boolean,
): Promise<{ partition: repo.RedemptionPartition; served: RedemptionFilterField | null; servesCampaign?: boolean } | null> {
  const byVoucher = async (codeOrId: string) => {
    const voucher = await loadVoucher(deps, projectId, codeOrId).catch((error: unknown) => {
      if (error instanceof NotFoundError) return null;
      throw error;
    });
    return voucher ? { related: voucher.id } : null;
  };
  if (q.voucher !== undefined) {
    const related = await byVoucher(q.voucher);
    return related ? { partition: related, served: null } : null;
  }
  if (q.customer !== undefined) return { partition: { customer: q.customer }, served: null };
  // A campaign's redemptions are its own GSI4 partition: read, not filtered out of the project's list (issue 41 item 6).
  if (q.campaign !== undefined) return { partition: { campaign: await campaignIdOf(deps, projectId, q.campaign) }, served: null, servesCampaign: true };
  // Under `or`, one field's partition would leave out the other fields' rows.
  if (or && given.length > 1) return { partition: { project: true }, served: null };
  for (const field of PARTITION_FIELDS) {
    const c = given.find(([f]) => f === field)?.[1];
    const value = c ? soleValue(c) : undefined;
    if (value === undefined) continue;
    if (field === 'customer_id') return { partition: { customer: value }, served: field };
    if (field === 'related_object_id') return { partition: { related: value }, served: field };
    if (field === 'related_object_parent_id') return { partition: { campaign: value }, served: field };
    const related = await byVoucher(value);
    return related ? { partition: related, served: field } : null;
  }
  return { partition: { project: true }, served: null };
}

/**
 * GET /v1/redemptions: redemptions and rollbacks, newest first (or `order=created_at`), one page of
 * `limit`. A `voucher` (code or id), `customer` or `campaign` (id or name) filter reads that one index partition, as does
 * `filters[voucher_code | related_object_id | customer_id | related_object_parent_id]` with `$is` (or `$in` of one value);
 * otherwise the project's. `created_at` bounds are key conditions. `result` and every
 * other filter (any operator, either junction) are applied to what is read, at most MAX_FILTER_SCAN
 * entries (`maxScanned`); a page they leave unfilled within that bound is refused rather than
 * answered short (docs/decisions.md "Filtered redemption lists"). `total` is the number of matches
 * read up to the end of the list or that bound.
 * @throws InvalidQueryParamsError for `created_at[after]` after `[before]`, and for a filtered page
 *   the bound does not reach.
 */
export async function listRedemptions(deps: Deps, projectId: string, q: ListRedemptionsQuery, maxScanned = MAX_FILTER_SCAN): Promise<RedemptionPage> {
  const given = givenFilters(q.filters, REDEMPTION_FILTER_FIELDS);
  const or = isOr(q.filters?.junction);
  const from = q.created_at?.after;
  const to = q.created_at?.before;
  if (from !== undefined && to !== undefined && from > to) throw new InvalidQueryParamsError('created_at[after] must not be later than created_at[before]');
  const source = await partitionOf(deps, projectId, q, given, or);
  if (!source) return { redemptions: [], total: 0, hasMore: false };
  const { partition, served } = source;
  const applied = given.filter(([f]) => f !== served);
  // The campaign's partition holds exactly its redemptions, also those made under a name it no longer has.
  const campaignApplied = q.campaign !== undefined && source.servesCampaign !== true;
  const keep = (r: Redemption): boolean =>
    (q.result === undefined || r.result === q.result) &&
    (!campaignApplied || r.campaignId === q.campaign || r.campaignName === q.campaign) &&
    (q.customer === undefined || r.customerId === q.customer) &&
    // Every filter is checked, the one the partition serves too (a voucher's partition also holds its code's earlier life).
    matchesFilters(given, or, (f) => filterValue(r, f));
  const filtered = q.result !== undefined || campaignApplied || (q.customer !== undefined && q.voucher !== undefined) || applied.length > 0;
  const skip = (q.page - 1) * q.limit;
  const read = await repo.readRedemptions(
    deps,
    projectId,
    {
      partition,
      ...(from !== undefined ? { from } : {}),
      ...(to !== undefined ? { to } : {}),
      ascending: q.order === 'created_at',
      ...(filtered || given.length > 0 ? { keep } : {}),
    },
    skip + q.limit,
    filtered ? maxScanned : Number.MAX_SAFE_INTEGER,
  );
  if (filtered && !read.hasMore && !read.exhausted && read.redemptions.length < skip + q.limit) {
    throw new InvalidQueryParamsError(
      `${filterNames(q, applied, campaignApplied)}: applied to the redemptions read, and the ${read.scanned} read (at most ${maxScanned}) do not fill page ${q.page}; ` +
        'narrow the list with created_at[after] / created_at[before], voucher, customer or campaign (or filters[voucher_code], filters[related_object_id], filters[customer_id] or filters[related_object_parent_id] with $is), which are read from an index',
    );
  }
  const page = read.redemptions.slice(skip, skip + q.limit);
  const total = read.hasMore ? skip + page.length + 1 : read.redemptions.length;
  return {
    redemptions: page,
    total: Math.max(total, read.redemptions.length),
    hasMore: read.hasMore || (filtered && !read.exhausted && page.length === q.limit),
  };
}

/** The filters applied to what is read, named as the client sent them. */
function filterNames(q: ListRedemptionsQuery, applied: readonly [RedemptionFilterField, StringFilterConditions][], campaignApplied: boolean): string {
  const names = [
    ...(q.result !== undefined ? ['result'] : []),
    ...(campaignApplied ? ['campaign'] : []),
    ...(q.customer !== undefined && q.voucher !== undefined ? ['customer (with voucher)'] : []),
    ...applied.map(([f, c]) => `filters[${f}] (${operatorsOf(c).join(', ')})`),
  ];
  return names.join(', ');
}

/**
 * GET /v1/vouchers/{code}/redemption: the voucher (its `redeemedQuantity` made true by getVoucher: shards summed)
 * and every redemption and rollback of it, newest first.
 * @throws NotFoundError (voucher).
 */
export async function getVoucherRedemptions(deps: Deps, projectId: string, codeOrId: string): Promise<{ voucher: Voucher; entries: Redemption[] }> {
  const voucher = await loadVoucher(deps, projectId, codeOrId);
  return { voucher, entries: await repo.voucherRedemptionEntries(deps, projectId, voucher.id) };
}

/** What a rollback request adds: its reason, tracking id, metadata and customer. */
interface RollbackInput {
  reason: string | null;
  trackingId: string | null;
  metadata: Record<string, unknown> | null;
  customer: { id: string; sourceId: string | null } | null;
}

async function rollbackInput(deps: Deps, projectId: string, query: RollbackQuery, body: RollbackBody): Promise<RollbackInput> {
  const customer = body.customer ? await upsertCustomer(deps, projectId, body.customer) : null;
  return {
    reason: query.reason ?? body.reason ?? null,
    trackingId: query.tracking_id ?? body.tracking_id ?? null,
    metadata: body.metadata ?? null,
    customer: customer ? { id: customer.id, sourceId: customer.sourceId } : null,
  };
}

function recordOf(deps: Deps, r: Redemption, input: RollbackInput, date: string, childIds: string[] = []): Redemption {
  return {
    ...r,
    id: deps.ids.id('rr'),
    object: 'redemption_rollback',
    date,
    customerId: input.customer?.id ?? r.customerId,
    customerSourceId: input.customer ? input.customer.sourceId : r.customerSourceId,
    trackingId: input.trackingId ?? r.trackingId,
    metadata: input.metadata ?? r.metadata,
    redemption: r.id,
    result: 'SUCCESS',
    status: 'SUCCEEDED',
    childIds,
    rollbackId: null,
    reason: input.reason,
    sessionKey: null,
  };
}

/** What a stacked rollback wrote. */
export interface StackedRollback {
  rollbacks: Redemption[];
  parentRollback: Redemption;
  order: Order | null;
}

/**
 * Rolls back `target` (a child alone, or a parent with every child still SUCCEEDED) in one
 * transaction (lib/redemptions/rollback.repo.ts `writeRollback`), re-reading and retrying lost races.
 * @throws AlreadyRolledBackError, ConflictRetryError.
 */
/** @throws NotFoundError when `target` is itself a rollback, AlreadyRolledBackError when it was rolled back. */
function assertRollable(target: Redemption, targetId: string): void {
  if (target.object === 'redemption_rollback') throw new NotFoundError('redemption', targetId, `${targetId} is a rollback, not a redemption`);
  if (target.status === 'ROLLED_BACK') throw new AlreadyRolledBackError(targetId);
}

/** `read`: the target as the caller just read and checked it, used by the first attempt (a lost one reads it again). */
async function rollBack(
  deps: Deps,
  projectId: string,
  targetId: string,
  input: RollbackInput,
  read: Redemption,
): Promise<StackedRollback | { single: Redemption }> {
  const skipVouchers = new Set<string>();
  for (let attempt = 0; attempt < MAX_CONFLICT_ATTEMPTS; attempt += 1) {
    if (attempt > 0) await backoff(attempt);
    const target = attempt === 0 ? read : await getRedemption(deps, projectId, targetId);
    assertRollable(target, targetId);
    const date = deps.clock.now().toISOString();
    const isParent = target.relatedObjectType === 'redemption';
    const children = isParent ? (await repo.getRedemptions(deps, projectId, target.childIds)).filter((c) => c.status === 'SUCCEEDED') : [target];
    const undo = children.map((child) => ({ child, record: recordOf(deps, child, input, date) }));
    const parent = isParent
      ? {
          parent: target,
          record: recordOf(
            deps,
            target,
            input,
            date,
            undo.map((u) => u.record.id),
          ),
        }
      : null;
    const order = isParent && target.order ? await orderEntity.get(deps, orderEntity.key(projectId, target.order.id)) : null;
    const extra: TransactItem[] = [];
    let lagging = false;
    for (const child of children) {
      if (!child.reward) continue;
      const refund = await rewardRefundItems(deps, child, deps.clock.now());
      if (refund === null) lagging = true;
      else extra.push(...refund);
    }
    if (lagging) continue;
    const outcome = await writeRollback(deps, { undo, parent, order, date, skipVouchers, extra });
    if (outcome.outcome === 'ok') {
      const written = order && parent ? await orderEntity.get(deps, orderEntity.key(projectId, order.id)) : null;
      return parent
        ? { rollbacks: undo.map((u) => u.record), parentRollback: parent.record, order: written }
        : { single: (undo[0] as { record: Redemption }).record };
    }
    if (outcome.outcome === 'voucher_gone') for (const id of outcome.voucherIds) skipVouchers.add(id);
  }
  throw new ConflictRetryError(`Too many concurrent rollbacks of redemption ${targetId}`);
}

/**
 * POST /v1/redemptions/{redemptionId}/rollbacks: gives back every use and credit of the
 * parent's children still SUCCEEDED, marks them and the parent ROLLED_BACK, writes a rollback record
 * per child and one for the parent, and records the rollback in the order's `redemptions` map, in one
 * transaction. Of concurrent rollbacks one succeeds; the others get `already_rolled_back`.
 * @throws NotFoundError (redemption), AlreadyRolledBackError, InvalidPayloadError (not a parent).
 */
export async function rollbackStackedRedemptions(
  deps: Deps,
  projectId: string,
  parentRedemptionId: string,
  query: RollbackQuery,
  body: RollbackBody,
): Promise<StackedRollback> {
  const target = await getRedemption(deps, projectId, parentRedemptionId);
  if (target.object === 'redemption' && target.relatedObjectType !== 'redemption') {
    throw new NotFoundError(
      'redemption',
      parentRedemptionId,
      `${parentRedemptionId} is not a parent redemption: roll it back with POST /v1/redemptions/${parentRedemptionId}/rollback`,
    );
  }
  assertRollable(target, parentRedemptionId);
  const done = await rollBack(deps, projectId, parentRedemptionId, await rollbackInput(deps, projectId, query, body), target);
  if ('single' in done) throw new Error('A parent redemption rolled back as a single one');
  return done;
}

/**
 * POST /v1/redemptions/{redemptionId}/rollback: rolls back one child redemption (its use and credits
 * given back, marked ROLLED_BACK, a rollback record written), or, named by a parent's id, the whole
 * stacked redemption (the reply is then the parent's rollback record).
 * @throws NotFoundError (redemption), AlreadyRolledBackError.
 */
export async function rollbackRedemption(deps: Deps, projectId: string, redemptionId: string, query: RollbackQuery, body: RollbackBody): Promise<Redemption> {
  // The redemption is found (and found rollable) before the body's customer is upserted: a refused rollback writes nothing.
  const target = await getRedemption(deps, projectId, redemptionId);
  assertRollable(target, redemptionId);
  const done = await rollBack(deps, projectId, redemptionId, await rollbackInput(deps, projectId, query, body), target);
  return 'single' in done ? done.single : done.parentRollback;
}
