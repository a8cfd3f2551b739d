import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import type { Campaign, PromotionTier } from '../campaigns/campaign.js';
import type { Customer, CustomerRedemptionSummary } from '../customers/customer.js';
import * as entities from '../db/entities.js';
import type { Item, ItemKey } from '../db/entity.js';
import { itemKeyString, keyString } from '../db/key-string.js';
import { RETRY, retryOnConflict } from '../db/transact.js';
import type { Order } from '../orders/order.js';
import type { Runtime } from '../runtime.js';
import { ruleNeeds, ruleTargetIds } from '../validation-rules/rule-evaluation.js';
import { type Catalog, type LineRef, lineRefOf } from '../orders/order-catalog.js';
import { walkCatalog } from '../orders/order-catalog.repo.js';
import type { ValidationRule } from '../validation-rules/validation-rule.js';
import type { Voucher } from '../vouchers/voucher.js';
import { baseName, CAMPAIGN_COUNT_SHARDS, type CampaignCount, counterName, EXACT_CAMPAIGN_SHARD } from './redeemable-rules.js';
import type { StackingRules } from './stacking-rules.js';

export type ValidationReadDeps = Pick<Runtime, 'ddb' | 'tableName' | 'readHints'> & {
  /** The value a caller already made of an item it handed over (lib/qualifications/prefetched-reads.ts), so it is not converted twice. (Not `valueOf`: every object has one.) */
  knownValueOf?: (item: Item) => unknown;
  /**
   * The items at `keys` (distinct; `ids` their strings, `${PK}\u0000${SK}`), undefined where none
   * is, strongly consistent, in place of the engine's own BatchGetItems: a caller that read them
   * already answers from memory (lib/qualifications/prefetched-reads.ts).
   */
  readItems?: (keys: readonly ItemKey[], ids: readonly string[]) => Promise<readonly (Item | undefined)[]>;
};
type Deps = ValidationReadDeps;

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
  /** What the lines sent name of the catalog; null: none sent (the stored order's lines count). */
  lines?: readonly LineRef[] | null | undefined;
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
  /** The validation rules assigned to each voucher (by id), promotion tier and campaign read, in assignment order. */
  validationRules: Map<string, ValidationRule[]>;
  /** The named customer's redemption counters, read when a rule counts redemptions (else empty). */
  redemptionCounts: CustomerRedemptionSummary;
  /** Campaigns' redemption counts (shards summed, the exact shard's own figure beside), read when a rule counts redemptions. */
  campaignCounts: Map<string, CampaignCount>;
  /** The catalog the lines need, and their memberships in the collections the rules name (walkCatalog). */
  catalog: Catalog;
}

/** Keys one BatchGetItem may name. */
const BATCH_KEYS = 100;

/**
 * Consistent BatchGetItems of `keys` (distinct), whatever their entities, ≤ 100 keys each and sent
 * together; unprocessed keys are read again with backoff. Returns the items by key.
 */
async function batchRead(deps: Deps, keys: readonly ItemKey[]): Promise<Map<string, Item>> {
  const found = new Map<string, Item>();
  if (deps.readItems) {
    const byId = new Map<string, ItemKey>();
    for (const k of keys) byId.set(keyString(k), k);
    const ids = [...byId.keys()];
    const items = await deps.readItems([...byId.values()], ids);
    items.forEach((item, i) => {
      if (item) found.set(ids[i] as string, item);
    });
    return found;
  }
  const distinct = [...new Map(keys.map((k) => [keyString(k), { ...k }])).values()];
  // Not remembered by object: each item read is looked up by its string once, here.
  const add = (item: Item) => found.set(itemKeyString(item), item);
  const chunks: Item[][] = [];
  for (let i = 0; i < distinct.length; i += BATCH_KEYS) chunks.push(distinct.slice(i, i + BATCH_KEYS));
  await Promise.all(
    chunks.map((chunk) => {
      let pending = chunk;
      return retryOnConflict('Too many concurrent reads of the redeemables', async () => {
        const res = await deps.ddb.send(new BatchGetCommand({ RequestItems: { [deps.tableName]: { Keys: pending, ConsistentRead: true } } }));
        for (const item of res.Responses?.[deps.tableName] ?? []) add(item);
        pending = res.UnprocessedKeys?.[deps.tableName]?.Keys ?? [];
        return pending.length > 0 ? RETRY : undefined;
      });
    }),
  );
  return found;
}

