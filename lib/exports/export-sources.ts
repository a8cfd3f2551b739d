import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ALL_CUSTOMERS } from '../customers/customer-views.js';
import type { Customer } from '../customers/customer.js';
import type { ItemKey } from '../db/entity.js';
import {
  cardTransaction,
  customer as customerEntity,
  customerListEntry,
  order as orderEntity,
  orderListEntry,
  publication as publicationEntity,
  publicationListEntry,
  redemption as redemptionEntity,
  redemptionByProject,
  voucher as voucherEntity,
  voucherByProject,
} from '../db/entities.js';
import { tableDesign } from '../db/table.js';
import type { CardTransaction } from '../loyalties/card-transaction.js';
import type { PointsBucket } from '../loyalties/points-bucket.js';
import { campaignBucketPages } from '../loyalties/points-bucket.repo.js';
import { undiscountedFigures } from '../orders/order-lines.js';
import type { Order } from '../orders/order.js';
import { ALL_PUBLICATIONS, type Publication } from '../publications/publication.js';
import type { Redemption } from '../redemptions/redemption.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from '../vouchers/voucher.js';
import type { Export } from './export.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock'>;

/** One row: every column of its object as text, plus the hidden cells filters and orders compare. */
export type Cells = Record<string, string>;

/**
 * Where an export's rows come from. `pages` yields them a Query page at a time; in the order of
 * the exporter's `naturalOrder` (ties by id) when `sorted`, else in no particular order (the
 * worker then sorts every order externally).
 */
export interface RowSource {
  sorted: boolean;
  pages(ascending: boolean): AsyncIterable<Cells[]>;
}

/**
 * Items (or keys) read per Query page. A page of keys is then read 100 keys a BatchGetItem (its
 * limit), the page's BatchGetItems side by side: pages of 100 made two sequential round trips per
 * 100 rows, half the worker's time (docs/benchmarks.md, item 20). DynamoDB ends a page at 1 MB anyway.
 */
const PAGE_SIZE = 1000;
/** Keys one BatchGetItem reads at most. */
const BATCH_GET_KEYS = 100;

const text = (v: string | number | boolean | null | undefined): string => (v === null || v === undefined ? '' : String(v));
const json = (v: unknown): string => (v === null || v === undefined ? '' : JSON.stringify(v));

/**
 * A keys-only index partition (GSI3) a page at a time: each page's table keys (`keys`) and the
 * index sort keys (`sorts`), in the index's order.
 */
async function* indexKeyPages(deps: Deps, partition: string, ascending: boolean): AsyncGenerator<{ keys: ItemKey[]; sorts: string[] }> {
  const index = tableDesign.indexes.gsi3;
  let start: Record<string, unknown> | undefined;
  do {
    const res = await deps.ddb.send(
      new QueryCommand({
        TableName: deps.tableName,
        IndexName: index.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': index.partitionKey, '#sk': index.sortKey, '#tpk': tableDesign.partitionKey, '#tsk': tableDesign.sortKey },
        ExpressionAttributeValues: { ':pk': partition },
        ProjectionExpression: '#tpk, #tsk, #sk',
        ScanIndexForward: ascending,
        Limit: PAGE_SIZE,
        ExclusiveStartKey: start,
      }),
    );
    const items = res.Items ?? [];
    if (items.length > 0) {
      yield {
        keys: items.map((i) => ({ PK: String(i[tableDesign.partitionKey]), SK: String(i[tableDesign.sortKey]) })),
        sorts: items.map((i) => String(i[index.sortKey])),
      };
    }
    start = res.LastEvaluatedKey;
  } while (start);
}

/** The items at `keys` (read BATCH_GET_KEYS at a time, side by side), in the keys' order; items gone since their entry was read are left out. */
async function inOrder<T>(keys: ItemKey[], read: (keys: ItemKey[]) => Promise<T[]>, keyOf: (value: T) => string): Promise<T[]> {
  if (keys.length === 0) return [];
  const batches: ItemKey[][] = [];
  for (let i = 0; i < keys.length; i += BATCH_GET_KEYS) batches.push(keys.slice(i, i + BATCH_GET_KEYS));
  const byKey = new Map((await Promise.all(batches.map(read))).flat().map((v) => [keyOf(v), v]));
  return keys.flatMap((k) => byKey.get(k.PK) ?? []);
}

