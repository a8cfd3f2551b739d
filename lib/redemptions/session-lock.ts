/*
 * LOCK validation sessions, the pure part. A validation with `session: {type: 'LOCK'}` reserves, on
 * each voucher it finds applicable, one use (when the voucher has a redemption limit) and the gift
 * credits it would take, until the session expires. Reservations live on the voucher item itself
 * (`sessions`, a map from session key to its reservation), so the conditions of a redemption see
 * them in the same item they already hold. Expiry is decided here, against the clock: an expired
 * reservation counts for nothing from the moment it expires, whether or not a write has pruned it.
 */

/** One session's hold on one voucher. */
export interface SessionReservation {
  /** ISO time after which the reservation counts for nothing. */
  expiresAt: string;
  /** Uses held: 1 on a voucher with a redemption limit, 0 on one without (nothing to hold). */
  uses: number;
  /** Gift credits held (0 on a voucher that is not a gift card). */
  credits: number;
  /** True when read from its own item (lib/db/entities.ts voucherSessionHold); absent for a hold in the voucher item's old `sessions` map. */
  item?: true;
}

/** A voucher's reservations by session key. */
export type VoucherSessions = Readonly<Record<string, SessionReservation>>;

/** The reference's `ttl_unit` values, in milliseconds. */
export const SESSION_TTL_UNITS = {
  NANOSECONDS: 1e-6,
  MICROSECONDS: 1e-3,
  MILLISECONDS: 1,
  SECONDS: 1_000,
  MINUTES: 60_000,
  HOURS: 3_600_000,
  DAYS: 86_400_000,
} as const;
export type SessionTtlUnit = keyof typeof SESSION_TTL_UNITS;

/** The reference's default when only `type` is sent: 7 days. */
export const DEFAULT_SESSION_TTL_MS = 7 * SESSION_TTL_UNITS.DAYS;
/** The longest hold this service grants (a year): a session is a checkout, not a reservation of stock. */
export const MAX_SESSION_TTL_MS = 365 * SESSION_TTL_UNITS.DAYS;

/**
 * A session's lifetime in whole milliseconds (at least 1): `ttl` in `unit`, the default 7 days when
 * `ttl` is absent; a `unit` without `ttl` keeps the default. Sub-millisecond units round up, so a
 * session is never shorter than asked.
 * @returns null when the lifetime is out of range (≤ 0, not finite, above a year): the caller answers 400.
 */
export function sessionTtlMs(ttl: number | undefined, unit: SessionTtlUnit | undefined): number | null {
  if (ttl === undefined) return DEFAULT_SESSION_TTL_MS;
  if (!Number.isFinite(ttl) || ttl <= 0) return null;
  const ms = Math.ceil(ttl * SESSION_TTL_UNITS[unit ?? 'DAYS']);
  return ms > MAX_SESSION_TTL_MS ? null : Math.max(1, ms);
}

const isLive = (r: SessionReservation, nowMs: number): boolean => Date.parse(r.expiresAt) > nowMs;

/** What live reservations hold on a voucher, leaving out `exceptKey` (the session a request names, whose hold is its own). */
export function heldBySessions(sessions: VoucherSessions | undefined, nowMs: number, exceptKey: string | null = null): { uses: number; credits: number } {
  let uses = 0;
  let credits = 0;
  for (const [key, r] of Object.entries(sessions ?? {})) {
    if (key === exceptKey || !isLive(r, nowMs)) continue;
    uses += r.uses;
    credits += r.credits;
  }
  return { uses, credits };
}

/** The session keys whose reservations have expired (a write on the voucher removes them). */
export const expiredSessionKeys = (sessions: VoucherSessions | undefined, nowMs: number): string[] =>
  Object.entries(sessions ?? {})
    .filter(([, r]) => !isLive(r, nowMs))
    .map(([key]) => key);

/** The live reservation `key` holds, or null (none, or expired). */
export function liveReservation(sessions: VoucherSessions | undefined, key: string, nowMs: number): SessionReservation | null {
  const r = sessions?.[key];
  return r !== undefined && isLive(r, nowMs) ? r : null;
}

/**
 * Uses of a voucher a request may still take: the limit minus what was redeemed and what other
 * live sessions hold. A request that names a session holding a use may take that use too (it is
 * already counted out of the others'). Null = no limit.
 */
export function usesLeft(
  voucher: { redemptionQuantity: number | null; redeemedQuantity: number; sessions?: VoucherSessions },
  nowMs: number,
  sessionKey: string | null,
): number | null {
  if (voucher.redemptionQuantity === null) return null;
  return Math.max(0, voucher.redemptionQuantity - voucher.redeemedQuantity - heldBySessions(voucher.sessions, nowMs, sessionKey).uses);
}

/** Gift credits a request may still take: the balance minus what other live sessions hold. */
export function creditsLeft(balance: number, sessions: VoucherSessions | undefined, nowMs: number, sessionKey: string | null): number {
  return Math.max(0, balance - heldBySessions(sessions, nowMs, sessionKey).credits);
}
