import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { failureRecordOf } from '../../../lib/activity/failure.js';
import { failureEvent } from '../../../lib/activity/failure-event.js';
import type { EvaluatedRedeemable, Evaluation } from '../../../lib/validations/evaluation.js';
import { REDEEMABLE_ERROR_KEYS, type RedeemableErrorKey } from '../../../lib/validations/redeemable-error.js';

type Verdict = { status: 'APPLICABLE' | 'INAPPLICABLE' | 'SKIPPED'; key: RedeemableErrorKey; tier: boolean };

const evaluation = (verdicts: Verdict[], customer: string | null = 'cust_1'): Evaluation =>
  ({
    projectId: 'p1',
    date: '2026-01-01T00:00:00.000Z',
    customer: customer ? { id: customer, sourceId: 'bob' } : null,
    session: null,
    trackingId: 'track_1',
    metadata: { a: 1 },
    valid: false,
    redeemables: verdicts.map(
      (v, i): Partial<EvaluatedRedeemable> => ({
        object: v.tier ? 'promotion_tier' : 'voucher',
        id: `R-${i}`,
        status: v.status,
        errorKey: v.status === 'INAPPLICABLE' ? v.key : null,
        skipKey: v.status === 'SKIPPED' ? 'preceding_validation_failed' : null,
        ruleMessage: null,
        voucher: v.tier ? null : ({ id: `v_${i}`, type: 'DISCOUNT_VOUCHER', campaignId: 'camp_1' } as EvaluatedRedeemable['voucher']),
        campaign: { id: 'camp_1' } as EvaluatedRedeemable['campaign'],
      }),
    ),
  }) as unknown as Evaluation;

const verdict = fc.record({
  status: fc.constantFrom('APPLICABLE' as const, 'INAPPLICABLE' as const, 'SKIPPED' as const),
  key: fc.constantFrom(...REDEEMABLE_ERROR_KEYS),
  tier: fc.boolean(),
});

describe('failure records', () => {
  it('keeps every verdict in order, and fails with the first INAPPLICABLE redeemable, named with its campaign', () => {
    fc.assert(
      fc.property(fc.array(verdict, { minLength: 1, maxLength: 8 }), (verdicts) => {
        const record = failureRecordOf(evaluation(verdicts), 'validation', 'valid_1', null);
        if (!record) throw new Error('a stored customer has a record');
        expect(record.redeemables.map((r) => [r.id, r.status])).toEqual(verdicts.map((v, i) => [`R-${i}`, v.status]));
        const first = verdicts.findIndex((v) => v.status === 'INAPPLICABLE');
        const { type, data, campaignType } = failureEvent(record, { id: 'cust_1', object: 'customer' });
        expect(type).toBe('customer.validation.failed');
        expect(campaignType).toBe(verdicts[Math.max(first, 0)]?.tier ? 'PROMOTION' : 'DISCOUNT_COUPONS');
        const v = data.validation as Record<string, unknown[]>;
        expect(v.inapplicable_redeemables?.length).toBe(verdicts.filter((x) => x.status === 'INAPPLICABLE').length);
        expect(v.redeemables?.length).toBe(verdicts.filter((x) => x.status === 'APPLICABLE').length);
        // A redemption of the same verdicts fails with the first INAPPLICABLE redeemable's key, as its reply does.
        const failed = failureEvent({ ...record, failed: 'redemption' }, {});
        expect((failed.data.redemption as { failure_code: string }).failure_code).toBe(first >= 0 ? verdicts[first]?.key : 'resource_not_found');
        expect(failed.data[verdicts[Math.max(first, 0)]?.tier ? 'promotion_tier' : 'voucher']).toMatchObject({ id: expect.any(String) });
        expect(v.skipped_redeemables?.length).toBe(verdicts.filter((x) => x.status === 'SKIPPED').length);
      }),
    );
  });

  it('gives a redemption refused at commit the refusal it was answered with, and a customer not stored no record', () => {
    const e = evaluation([{ status: 'APPLICABLE', key: 'resource_not_found', tier: false }]);
    const record = failureRecordOf(e, 'redemption', 'r_1', { key: 'quantity_exceeded', message: 'The voucher R-0 has no use left' });
    const { type, data, campaignId, campaignType } = failureEvent(record as NonNullable<typeof record>, { id: 'cust_1' });
    expect([type, campaignId, campaignType]).toEqual(['customer.redemption.failed', 'camp_1', 'DISCOUNT_COUPONS']);
    expect(data.redemption).toMatchObject({
      id: 'r_1',
      result: 'FAILURE',
      status: 'FAILED',
      failure_code: 'quantity_exceeded',
      failure_message: 'The voucher R-0 has no use left',
      voucher: { id: 'v_0', code: 'R-0', campaign_id: 'camp_1' },
      tracking_id: 'track_1',
      metadata: { a: 1 },
    });
    expect(failureRecordOf(evaluation([], null), 'redemption', 'r_2', null)).toBeNull();
  });
});