/**
 * Rounds of reads at most: redeemables, then campaigns and assignments, then rules, then the
 * counters the rules read and the catalog the lines need (source ids, SKU pointers, then the items,
 * then memberships).
 */
const MAX_ROUNDS = 7;

/**
 * Reads what a stacked request names, in rounds of BatchGetItem that each ask only for what the
 * rounds before showed is needed and was not read yet: the vouchers (by code), the promotion tiers'
 * pointers, the stacking rules, the order and the customer (by id, or their source-id claims); then
 * the campaigns of the vouchers and tiers, and the validation-rule assignments of each voucher, tier
 * and campaign; then the rules those name; then the customer's redemption counters when a rule reads
 * them. This container's hints (read-hints.ts) put the campaigns, voucher ids, rules, order and
 * customer they expect into the first round, so a request like an earlier one is read in one round
 * trip; what a round returns always wins over a hint (a wrong hint costs a round, never a wrong
 * answer). Never one read per redeemable or per rule.
 */
export async function readForValidation(deps: Deps, projectId: string, wants: ValidationWants): Promise<ValidationReads> {
  const hints = deps.readHints;
  const orderKey = wants.order?.id !== undefined ? entities.order.key(projectId, wants.order.id) : null;
  const orderSourceId = orderKey === null ? (wants.order?.sourceId ?? null) : null;
  const orderSrcKey = orderSourceId !== null ? entities.orderSourceId.key(projectId, orderSourceId) : null;
  const customerKey = wants.customer?.id !== undefined ? entities.customer.key(projectId, wants.customer.id) : null;
  const customerSourceId = customerKey === null ? (wants.customer?.sourceId ?? null) : null;
  const customerSrcKey = customerSourceId !== null ? entities.customerSourceId.key(projectId, customerSourceId) : null;
  // Each with its key's string, built once: every round looks them all up again.
  const voucherKeys = wants.codes.map((code) => {
    const key = entities.voucher.key(projectId, code);
    return [code, key, keyString(key)] as const;
  });
  const tierRefKeys = wants.tierIds.map((id) => {
    const key = entities.promotionTierRef.key(projectId, id);
    return [id, key, keyString(key)] as const;
  });
  const rulesKey = entities.stackingRules.key(projectId);
  const assignmentsKey = (objectId: string) => entities.objectAssignments.key(projectId, objectId);
  const campaignCountKeys = (campaignId: string) =>
    // The random shards and the exact one (EXACT_CAMPAIGN_SHARD, last).
    Array.from({ length: CAMPAIGN_COUNT_SHARDS + 1 }, (_, shard) => entities.campaignRedemptionCount.key(projectId, campaignId, shard));

  /** The customer's counts of these objects (one item each) and their old summary (its frozen `n:<id>` bases). */
  const countKeys = (customerId: string, objectIds: Iterable<string>): ItemKey[] => [
    entities.customerRedemptionSummary.key(projectId, customerId),
    ...[...objectIds].map((id) => entities.customerRedemptionCount.key(projectId, customerId, id)),
  ];

  const items = new Map<string, Item>();
  /**
   * Each item found is turned into a value once: every round re-derives what it knows (known(),
   * needed()) from the same items, and a key always names one entity. The values are shared by
   * everything this read returns and must not be changed.
   */
  const values = new Map<string, unknown>();
  /** The value of the item at the key whose string is `id`, made once; null when not read or absent. */
  const readAt = <T>(e: { fromItem(item: Item): T }, id: string): T | null => {
    const made = values.get(id);
    if (made !== undefined) return made as T;
    const item = items.get(id);
    if (item === undefined) return null;
    const value = (deps.knownValueOf?.(item) as T | undefined) ?? e.fromItem(item);
    values.set(id, value);
    return value;
  };
  const read = <T>(e: { fromItem(item: Item): T }, key: ItemKey | null): T | null => (key === null ? null : readAt(e, keyString(key)));

  /**
   * What the reads so far show: the redeemables' campaigns, the objects that may carry rules, the
   * order's and customer's ids. Derived again only when a round brought items (the items only grow).
   */
  let knownAt = -1;
  let knownSoFar: ReturnType<typeof deriveKnown> | undefined;
  const known = (): ReturnType<typeof deriveKnown> => {
    if (knownSoFar === undefined || knownAt !== items.size) {
      knownSoFar = deriveKnown();
      knownAt = items.size;
    }
    return knownSoFar;
  };
  const deriveKnown = () => {
    const vouchers = new Map<string, Voucher>();
    const codeCampaign = new Map<string, string>();
    for (const [code, , id] of voucherKeys) {
      const v = readAt(entities.voucher, id);
      if (v) vouchers.set(code, v);
      if (v?.campaignId) codeCampaign.set(code, v.campaignId);
    }
    const tierCampaign = new Map<string, string>();
    for (const [tierId, , id] of tierRefKeys) {
      const ref = readAt(entities.promotionTierRef, id);
      if (ref) tierCampaign.set(tierId, ref.campaignId);
    }
    const campaignIds = new Set<string>([...tierCampaign.values(), ...codeCampaign.values()]);
    const voucherIds = new Set([...vouchers.values()].map((v) => v.id));
    const objectIds = [...new Set([...voucherIds, ...tierCampaign.keys(), ...campaignIds])];
    const orderId = orderSrcKey !== null ? (read(entities.orderSourceId, orderSrcKey)?.orderId ?? null) : null;
    const customerId = customerSrcKey !== null ? (read(entities.customerSourceId, customerSrcKey)?.customerId ?? null) : null;
    return { vouchers, voucherIds, codeCampaign, tierCampaign, campaignIds, objectIds, orderId, customerId };
  };

  const counterKey = entities.validationRuleCounter.key(projectId);
  const cache = hints.rulesOf(projectId);
  /** The project's rule counts, once read (null before). */
  const counts = () => (asked.has(keyString(counterKey)) ? (read(entities.validationRuleCounter, counterKey) ?? { count: 0 }) : null);
  /** The container's copy of the rules, when the revision read says it is current. */
  const current = () => {
    const c = counts();
    return c !== null && cache !== undefined && cache.revision === (c.revision ?? 0) ? cache : null;
  };
  /** Which objects may carry rules, from the project's assignment counts: unknown until read (then: any). */
  const assignable = (): { any: boolean; vouchers: boolean } => {
    const c = counts();
    if (c === null) return { any: true, vouchers: true };
    const any = (c.assignments ?? 0) > 0;
    // Counts from before vouchers' assignments were counted apart lack the field: then any voucher may have some.
    return { any, vouchers: any && (c.voucherAssignments === undefined || c.voucherAssignments > 0) };
  };
  /** An object's rule ids: from its assignments item as read, else the current copy; undefined while unknown. */
  const ruleIdsOf = (objectId: string, voucherIds: ReadonlySet<string>): readonly string[] | undefined => {
    // Checked first (the counts are read in the first round, before any assignment is asked for): an
    // object the counts rule out was never asked for, so no key is built for it.
    if (counts() !== null) {
      const may = assignable();
      if (!may.any || (!may.vouchers && voucherIds.has(objectId))) return [];
    }
    const key = assignmentsKey(objectId);
    if (asked.has(keyString(key))) return read(entities.objectAssignments, key)?.ruleIds ?? [];
    return current()?.objects.get(objectId);
  };
  const ruleOf = (ruleId: string): ValidationRule | undefined => {
    const key = entities.validationRule.key(projectId, ruleId);
    return (asked.has(keyString(key)) ? read(entities.validationRule, key) : current()?.rules.get(ruleId)) ?? undefined;
  };

  const needed = (): ItemKey[] => {
    const k = known();
    const keys: ItemKey[] = [
      ...voucherKeys.map(([, key]) => key),
      ...tierRefKeys.map(([, key]) => key),
      rulesKey,
      counterKey,
      ...[orderKey, orderSrcKey, customerKey, customerSrcKey].filter((key): key is ItemKey => key !== null),
      ...[...k.campaignIds].map((id) => entities.campaign.key(projectId, id)),
    ];
    if (k.orderId !== null) keys.push(entities.order.key(projectId, k.orderId));
    if (k.customerId !== null) keys.push(entities.customer.key(projectId, k.customerId));
    // Until the counts are read nothing says which objects have rules: the first round asks for none.
    let counters = false;
    const rulesKnown: ValidationRule[] = [];
    if (counts() !== null) {
      for (const id of k.objectIds) {
        const ruleIds = ruleIdsOf(id, k.voucherIds);
        if (ruleIds === undefined) keys.push(assignmentsKey(id));
        for (const ruleId of ruleIds ?? []) {
          const rule = ruleOf(ruleId);
          if (rule === undefined && !asked.has(keyString(entities.validationRule.key(projectId, ruleId))))
            keys.push(entities.validationRule.key(projectId, ruleId));
          if (rule && ruleNeeds([rule]).counters) counters = true;
          if (rule) rulesKnown.push(rule);
        }
      }
    }
    keys.push(...catalogOf(rulesKnown).keys);
    const customerId = wants.customer?.id ?? k.customerId;
    if (counters && customerId !== undefined && customerId !== null) keys.push(...countKeys(customerId, k.objectIds));
    if (counters) for (const id of k.campaignIds) keys.push(...campaignCountKeys(id));
    return keys;
  };

  /** What the hints expect the later rounds to need: the campaigns, order and customer, and the counts the copied rules read. */
  const guessed = (): ItemKey[] => {
    const campaigns = new Set<string>();
    const objects = new Set<string>(wants.tierIds);
    let unknown = false;
    for (const code of wants.codes) {
      const id = hints.campaignOfCode(projectId, code);
      if (id === undefined) unknown = true;
      else campaigns.add(id);
      const voucherId = hints.voucherIdOfCode(projectId, code);
      if (voucherId !== undefined) objects.add(voucherId);
    }
    for (const tierId of wants.tierIds) {
      const id = hints.campaignOfTier(projectId, tierId);
      if (id === undefined) unknown = true;
      else campaigns.add(id);
    }
    if (unknown) for (const id of hints.recentCampaigns(projectId)) campaigns.add(id);
    for (const id of campaigns) objects.add(id);
    const keys: ItemKey[] = [...campaigns].map((id) => entities.campaign.key(projectId, id));
    const copied = [...objects].flatMap((id) => (cache?.objects.get(id) ?? []).flatMap((ruleId) => cache?.rules.get(ruleId) ?? []));
    const counters = ruleNeeds(copied).counters;
    // Whether the lines' targeted ids were deleted, asked in this round rather than after the rules'.
    const targeted = copied.length > 0 && wants.lines ? ruleTargetIds(copied).items : new Set<string>();
    for (const r of targeted.size > 0 ? (wants.lines ?? []) : [])
      for (const id of [r.productId, r.skuId]) if (id !== null && targeted.has(id)) keys.push(entities.catalogGone.key(projectId, id));
    const guessedOrderId = orderSourceId !== null ? hints.orderOfSourceId(projectId, orderSourceId) : undefined;
    const guessedCustomerId = customerSourceId !== null ? hints.customerOfSourceId(projectId, customerSourceId) : undefined;
    if (guessedOrderId !== undefined) keys.push(entities.order.key(projectId, guessedOrderId));
    if (guessedCustomerId !== undefined) keys.push(entities.customer.key(projectId, guessedCustomerId));
    const customerId = wants.customer?.id ?? guessedCustomerId;
    if (counters && customerId !== undefined) keys.push(...countKeys(customerId, objects));
    if (counters) for (const id of campaigns) keys.push(...campaignCountKeys(id));
    return keys;
  };

  /** The lines' catalog as read so far, and what is left to read: lines without a price, and every line when a rule names a collection. */
  const catalogOf = (rules: readonly ValidationRule[]) => {
    const { collections, items } = ruleTargetIds(rules);
    const all = collections.length > 0;
    const orderId = known().orderId;
    const stored =
      wants.lines || !all ? null : (read(entities.order, orderKey) ?? (orderId !== null ? read(entities.order, entities.order.key(projectId, orderId)) : null));
    const lines = wants.lines ?? (stored ? stored.items.map((i) => ({ ...lineRefOf(i), priced: true })) : []);
    return walkCatalog(projectId, lines, all, collections, (e, key) => (asked.has(keyString(key)) ? read(e, key) : undefined), items);
  };

  const asked = new Set<string>();
  let next = [...needed(), ...guessed()];
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const fresh = next.filter((key) => !asked.has(keyString(key)));
    if (fresh.length === 0) break;
    for (const key of fresh) asked.add(keyString(key));
    const got = await batchRead(deps, fresh);
    for (const [key, item] of got) items.set(key, item);
    next = needed();
  }

  const k = known();
  const campaigns = new Map<string, Campaign>();
  for (const id of k.campaignIds) {
    const c = read(entities.campaign, entities.campaign.key(projectId, id));
    if (c) campaigns.set(c.id, c);
  }
  const tiers = new Map<string, { tier: PromotionTier; campaign: Campaign }>();
  for (const [id, campaignId] of k.tierCampaign) {
    const campaign = campaigns.get(campaignId);
    const tier = campaign?.promotionTiers?.find((t) => t.id === id);
    if (campaign && tier) tiers.set(id, { tier, campaign });
  }
  const order = read(entities.order, orderKey) ?? (k.orderId !== null ? read(entities.order, entities.order.key(projectId, k.orderId)) : null);
  const customer =
    read(entities.customer, customerKey) ?? (k.customerId !== null ? read(entities.customer, entities.customer.key(projectId, k.customerId)) : null);
  const validationRules = new Map<string, ValidationRule[]>();
  const objectRuleIds = new Map<string, readonly string[]>();
  for (const id of k.objectIds) {
    const ruleIds = ruleIdsOf(id, k.voucherIds);
    // Unknown only when the rounds ran out: the object is left out, and its redeemable has no rules to pass.
    if (ruleIds === undefined) continue;
    objectRuleIds.set(id, ruleIds);
    validationRules.set(
      id,
      ruleIds.flatMap((ruleId) => ruleOf(ruleId) ?? []),
    );
  }
  const countsRead = counts();
  if (countsRead !== null) {
    hints.learnRules(projectId, countsRead.revision ?? 0, objectRuleIds, [...new Set([...validationRules.values()].flat())]);
  }
  const summaryCustomerId = wants.customer?.id ?? k.customerId;
  const redemptionCounts: CustomerRedemptionSummary = {};
  if (summaryCustomerId !== undefined && summaryCustomerId !== null) {
    const summary = read(entities.customerRedemptionSummary, entities.customerRedemptionSummary.key(projectId, summaryCustomerId));
    for (const id of k.objectIds) {
      const key = entities.customerRedemptionCount.key(projectId, summaryCustomerId, id);
      if (!asked.has(keyString(key))) continue;
      const base = summary?.[counterName(id)] ?? 0;
      redemptionCounts[counterName(id)] = base + (read(entities.customerRedemptionCount, key)?.count ?? 0);
      if (base !== 0) redemptionCounts[baseName(id)] = base;
    }
  }
  hints.learn(projectId, {
    codes: k.codeCampaign,
    tiers: k.tierCampaign,
    vouchers: new Map([...k.vouchers].map(([code, v]) => [code, v.id])),
    order: orderSourceId !== null && k.orderId !== null ? { sourceId: orderSourceId, id: k.orderId } : null,
    customer: customerSourceId !== null && k.customerId !== null ? { sourceId: customerSourceId, id: k.customerId } : null,
  });
  const campaignCounts = new Map<string, CampaignCount>();
  for (const id of k.campaignIds) {
    const shards = campaignCountKeys(id);
    if (!shards.every((key) => asked.has(keyString(key)))) continue;
    const counts = shards.map((key) => read(entities.campaignRedemptionCount, key)?.count ?? 0);
    campaignCounts.set(id, { total: counts.reduce((sum, n) => sum + n, 0), exact: counts[EXACT_CAMPAIGN_SHARD] ?? 0 });
  }
  const stacking = read(entities.stackingRules, rulesKey);
  return {
    vouchers: k.vouchers,
    tiers,
    campaigns,
    order,
    customer,
    rules: stacking === null ? null : stripUpdatedAt(stacking),
    validationRules,
    redemptionCounts,
    campaignCounts,
    catalog: catalogOf([...new Set([...validationRules.values()].flat())]).catalog,
  };
}

const stripUpdatedAt = ({ updatedAt: _, ...rules }: StackingRules & { updatedAt: string }): StackingRules => rules;
