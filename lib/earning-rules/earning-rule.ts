import type { Camelize } from '../case.js';
import type { ExpirationRules } from '../loyalties/expiration.js';
import type { PendingPointsPeriod } from '../loyalties/pending-points.js';
import type { EarningRuleInput } from './earning-rule.schema.js';

export type EarningRuleLoyalty = Camelize<EarningRuleInput['loyalty']>;

/** A loyalty program's rule: a custom event of this name (or a paid order, event `order.paid`) earns its card `loyalty` points. */
export interface EarningRule {
  id: string;
  projectId: string;
  campaignId: string;
  /** The custom event name, or `order.paid` (the rule's partition key). */
  event: string;
  /** The custom event's schema; null for an `order.paid` rule. */
  customEventSchemaId: string | null;
  loyalty: EarningRuleLoyalty;
  banner: string | null;
  active: boolean;
  startDate: string | null;
  expirationDate: string | null;
  /** Overrides the program's expiration rules for points this rule adds. */
  expirationRules: ExpirationRules | null;
  /** An `order.paid` rule's pending period: its points wait that long before reaching the card. Absent on rules stored before it existed. */
  pendingPoints?: PendingPointsPeriod | null;
  metadata: Record<string, unknown>;
  createdAt: string;
  /** Null until the rule is first changed (and on rules stored before updates existed). */
  updatedAt: string | null;
}

/** Where a rule is stored, found by its id (the `earning_rule_ref` item). */
export interface EarningRuleLocation {
  projectId: string;
  id: string;
  event: string;
  campaignId: string;
}

/** Whether the rule applies at `now` (its switch and its own validity window). */
export const ruleApplies = (rule: EarningRule, now: string): boolean =>
  rule.active && (rule.startDate === null || rule.startDate <= now) && (rule.expirationDate === null || now <= rule.expirationDate);

/**
 * Points a rule gives for an event's metadata: FIXED gives its points; PROPORTIONAL gives
 * `points` for every whole `every` of the numeric metadata `property` (none when absent or not a number).
 */
export function pointsFor(rule: EarningRule, metadata: Record<string, unknown>): number {
  const l = rule.loyalty;
  if (l.type === 'FIXED') return l.points;
  if (l.calculationType !== 'CUSTOM_EVENT_METADATA') return 0;
  const { every, points, property } = l.customEvent.metadata;
  const value = Object.hasOwn(metadata, property) ? metadata[property] : undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return 0;
  return Math.floor(value / every) * points;
}
