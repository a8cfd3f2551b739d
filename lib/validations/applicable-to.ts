import type { CoveredLine } from '../redemptions/discount.js';
import { itemMatches, type RuleOrderItem } from '../validation-rules/rule-evaluation.js';
import type { ApplicableToEntry, ValidationRule } from '../validation-rules/validation-rule.js';

/*
 * Which order lines, and how many of their units, an item discount touches under the
 * `applicable_to` / `inapplicable_to` of a redeemable's validation rules (the reference's
 * ApplicableTo). Pure: the calculator (lib/redemptions/effects.ts) applies the result.
 */

/** One effect of an `included` entry (the reference's ApplicableToEffect); absent = APPLY_TO_EVERY. */
type Effect = NonNullable<ApplicableToEntry['effect']>;

const unitsCap = (n: number | undefined): number => (n === undefined || n <= 0 ? Number.POSITIVE_INFINITY : Math.floor(n));

/**
 * The lines a redeemable's item discount covers, or undefined when its rules restrict nothing (every
 * line). Entries of every rule count: a line named by any `excluded` entry is never covered; when
 * some rule has `included` entries, only the lines they name are covered, each by the first entry
 * naming it (in rule, then entry order), with that entry's effect and limits:
 * - APPLY_TO_EVERY: every matching line, at most `quantity_limit` units of each;
 * - APPLY_TO_CHEAPEST / APPLY_TO_MOST_EXPENSIVE: the one matching line of lowest / highest unit price
 *   (the first on a tie), one unit of it, or `quantity_limit` units;
 * - APPLY_FROM_CHEAPEST / APPLY_FROM_MOST_EXPENSIVE: matching lines from the lowest / highest unit
 *   price on, every unit until `aggregated_quantity_limit` units are covered;
 * and for every effect `aggregated_quantity_limit` bounds the units over the entry's lines,
 * `amount_limit` the discount on each line and `aggregated_amount_limit` the entry's whole discount.
 */
export function coveredLines(rules: readonly Pick<ValidationRule, 'applicableTo'>[], items: readonly RuleOrderItem[]): CoveredLine[] | undefined {
  const included = rules.flatMap((r) => r.applicableTo.included);
  const excluded = rules.flatMap((r) => r.applicableTo.excluded);
  if (included.length === 0 && excluded.length === 0) return undefined;
  const open = items.map((item) => !excluded.some((e) => itemMatches(item, e)));
  if (included.length === 0) return items.flatMap((_, index) => (open[index] ? [{ index }] : []));
  const out: CoveredLine[] = [];
  included.forEach((entry, k) => {
    const matching = items.flatMap((item, index) => (open[index] && itemMatches(item, entry) ? [index] : []));
    for (const index of matching) open[index] = false;
    out.push(...linesOfEntry(entry, matching, items, `e${k}`));
  });
  return out;
}

function linesOfEntry(entry: ApplicableToEntry, matching: number[], items: readonly RuleOrderItem[], group: string): CoveredLine[] {
  const effect: Effect = entry.effect ?? 'APPLY_TO_EVERY';
  const price = (i: number) => items[i]?.price ?? 0;
  const quantity = (i: number) => Math.max(items[i]?.quantity ?? 0, 0);
  // Stable: equal prices keep the order's line order.
  const cheapestFirst = [...matching].sort((a, b) => price(a) - price(b) || a - b);
  const dearestFirst = [...matching].sort((a, b) => price(b) - price(a) || a - b);
  let chosen: { index: number; units: number }[];
  switch (effect) {
    case 'APPLY_TO_CHEAPEST':
    case 'APPLY_TO_MOST_EXPENSIVE': {
      const index = (effect === 'APPLY_TO_CHEAPEST' ? cheapestFirst : dearestFirst)[0];
      chosen = index === undefined ? [] : [{ index, units: Math.min(quantity(index), entry.quantity_limit ?? 1) }];
      break;
    }
    case 'APPLY_FROM_CHEAPEST':
    case 'APPLY_FROM_MOST_EXPENSIVE':
      chosen = (effect === 'APPLY_FROM_CHEAPEST' ? cheapestFirst : dearestFirst).map((index) => ({
        index,
        units: Math.min(quantity(index), unitsCap(entry.quantity_limit)),
      }));
      break;
    default:
      chosen = matching.map((index) => ({ index, units: Math.min(quantity(index), unitsCap(entry.quantity_limit)) }));
  }
  let room = unitsCap(entry.aggregated_quantity_limit);
  const lines: CoveredLine[] = [];
  for (const c of chosen) {
    const units = Math.min(c.units, room);
    room -= units;
    if (units <= 0) continue;
    lines.push({
      index: c.index,
      ...(units < quantity(c.index) ? { units } : {}),
      ...(entry.amount_limit !== undefined ? { amountLimit: entry.amount_limit } : {}),
      ...(entry.aggregated_amount_limit !== undefined ? { group, groupAmountLimit: entry.aggregated_amount_limit } : {}),
    });
  }
  return lines.sort((a, b) => a.index - b.index);
}
