import type { CustomerRedemptionSummary } from '../customers/customer.js';
import type { CoveredLine } from '../redemptions/discount.js';
import { countRange, evaluateValidationRules, type RuleContext, type RuleViolationKey, ruleNeeds, ruleOrderItem } from '../validation-rules/rule-evaluation.js';
import type { ValidationRule } from '../validation-rules/validation-rule.js';
import { coveredLines } from './applicable-to.js';
import type { EvaluatedOrder } from './evaluation.js';

/*
 * A redeemable's validation rules in a validation or redemption: which rules are its, the context
 * they are evaluated on, and their verdict. Pure: the rules and counts come from the one read of
 * lib/validations/validation.repo.ts.
 */

/** Shards of a campaign's redemption count (lib/db/entities.ts campaignRedemptionCount). */
export const CAMPAIGN_COUNT_SHARDS = 8;
/**
 * The campaign's exact count shard, never picked at random: a redemption whose rules bound the
 * campaign's count ADDs to it on condition that it stays within the bound (lib/redemptions/redemption.repo.ts).
 */
export const EXACT_CAMPAIGN_SHARD = CAMPAIGN_COUNT_SHARDS;

/** A customer's count of their redemptions of a voucher (by id), promotion tier or campaign, as the rules see it (count item + old base). */
export const counterName = (objectId: string): `n:${string}` => `n:${objectId}`;
/** The part of that count an old summary item holds (its `n:<id>` attribute, frozen). */
export const baseName = (objectId: string): `b:${string}` => `b:${objectId}`;

/** The rules of one redeemable: its campaign's, then its own (voucher id or tier id), each in assignment order. */
export function rulesOfRedeemable(byObject: ReadonlyMap<string, readonly ValidationRule[]>, ownId: string, campaignId: string | null): ValidationRule[] {
  return [...(campaignId !== null ? (byObject.get(campaignId) ?? []) : []), ...(byObject.get(ownId) ?? [])];
}

/** The customer a rule sees: the stored one with the request's metadata over it, or the one the request names (new: no metadata stored). */
export interface RuleCustomer {
  id: string;
  sourceId: string | null;
  metadata: Record<string, unknown>;
  /** The segments the stored customer is in (its item's `segmentIds`): what `customer.segment` compares. */
  segmentIds?: readonly string[] | undefined;
}

/** The per-customer counts a redemption compared, so its commit can condition on them (lib/redemptions/redemption.repo.ts). */
export interface CountedAs {
  /** The voucher id or promotion tier id. */
  objectId: string;
  campaignId: string | null;
  own: number;
  inCampaign: number;
  /** What of `own` / `inCampaign` a summary written before the count items holds (`n:<id>`, never written again): the commit conditions the count items on the rest. */
  base?: { own: number; inCampaign: number };
}

/**
 * A campaign's redemption count as read: the sum of its shards, and what the exact shard alone held
 * (the commit conditions the exact shard, so it needs the rest of the sum).
 */
export interface CampaignCount {
  total: number;
  exact: number;
}

/**
 * The bound a redemption's commit holds its campaign's exact count shard to (EXACT_CAMPAIGN_SHARD),
 * before its own ADD: the run of campaign counts over which its rules pass (countRange), less what
 * the other shards held when read. Null sides: no bound.
 */
export interface CampaignBound {
  campaignId: string;
  min: number | null;
  max: number | null;
}

export type RuleVerdict =
  | { ok: true; lines: CoveredLine[] | undefined; countedAs: CountedAs | null; campaignBound: CampaignBound | null }
  | { ok: false; key: RuleViolationKey; message: string | null; ruleId: string | null };

export interface RuleInputs {
  rules: readonly ValidationRule[];
  order: EvaluatedOrder;
  /** Null when the request names no customer. */
  customer: RuleCustomer | null;
  /** The named customer's counts (empty for a customer not stored yet: they have redeemed nothing). */
  counts: CustomerRedemptionSummary;
  campaignCount: CampaignCount | null;
  ownId: string;
  campaignId: string | null;
  /** Whether a line (by its catalog ids) is in a collection, as the request read the memberships once for every rule. */
  inCollection?: ((ids: { productId: string | null; skuId: string | null }, collectionId: string) => boolean) | undefined;
  /** Whether a line's product or SKU id is of one deleted (no target matches it). */
  gone?: ((id: string) => boolean) | undefined;
}

/**
 * Evaluates a redeemable's rules (the first failing rule decides, see evaluateValidationRules) and,
 * when they pass, the order lines an item discount may touch (their `applicable_to`) and the counts
 * a commit must find unchanged (when a rule reads this customer's redemption counts).
 */
export function judgeRules(input: RuleInputs): RuleVerdict {
  if (input.rules.length === 0) return { ok: true, lines: undefined, countedAs: null, campaignBound: null };
  const items = input.order.items.map((i) => ruleOrderItem(i, input.inCollection, input.gone));
  const own = input.customer ? (input.counts[counterName(input.ownId)] ?? 0) : null;
  // A standalone voucher is its own campaign for `redemption.count.per_campaign`.
  const inCampaign = input.customer ? (input.counts[counterName(input.campaignId ?? input.ownId)] ?? 0) : null;
  const ctx: RuleContext = {
    order: { amount: input.order.amount, items, metadata: input.order.metadata },
    customer: input.customer,
    counters: { customerRedemptionsOfRedeemable: own, customerRedemptionsInCampaign: inCampaign, campaignRedemptions: input.campaignCount?.total ?? null },
  };
  const outcome = evaluateValidationRules(input.rules, ctx);
  if (!outcome.ok) return { ok: false, key: outcome.key, message: outcome.message, ruleId: outcome.ruleId ?? null };
  const base = { own: input.counts[baseName(input.ownId)] ?? 0, inCampaign: input.counts[baseName(input.campaignId ?? input.ownId)] ?? 0 };
  const countedAs =
    ruleNeeds(input.rules).counters && own !== null && inCampaign !== null
      ? { objectId: input.ownId, campaignId: input.campaignId, own, inCampaign, ...(base.own !== 0 || base.inCampaign !== 0 ? { base } : {}) }
      : null;
  return { ok: true, lines: coveredLines(input.rules, items), countedAs, campaignBound: campaignBoundOf(input, ctx) };
}

/**
 * The bound the commit must hold the campaign's exact shard to, when the rules bound the campaign's
 * count (null when they do not read it, or no count changes their verdict: then the redemption
 * counts on a random shard). The per-customer counts are held unchanged by the commit (CountedAs), so
 * the campaign's run is computed with them as read.
 */
function campaignBoundOf(input: RuleInputs, ctx: RuleContext): CampaignBound | null {
  const count = input.campaignCount;
  if (input.campaignId === null || count === null) return null;
  if (!input.rules.some((r) => Object.values(r.rules.conditions).some((c) => c.name === 'campaign.redemptions.count'))) return null;
  const range = countRange(input.rules, ctx, 'campaignRedemptions');
  if (range === null || (range.min === null && range.max === null)) return null;
  const others = count.total - count.exact;
  return { campaignId: input.campaignId, min: range.min === null ? null : range.min - others, max: range.max === null ? null : range.max - others };
}

/** Two bounds on one campaign's exact shard, both held (a redemption of two of its redeemables). */
export function bothBounds(a: CampaignBound, b: CampaignBound): CampaignBound {
  const pick = (x: number | null, y: number | null, f: (p: number, q: number) => number) => (x === null ? y : y === null ? x : f(x, y));
  return { campaignId: a.campaignId, min: pick(a.min, b.min, Math.max), max: pick(a.max, b.max, Math.min) };
}
