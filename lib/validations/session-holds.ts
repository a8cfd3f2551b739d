import { expiredSessionKeys, type SessionReservation } from '../redemptions/session-lock.js';
import type { Voucher } from '../vouchers/voucher.js';
import type { Evaluation } from './evaluation.js';

/** What a LOCK session writes on one voucher: its reservation, and the expired holds the same write prunes. */
export interface SessionHold {
  /** The voucher as the evaluation read it (the write holds only while it is still so). */
  voucher: Voucher;
  reservation: SessionReservation;
  /** Session keys whose holds have expired (never the request's own). */
  prune: string[];
}

/**
 * The holds a valid evaluation with a LOCK session writes: on each APPLICABLE voucher, one use
 * when it has a redemption limit and the gift credits its step takes, until the session expires.
 * A voucher with nothing to hold (no limit, no credits) gets none; an invalid evaluation holds
 * nothing (its redemption would fail whole). A voucher named twice is held once. Pure.
 */
export function sessionHoldsOf(e: Evaluation, nowMs: number): SessionHold[] {
  if (e.session === null || !e.valid) return [];
  const key = e.session.key;
  const expiresAt = new Date(nowMs + e.session.ttlMs).toISOString();
  const holds = new Map<string, SessionHold>();
  for (const r of e.redeemables) {
    const v = r.voucher;
    if (r.status !== 'APPLICABLE' || r.object !== 'voucher' || v === null || r.step === null || holds.has(v.code)) continue;
    const uses = v.redemptionQuantity === null ? 0 : 1;
    const credits = v.gift ? r.step.credits : 0;
    if (uses === 0 && credits === 0) continue;
    holds.set(v.code, { voucher: v, reservation: { expiresAt, uses, credits }, prune: expiredSessionKeys(v.sessions, nowMs).filter((k) => k !== key) });
  }
  return [...holds.values()];
}
