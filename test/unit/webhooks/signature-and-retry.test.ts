import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIRST_DELAY_SECONDS, GIVE_UP_AFTER_SECONDS, MAX_DELAY_SECONDS, nextAttempt, retryDelaySeconds } from '../../../lib/webhooks/retry-schedule.js';
import { signBody, verifySignature } from '../../../lib/webhooks/signature.js';

describe('webhook signature', () => {
  it('is the hex HMAC-SHA256 of the exact body under the secret (RFC 4231 test case 2)', () => {
    expect(signBody('what do ya want for nothing?', 'Jefe')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('verifies its own signatures and refuses any other body, secret or malformed signature (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1 }), fc.string(), (body, secret, other) => {
        const signature = signBody(body, secret);
        expect(signature).toBe(createHmac('sha256', secret).update(body).digest('hex'));
        expect(verifySignature(body, secret, signature)).toBe(true);
        if (other !== body) expect(verifySignature(other, secret, signature)).toBe(false);
        expect(verifySignature(body, `${secret}x`, signature)).toBe(false);
        expect(verifySignature(body, secret, signature.slice(1))).toBe(false);
      }),
    );
  });
});

describe('webhook retry schedule', () => {
  it('backs off by four from 30 s to an hour', () => {
    expect([1, 2, 3, 4, 5, 6, 20].map((attempt) => retryDelaySeconds(attempt))).toEqual([30, 120, 480, 1920, 3600, 3600, 3600]);
  });

  it('never waits less than the first delay or more than the cap, and gives up exactly when the next try would pass three days (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 0, max: 4 * GIVE_UP_AFTER_SECONDS }), (attempt, age) => {
        const delay = retryDelaySeconds(attempt);
        expect(delay).toBeGreaterThanOrEqual(FIRST_DELAY_SECONDS);
        expect(delay).toBeLessThanOrEqual(MAX_DELAY_SECONDS);
        const next = nextAttempt(attempt, age);
        expect('giveUp' in next).toBe(age + delay > GIVE_UP_AFTER_SECONDS);
      }),
    );
  });

  it('makes a bounded number of attempts for an event that always fails', () => {
    let age = 0;
    let attempt = 1;
    for (;;) {
      const next = nextAttempt(attempt, age);
      if ('giveUp' in next) break;
      age += next.retryInSeconds;
      attempt += 1;
    }
    // 30 s, 2 min, 8 min, 32 min, then hourly to three days.
    expect(attempt).toBe(4 + Math.floor((GIVE_UP_AFTER_SECONDS - (30 + 120 + 480 + 1920)) / 3600) + 1);
    expect(age).toBeLessThanOrEqual(GIVE_UP_AFTER_SECONDS);
  });
});
