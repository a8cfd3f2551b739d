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

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'readHints'>;

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
 * Reads what a stacked request names in one BatchGetItem when this container's hints (read-hints.ts)
 * know the campaigns, order and customer it leads to, else two, never one per redeemable. The first
 * holds the vouchers (by code), the promotion tiers' pointers, the stacking rules, the order and the
 * customer by id or their source-id claims, and the campaigns and records the hints point to (or,
 * for codes never seen here, the project's recent campaigns); the second, only when needed, the
 * campaigns, order and customer the first showed and did not bring. What the first read says wins
 * over a hint. At most 30 redeemables: each batch stays ≤ 100 keys.
 */
export async function readForValidation(deps: Deps, projectId: string, wants: ValidationWants): Promise<ValidationReads> {
  const hints = deps.readHints;
  const orderKey = wants.order?.id !== undefined ? entities.order.key(projectId, wants.order.id) : null;
  const orderSourceId = orderKey === null ? (wants.order?.sourceId ?? null) : null;
  const orderSrcKey = orderSourceId !== null ? entities.orderSourceId.key(projectId, orderSourceId) : null;
  const customerKey = wants.customer?.id !== undefined ? entities.customer.key(projectId, wants.customer.id) : null;
  const customerSourceId = customerKey === null ? (wants.customer?.sourceId ?? null) : null;
  const customerSrcKey = customerSourceId !== null ? entities.customerSourceId.key(projectId, customerSourceId) : null;
  const voucherKeys = wants.codes.map((code) => [code, entities.voucher.key(projectId, code)] as const);
  const tierRefKeys = wants.tierIds.map((id) => [id, entities.promotionTierRef.key(projectId, id)] as const);
  const rulesKey = entities.stackingRules.key(projectId);

  const guessed = new Set<string>();
  let unknown = false;
  for (const code of wants.codes) {
    const id = hints.campaignOfCode(projectId, code);
    if (id === undefined) unknown = true;
    else guessed.add(id);
  }
  for (const tierId of wants.tierIds) {
    const id = hints.campaignOfTier(projectId, tierId);
    if (id === undefined) unknown = true;
    else guessed.add(id);
  }
  if (unknown) for (const id of hints.recentCampaigns(projectId)) guessed.add(id);
  const guessedOrderId = orderSourceId !== null ? hints.orderOfSourceId(projectId, orderSourceId) : undefined;
  const guessedCustomerId = customerSourceId !== null ? hints.customerOfSourceId(projectId, customerSourceId) : undefined;

  const first = await batchRead(deps, [
    ...voucherKeys.map(([, k]) => k),
    ...tierRefKeys.map(([, k]) => k),
    rulesKey,
    ...[orderKey, orderSrcKey, customerKey, customerSrcKey].filter((k): k is ItemKey => k !== null),
    ...[...guessed].map((id) => entities.campaign.key(projectId, id)),
    ...(guessedOrderId !== undefined ? [entities.order.key(projectId, guessedOrderId)] : []),
    ...(guessedCustomerId !== undefined ? [entities.customer.key(projectId, guessedCustomerId)] : []),
  ]);
  const read = <T>(e: { fromItem(item: Item): T }, key: ItemKey | null): T | null => {
    const item = key === null ? undefined : first.get(keyString(key));
    return item === undefined ? null : e.fromItem(item);
  };

  const vouchers = new Map<string, Voucher>();
  const codeCampaign = new Map<string, string>();
  for (const [code, key] of voucherKeys) {
    const v = read(entities.voucher, key);
    if (v) vouchers.set(code, v);
    if (v?.campaignId) codeCampaign.set(code, v.campaignId);
  }
  const tierCampaign = new Map<string, string>();
  for (const [id, key] of tierRefKeys) {
    const ref = read(entities.promotionTierRef, key);
    if (ref) tierCampaign.set(id, ref.campaignId);
  }
  const campaignIds = new Set<string>([...tierCampaign.values(), ...codeCampaign.values()]);
  const orderId = orderSrcKey !== null ? (read(entities.orderSourceId, orderSrcKey)?.orderId ?? null) : null;
  const customerId = customerSrcKey !== null ? (read(entities.customerSourceId, customerSrcKey)?.customerId ?? null) : null;
  const secondOrderKey = orderId !== null ? entities.order.key(projectId, orderId) : null;
  const secondCustomerKey = customerId !== null ? entities.customer.key(projectId, customerId) : null;
  const campaignKeys = [...campaignIds].map((id) => entities.campaign.key(projectId, id));

  const second = await batchRead(
    deps,
    [...campaignKeys, ...[secondOrderKey, secondCustomerKey].filter((k): k is ItemKey => k !== null)].filter((k) => !first.has(keyString(k))),
  );
  const fromEither = <T>(e: { fromItem(item: Item): T }, key: ItemKey | null): T | null => {
    const item = key === null ? undefined : (first.get(keyString(key)) ?? second.get(keyString(key)));
    return item === undefined ? null : e.fromItem(item);
  };
  const campaigns = new Map<string, Campaign>();
  for (const key of campaignKeys) {
    const c = fromEither(entities.campaign, key);
    if (c) campaigns.set(c.id, c);
  }
  const tiers = new Map<string, { tier: PromotionTier; campaign: Campaign }>();
  for (const [id, campaignId] of tierCampaign) {
    const campaign = campaigns.get(campaignId);
    const tier = campaign?.promotionTiers?.find((t) => t.id === id);
    if (campaign && tier) tiers.set(id, { tier, campaign });
  }
  const order = read(entities.order, orderKey) ?? fromEither(entities.order, secondOrderKey);
  const customer = read(entities.customer, customerKey) ?? fromEither(entities.customer, secondCustomerKey);
  hints.learn(projectId, {
    codes: codeCampaign,
    tiers: tierCampaign,
    order: orderSourceId !== null && orderId !== null ? { sourceId: orderSourceId, id: orderId } : null,
    customer: customerSourceId !== null && customerId !== null ? { sourceId: customerSourceId, id: customerId } : null,
  });
  const rules = read(entities.stackingRules, rulesKey);
  return { vouchers, tiers, campaigns, order, customer, rules: rules === null ? null : stripUpdatedAt(rules) };
}

const stripUpdatedAt = ({ updatedAt: _, ...rules }: StackingRules & { updatedAt: string }): StackingRules => rules;