export function voucherCells(v: Voucher): Cells {
  const d = (v.discount ?? null) as Record<string, unknown> | null;
  const value =
    d === null
      ? v.gift
        ? v.gift.amount
        : v.loyaltyCard
          ? v.loyaltyCard.points
          : null
      : ((d.amountOff ?? d.percentOff ?? d.fixedAmount ?? d.unitOff ?? null) as number | null);
  return {
    code: v.code,
    voucher_type: v.type,
    value: text(value),
    formula: text((d?.amountOffFormula ?? d?.percentOffFormula ?? d?.fixedAmountFormula ?? d?.unitOffFormula ?? null) as string | null),
    discount_type: text(d?.type as string | undefined),
    campaign: text(v.campaignName),
    category: text(v.category?.name),
    category_id: text(v.category?.id),
    start_date: text(v.startDate),
    expiration_date: text(v.expirationDate),
    gift_balance: text(v.gift?.balance),
    loyalty_balance: text(v.loyaltyCard?.balance),
    redemption_quantity: text(v.redemptionQuantity),
    redemption_count: text(v.redeemedQuantity),
    active: String(v.active),
    metadata: json(v.metadata),
    id: v.id,
    is_referral_code: String(v.isReferralCode),
    created_at: v.createdAt,
    updated_at: text(v.updatedAt),
    validity_timeframe_interval: text(v.validityTimeframe?.interval),
    validity_timeframe_duration: text(v.validityTimeframe?.duration),
    validity_day_of_week: v.validityDayOfWeek ? v.validityDayOfWeek.join(',') : '',
    discount_amount_limit: text(d?.amountLimit as number | undefined),
    campaign_id: text(v.campaignId),
    additional_info: text(v.additionalInfo),
    customer_id: text(v.holderId),
    discount_effect: text(d?.effect as string | undefined),
    discount_unit_type: text(d?.unitType as string | undefined),
    discount_unit_effect: d?.type === 'UNIT' ? text(d.effect as string | undefined) : '',
  };
}

export function redemptionCells(r: Redemption): Cells {
  const total = r.order?.calculation.totalAmount ?? r.order?.calculation.amount;
  return {
    id: r.id,
    object: r.object,
    date: r.date,
    created_at: r.date,
    voucher_code: text(r.voucher?.code),
    campaign: text(r.campaignName),
    promotion_tier_id: text(r.promotionTierId),
    customer_id: text(r.customerId),
    customer_source_id: text(r.customerSourceId),
    tracking_id: text(r.trackingId),
    order_id: text(r.order?.id),
    order_amount: text(total),
    gift_amount: r.giftCredits > 0 ? String(r.giftCredits) : '',
    loyalty_points: r.loyaltyPoints > 0 ? String(r.loyaltyPoints) : '',
    result: r.result,
    metadata: json(r.metadata),
    status: r.status,
    related_object_type: r.relatedObjectType,
    related_object_id: r.relatedObjectId,
  };
}

export function customerCells(c: Customer): Cells {
  const a = c.address;
  return {
    name: text(c.name),
    id: c.id,
    description: text(c.description),
    email: text(c.email),
    source_id: text(c.sourceId),
    created_at: c.createdAt,
    address_city: text(a?.city),
    address_state: text(a?.state),
    address_line_1: text(a?.line1),
    address_line_2: text(a?.line2),
    address_country: text(a?.country),
    address_postal_code: text(a?.postalCode),
    updated_at: text(c.updatedAt),
    phone: text(c.phone),
    // The reference's deprecated `birthday` and its `birthdate` are one date here.
    birthday: text(c.birthdate),
    metadata: json(c.metadata),
    birthdate: text(c.birthdate),
  };
}

