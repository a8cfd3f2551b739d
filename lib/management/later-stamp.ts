/**
 * The `updatedAt` of a write conditioned on the previous `updatedAt`: now, or one millisecond after
 * the previous stamp when the clock has not passed it. Two writes within one millisecond would
 * otherwise leave the same stamp, and the second's condition would hold over the first's change.
 */
export function laterStamp(now: Date, previous: string | null): string {
  const before = previous === null ? Number.NEGATIVE_INFINITY : Date.parse(previous);
  return new Date(Math.max(now.getTime(), before + 1)).toISOString();
}
