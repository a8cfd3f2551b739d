/*
 * Integer money arithmetic for the calculator. Every amount is an integer in the smallest currency
 * unit; products and quotients go through BigInt so a large order never loses a unit to a double's
 * 53-bit mantissa, and each rounding rule lives here once (docs/decisions.md, "The calculator").
 */

/**
 * A caller's figure as the calculator's money: the nearest integer (halves up), never negative.
 * The stored discount schema allows fractional `amount_off`/`fixed_amount`; a cent cannot be split,
 * and a negative or non-finite figure can only be a caller's bug, which must not lower a total.
 */
export function toMoney(value: number | null | undefined): number {
  if (value === null || value === undefined || !Number.isFinite(value) || value <= 0) return 0;
  return Math.min(Math.floor(value + 0.5), Number.MAX_SAFE_INTEGER);
}

/** `percent_off` is scaled by 10^6 before the exact product: six decimals is finer than any stored percent needs. */
const PERCENT_SCALE = 1_000_000n;

/**
 * `percent` % of `amount`, rounded to the nearest unit with halves up (12.5 → 13). The percent is
 * clamped to 0–100 so that no percentage can take off more than the amount it applies to.
 */
export function percentOf(amount: number, percent: number): number {
  if (amount <= 0 || !Number.isFinite(percent) || percent <= 0) return 0;
  const scaled = BigInt(Math.round(Math.min(percent, 100) * Number(PERCENT_SCALE)));
  const denominator = 100n * PERCENT_SCALE;
  const numerator = BigInt(amount) * scaled;
  return Number((2n * numerator + denominator) / (2n * denominator));
}

/**
 * Splits `total` over the weights by largest remainder: each share is the floor of its exact
 * proportional share, and the units left over go one each to the largest remainders (ties to the
 * lower index), so the shares always sum to exactly `total` and the split is deterministic.
 * All-zero weights share nothing (every share 0): there is no proportion to follow.
 */
export function splitByWeights(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, w) => a + BigInt(w), 0n);
  if (total <= 0 || sum === 0n) return weights.map(() => 0);
  const t = BigInt(total);
  const shares = weights.map((w) => (t * BigInt(w)) / sum);
  const remainders = weights.map((w, i) => ({ i, r: (t * BigInt(w)) % sum }));
  let left = Number(t - shares.reduce((a, s) => a + s, 0n));
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  const result = shares.map(Number);
  for (const { i } of remainders) {
    if (left === 0) break;
    result[i] = (result[i] as number) + 1;
    left -= 1;
  }
  return result;
}

/**
 * Splits `total` by the weights with each share at most its cap: shares that overflow their cap are
 * pinned to it and the rest is split again over the others, until nothing overflows. The result
 * sums to min(total, sum of caps) whenever some uncapped line has weight; a total no line can take
 * is given to the lines still open in proportion to their room (caps), so nothing is lost silently.
 */
export function splitCapped(total: number, weights: readonly number[], caps: readonly number[]): number[] {
  const shares = caps.map(() => 0);
  const room = (i: number): number => (caps[i] as number) - (shares[i] as number);
  let left = Math.min(
    Math.max(total, 0),
    caps.reduce((a, c) => a + c, 0),
  );
  const open = new Set(caps.flatMap((c, i) => (c > 0 ? [i] : [])));
  while (left > 0 && open.size > 0) {
    const ids = [...open];
    const byWeight = ids.map((i) => weights[i] ?? 0);
    const split = splitByWeights(left, byWeight.some((w) => w > 0) ? byWeight : ids.map(room));
    const over = ids.filter((i, k) => (split[k] as number) > room(i));
    if (over.length === 0) {
      ids.forEach((i, k) => {
        shares[i] = (shares[i] as number) + (split[k] as number);
      });
      break;
    }
    // Pin the overflowing lines to their caps and split what is left again over the others.
    for (const i of over) {
      left -= room(i);
      shares[i] = caps[i] as number;
      open.delete(i);
    }
  }
  return shares;
}
