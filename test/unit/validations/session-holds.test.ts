import { describe, expect, it } from 'vitest';
import { calculate } from '../../../lib/redemptions/calculator.js';
import type { EvaluatedRedeemable, Evaluation } from '../../../lib/validations/evaluation.js';
import { sessionHoldsOf } from '../../../lib/validations/session-holds.js';
import { DEFAULT_STACKING_RULES } from '../../../lib/validations/stacking-rules.js';
import type { Voucher } from '../../../lib/vouchers/voucher.js';

const now = Date.parse('2026-07-06T13:00:00.000Z');
const steps = calculate({ amount: 1000 }, [
  { kind: 'discount', id: 'L', discount: { type: 'AMOUNT', amountOff: 100 } },
  { kind: 'discount', id: 'U', discount: { type: 'AMOUNT', amountOff: 100 } },
  { kind: 'gift', id: 'G', balance: 500, credits: 300 },
]).steps;
const limited = {
  code: 'L',
  redemptionQuantity: 2,
  gift: null,
  sessions: {
    old: { expiresAt: new Date(now - 1).toISOString(), uses: 1, credits: 0 },
    mine: { expiresAt: new Date(now - 1).toISOString(), uses: 1, credits: 0 },
    // Its own item (read beside the voucher): never named in the map's REMOVE, live or expired.
    itemed: { expiresAt: new Date(now - 1).toISOString(), uses: 1, credits: 0, item: true },
  },
} as unknown as Voucher;
const unlimited = { code: 'U', redemptionQuantity: null, gift: null } as unknown as Voucher;
const gift = { code: 'G', redemptionQuantity: null, gift: { amount: 500, balance: 500, subtractedAmount: 0, effect: null } } as unknown as Voucher;
const base = {
  object: 'voucher' as const,
  requested: 'voucher' as const,
  position: 0,
  errorKey: null,
  skipKey: null,
  tier: null,
  campaign: null,
  categories: [],
  giftCreditsAsked: null,
  lines: null,
  ruleMessage: null,
  countedAs: null,
  campaignBound: null,
};
const redeemables: EvaluatedRedeemable[] = [
  { ...base, id: 'L', status: 'APPLICABLE', voucher: limited, step: steps[0] ?? null },
  { ...base, id: 'U', status: 'APPLICABLE', voucher: unlimited, step: steps[1] ?? null },
  { ...base, id: 'G', status: 'APPLICABLE', voucher: gift, step: steps[2] ?? null },
  { ...base, id: 'L', status: 'SKIPPED', skipKey: 'applicable_redeemables_limit_exceeded', voucher: limited, step: null },
];
const evaluation = (over: Partial<Evaluation> = {}): Evaluation => ({
  projectId: 'p',
  date: new Date(now).toISOString(),
  rules: DEFAULT_STACKING_RULES,
  redeemables,
  order: {
    id: null,
    sourceId: null,
    revision: null,
    status: 'CREATED',
    amount: 1000,
    items: [],
    metadata: {},
    customerId: null,
    referrerId: null,
    createdAt: null,
  },
  calculation: steps[2]?.order ?? calculate({ amount: 0 }, []).order,
  customer: null,
  session: { type: 'LOCK', key: 'mine', ttl: 1, ttlUnit: 'HOURS', ttlMs: 3_600_000 },
  trackingId: null,
  metadata: {},
  valid: true,
  ...over,
});

describe('sessionHoldsOf', () => {
  it('holds a use of each limited voucher and the credits of each gift card, until the session expires, removing the old map’s expired entries and its own (its hold moves to an item)', () => {
    const holds = sessionHoldsOf(evaluation(), now);
    const expiresAt = new Date(now + 3_600_000).toISOString();
    expect(holds.map((h) => [h.voucher.code, h.reservation, h.prune])).toEqual([
      ['L', { expiresAt, uses: 1, credits: 0 }, ['old', 'mine']],
      ['G', { expiresAt, uses: 0, credits: 300 }, []],
    ]);
  });

  it('holds nothing without a session or when the validation is not valid', () => {
    expect(sessionHoldsOf(evaluation({ session: null }), now)).toEqual([]);
    expect(sessionHoldsOf(evaluation({ valid: false }), now)).toEqual([]);
  });
});