/** One row per publication (a publication of several vouchers shows its first code, as its list entry does). */
export function publicationCells(p: Publication): Cells {
  return {
    id: p.id,
    voucher_code: text(p.voucher?.code ?? p.vouchers[0]?.code),
    customer_id: p.customerId,
    customer_source_id: text(p.customer.sourceId),
    tracking_id: text(p.customer.sourceId),
    date: p.createdAt,
    created_at: p.createdAt,
    channel: p.channel,
    campaign: text(p.voucher?.campaignName),
    metadata: json(p.metadata),
    voucher_type: p.voucherType,
    is_referral_code: String(p.isReferralCode),
    source_id: text(p.sourceId),
  };
}

export function orderCells(o: Order): Cells {
  const f = o.calculation ?? undiscountedFigures(o.amount);
  return {
    id: o.id,
    source_id: text(o.sourceId),
    created_at: o.createdAt,
    updated_at: text(o.updatedAt),
    status: o.status,
    amount: text(f.amount),
    discount_amount: text(f.discountAmount),
    items_discount_amount: text(f.itemsDiscountAmount),
    total_discount_amount: text(f.totalDiscountAmount),
    total_amount: text(f.totalAmount),
    customer_id: text(o.customerId),
    referrer_id: text(o.referrerId),
    metadata: json(o.metadata),
  };
}

/**
 * A points bucket's cells. `status` is ACTIVE or EXPIRED as of `today`: an ACTIVE bucket past
 * its expiry date is reported EXPIRED even before anything has moved it (expiry is checked in code).
 */
export function bucketCells(b: PointsBucket, today: string): Cells {
  const expired = b.status === 'EXPIRED' || (b.expiresAt !== null && b.expiresAt < today);
  return {
    id: b.id,
    campaign_id: b.campaignId,
    voucher_id: b.voucherId,
    status: expired ? 'EXPIRED' : 'ACTIVE',
    expires_at: b.expiresAt ?? '',
    points: String(b.points),
  };
}

export function transactionCells(t: CardTransaction): Cells {
  return {
    id: t.id,
    campaign_id: text(t.campaignId),
    voucher_id: t.voucherId,
    type: t.type,
    source_id: text(t.sourceId),
    reason: text(t.reason),
    source: text(t.source),
    balance: String(t.balance),
    amount: String(t.points),
    related_transaction_id: text(t.relatedTransactionId),
    created_at: t.createdAt,
    details: json(t.details),
  };
}

/** The one value a filter pins a field to (`$is`, or `$in` of one value, under `and`), else null. */
function pinned(e: Export, field: string): string | null {
  if (e.filters.junction === 'or' && Object.keys(e.filters.conditions).length > 1) return null;
  const c = e.filters.conditions[field];
  if (c?.$is !== undefined) return c.$is;
  if (c?.$in?.length === 1) return c.$in[0] ?? null;
  return null;
}

/** A source that maps each item of sorted pages to cells. */
function sortedSource<T>(read: (ascending: boolean) => AsyncIterable<T[]>, cells: (item: T) => Cells): RowSource {
  return {
    sorted: true,
    async *pages(ascending) {
      for await (const page of read(ascending)) yield page.map(cells);
    },
  };
}

/**
 * The rows of an export, by its object. Every source is a Query of the project's own partitions
 * (never a Scan): the project's keys-only GSI3 lists (vouchers, redemptions), the list-entry
 * partitions of customers, publications and orders (each page's items then read by key), a
 * campaign's points buckets, and a voucher's or a campaign's transactions.
 */
