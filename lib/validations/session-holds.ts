import { expiredSessionKeys, type SessionReservation } from '../redemptions/session-lock.js';
import type { Voucher } from '../vouchers/voucher.js';
import type { Evaluation } from './evaluation.js';

/** Old holds of the voucher item's own map one write removes at most (the expression stays small; the map only shrinks). */
const PRUNE_AT_MOST = 20;

/** What a LOCK session writes on one voucher: its reservation (its own item), and the old map entries the same write removes. */
export interface SessionHold {
  /** The voucher as the evaluation read it (the write holds only while it is still so). */
  voucher: Voucher;
  reservation: SessionReservation;
  /** Keys of the voucher item's old `sessions` map to remove: expired ones, and the request's own (its hold moves to an item). */
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
    const inMap = Object.keys(v.sessions ?? {}).filter((k) => v.sessions?.[k]?.item === undefined);
    const expired = new Set(expiredSessionKeys(v.sessions, nowMs));
    const prune = inMap.filter((k) => k === key || expired.has(k)).slice(0, PRUNE_AT_MOST);
    holds.set(v.code, { voucher: v, reservation: { expiresAt, uses, credits }, prune });
  }
  return [...holds.values()];
}
