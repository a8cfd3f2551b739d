import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import type { Campaign, PromotionTier } from '../campaigns/campaign.js';
import type { Customer } from '../customers/customer.js';
import * as entities from '../db/entities.js';
import type { Item, ItemKey } from '../db/entity.js';
import { RETRY, retryOnConflict } from '../db/transact.js';
import type { Order } from '../orders/order.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from '../vouchers/voucher.js';
import type { StackingRules } from './stacking-rules.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** A resource named by its id or by its source id (the id wins when both are sent). */
export interface Ref {
  id?: string | undefined;
  sourceId?: string | undefined;
}

/** What a stacked request names, to be read. */
export interface ValidationWants {
  codes: readonly string[];
  tierIds: readonly string[];
  order: Ref | null;
  customer: Ref | null;
}

/** Everything a validation reads; a name missing from a map was not found. */
export interface ValidationReads {
  vouchers: Map<string, Voucher>;
  /** Promotion tiers by id, each with its campaign (tiers live inside the campaign item). */
  tiers: Map<string, { tier: PromotionTier; campaign: Campaign }>;
  /** Campaigns by id: the vouchers' and the tiers'. */
  campaigns: Map<string, Campaign>;
  /** The stored order named by id or source id; null when none is named or it does not exist. */
  order: Order | null;
  /** The customer named by id or source id; null when none is named or it does not exist. */
  customer: Customer | null;
  /** The project's stacking rules as set; null = never set (the defaults apply). */
  rules: StackingRules | null;
}

const keyString = (k: ItemKey | Item): string => `${String(k.PK)}\u0000${String(k.SK)}`;

/**
 * One consistent BatchGetItem of `keys` (≤ 100, distinct), whatever their entities; unprocessed
 * keys are read again with backoff. Returns the items by key.
 */
async function batchRead(deps: Deps, keys: readonly ItemKey[]): Promise<Map<string, Item>> {
  const found = new Map<string, Item>();
  let pending: Item[] = [...new Map(keys.map((k) => [keyString(k), { ...k }])).values()];
  if (pending.length === 0) return found;
  return retryOnConflict('Too many concurrent reads of the redeemables', async () => {
    const res = await deps.ddb.send(new BatchGetCommand({ RequestItems: { [deps.tableName]: { Keys: pending, ConsistentRead: true } } }));
    for (const item of res.Responses?.[deps.tableName] ?? []) found.set(keyString(item), item);
    pending = res.UnprocessedKeys?.[deps.tableName]?.Keys ?? [];
    return pending.length > 0 ? RETRY : found;
  });
}

/**
 * Reads what a stacked request names in two BatchGetItems, never one per redeemable: first the
 * vouchers (by code), the promotion tiers' pointers, the stacking rules, and the order and the
 * customer by id or their source-id claims; then the campaigns of those vouchers and tiers, and
 * the order and the customer a source id named. At most 30 redeemables: each batch stays ≤ 100 keys.
 */
export async function readForValidation(deps: Deps, projectId: string, wants: ValidationWants): Promise<ValidationReads> {
  const orderKey = wants.order?.id !== undefined ? entities.order.key(projectId, wants.order.id) : null;
  const orderSrcKey = orderKey === null && wants.order?.sourceId !== undefined ? entities.orderSourceId.key(projectId, wants.order.sourceId) : null;
  const customerKey = wants.customer?.id !== undefined ? entities.customer.key(projectId, wants.customer.id) : null;
  const customerSrcKey =
    customerKey === null && wants.customer?.sourceId !== undefined ? entities.customerSourceId.key(projectId, wants.customer.sourceId) : null;
  const voucherKeys = wants.codes.map((code) => [code, entities.voucher.key(projectId, code)] as const);
  const tierRefKeys = wants.tierIds.map((id) => [id, entities.promotionTierRef.key(projectId, id)] as const);
  const rulesKey = entities.stackingRules.key(projectId);

  const first = await batchRead(deps, [
    ...voucherKeys.map(([, k]) => k),
    ...tierRefKeys.map(([, k]) => k),
    rulesKey,
    ...[orderKey, orderSrcKey, customerKey, customerSrcKey].filter((k): k is ItemKey => k !== null),
  ]);
  const read = <T>(e: { fromItem(item: Item): T }, key: ItemKey | null): T | null => {
    const item = key === null ? undefined : first.get(keyString(key));
    return item === undefined ? null : e.fromItem(item);
  };

  const vouchers = new Map<string, Voucher>();
  for (const [code, key] of voucherKeys) {
    const v = read(entities.voucher, key);
    if (v) vouchers.set(code, v);
  }
  const tierCampaign = new Map<string, string>();
  for (const [id, key] of tierRefKeys) {
    const ref = read(entities.promotionTierRef, key);
    if (ref) tierCampaign.set(id, ref.campaignId);
  }
  const campaignIds = new Set<string>([...tierCampaign.values()]);
  for (const v of vouchers.values()) if (v.campaignId !== null) campaignIds.add(v.campaignId);
  const orderId = read(entities.orderSourceId, orderSrcKey)?.orderId ?? null;
  const customerId = read(entities.customerSourceId, customerSrcKey)?.customerId ?? null;
  const secondOrderKey = orderId !== null ? entities.order.key(projectId, orderId) : null;
  const secondCustomerKey = customerId !== null ? entities.customer.key(projectId, customerId) : null;
  const campaignKeys = [...campaignIds].map((id) => entities.campaign.key(projectId, id));

  const second = await batchRead(deps, [...campaignKeys, ...[secondOrderKey, secondCustomerKey].filter((k): k is ItemKey => k !== null)]);
  const campaigns = new Map<string, Campaign>();
  for (const key of campaignKeys) {
    const item = second.get(keyString(key));
    if (item) {
      const c = entities.campaign.fromItem(item);
      campaigns.set(c.id, c);
    }
  }
  const tiers = new Map<string, { tier: PromotionTier; campaign: Campaign }>();
  for (const [id, campaignId] of tierCampaign) {
    const campaign = campaigns.get(campaignId);
    const tier = campaign?.promotionTiers?.find((t) => t.id === id);
    if (campaign && tier) tiers.set(id, { tier, campaign });
  }
  const fromSecond = <T>(e: { fromItem(item: Item): T }, key: ItemKey | null): T | null => {
    const item = key === null ? undefined : second.get(keyString(key));
    return item === undefined ? null : e.fromItem(item);
  };
  const rules = read(entities.stackingRules, rulesKey);
  return {
    vouchers,
    tiers,
    campaigns,
    order: read(entities.order, orderKey) ?? fromSecond(entities.order, secondOrderKey),
    customer: read(entities.customer, customerKey) ?? fromSecond(entities.customer, secondCustomerKey),
    rules: rules === null ? null : stripUpdatedAt(rules),
  };
}

const stripUpdatedAt = ({ updatedAt: _, ...rules }: StackingRules & { updatedAt: string }): StackingRules => rules;