export function rowSource(deps: Deps, e: Export): RowSource {
  const { projectId } = e;
  const busy = `Too many concurrent reads for export ${e.id}`;
  switch (e.exportedObject) {
    case 'voucher': {
      if (e.campaignId !== null) {
        const campaignId = e.campaignId;
        return sortedSource(
          (ascending) => voucherEntity.queryPages(deps, { index: [projectId, campaignId] }, { ascending, pageSize: PAGE_SIZE }),
          voucherCells,
        );
      }
      return sortedSource(async function* (ascending) {
        for await (const page of indexKeyPages(deps, voucherByProject.partition(projectId), ascending)) {
          yield inOrder(
            page.keys,
            (keys) => voucherEntity.getMany(deps, keys, busy),
            (v) => voucherEntity.key(projectId, v.code).PK,
          );
        }
      }, voucherCells);
    }
    case 'redemption':
      return sortedSource(async function* (ascending) {
        for await (const page of indexKeyPages(deps, redemptionByProject.partition(projectId), ascending)) {
          yield inOrder(
            page.keys,
            (keys) => redemptionEntity.getMany(deps, keys, busy),
            (r) => redemptionEntity.key(projectId, r.id).PK,
          );
        }
      }, redemptionCells);
    case 'customer':
      return sortedSource(async function* (ascending) {
        for await (const page of customerListEntry.queryPages(deps, { key: [projectId, ALL_CUSTOMERS] }, { ascending, pageSize: PAGE_SIZE })) {
          const keys = page.map((entry) => customerEntity.key(projectId, entry.customerId));
          yield inOrder(
            keys,
            (k) => customerEntity.getMany(deps, k, busy),
            (c) => customerEntity.key(projectId, c.id).PK,
          );
        }
      }, customerCells);
    case 'publication':
      return sortedSource(async function* (ascending) {
        for await (const page of publicationListEntry.queryPages(deps, { key: [projectId, ALL_PUBLICATIONS] }, { ascending, pageSize: PAGE_SIZE })) {
          const keys = page.map((entry) => publicationEntity.key(projectId, entry.publicationId));
          yield inOrder(
            keys,
            (k) => publicationEntity.getMany(deps, k, busy),
            (p) => publicationEntity.key(projectId, p.id).PK,
          );
        }
      }, publicationCells);
    case 'order':
      return sortedSource(async function* (ascending) {
        for await (const page of orderListEntry.queryPages(deps, { key: [projectId] }, { ascending, pageSize: PAGE_SIZE })) {
          const keys = page.map((entry) => orderEntity.key(projectId, entry.orderId));
          yield inOrder(
            keys,
            (k) => orderEntity.getMany(deps, k, busy),
            (o) => orderEntity.key(projectId, o.id).PK,
          );
        }
      }, orderCells);
    case 'points_expiration': {
      const campaignId = e.campaignId ?? '';
      const today = deps.clock.now().toISOString().slice(0, 10);
      return {
        sorted: true,
        async *pages(ascending) {
          // Buckets spent to zero (USED) are no expiring points: left out.
          for await (const page of campaignBucketPages(deps, projectId, campaignId, { ascending, pageSize: 1000 })) {
            yield page.filter((b) => b.status !== 'USED').map((b) => bucketCells(b, today));
          }
        },
      };
    }
    case 'voucher_transactions': {
      // A door's path bounds the rows (campaignId, voucherId); otherwise a filter that pins one value does.
      const voucherId = e.voucherId ?? pinned(e, 'voucher_id');
      if (voucherId !== null) {
        return sortedSource(
          (ascending) => cardTransaction.queryPages(deps, { key: [projectId, voucherId] }, { ascending, pageSize: PAGE_SIZE }),
          transactionCells,
        );
      }
      const campaignId = e.campaignId ?? pinned(e, 'campaign_id');
      if (campaignId !== null) {
        return sortedSource(
          (ascending) => cardTransaction.queryPages(deps, { sparse: [projectId, campaignId] }, { ascending, pageSize: PAGE_SIZE }),
          transactionCells,
        );
      }
      // The whole project: each voucher's own transaction partition in turn (its id ends the GSI3 sort key), then sorted.
      return {
        sorted: false,
        async *pages() {
          for await (const page of indexKeyPages(deps, voucherByProject.partition(projectId), true)) {
            for (const sort of page.sorts) {
              const voucherId = sort.slice(sort.lastIndexOf('#') + 1);
              for await (const txs of cardTransaction.queryPages(deps, { key: [projectId, voucherId] }, { pageSize: PAGE_SIZE })) {
                if (txs.length > 0) yield txs.map(transactionCells);
              }
            }
          }
        },
      };
    }
  }
}
