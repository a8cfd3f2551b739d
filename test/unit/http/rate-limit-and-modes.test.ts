import { describe, expect, it } from 'vitest';
import { createRewardRoute, getRewardRoute } from '../../../lib/api/routes.js';
import { loadConfig } from '../../../lib/config.js';
import { enforceRateLimit, rateLimitHeaders } from '../../../lib/rate-limit/rate-limit.service.js';
import { idempotencyModeOf } from '../../../lib/api/route.js';

describe('rate-limit configuration', () => {
  it('defaults to 6,000 requests per 60 s window, and reads RATE_LIMIT_REQUESTS (0 = off) and RATE_LIMIT_WINDOW_SECONDS', () => {
    expect(loadConfig({ TABLE_NAME: 't' }).rateLimit).toEqual({ limit: 6000, windowSeconds: 60 });
    expect(loadConfig({ TABLE_NAME: 't', RATE_LIMIT_REQUESTS: '0', RATE_LIMIT_WINDOW_SECONDS: '3600' }).rateLimit).toEqual({ limit: 0, windowSeconds: 3600 });
    for (const bad of [
      { RATE_LIMIT_REQUESTS: '-1' },
      { RATE_LIMIT_REQUESTS: '1.5' },
      { RATE_LIMIT_WINDOW_SECONDS: '0' },
      { RATE_LIMIT_WINDOW_SECONDS: '3601' },
    ]) {
      expect(() => loadConfig({ TABLE_NAME: 't', ...bad }), JSON.stringify(bad)).toThrow(/RATE_LIMIT_/);
    }
  });
});

describe('rate-limit headers', () => {
  const state = { limit: 5, remaining: 0, resetAt: 1_800_000_060, retryAfterSeconds: 42 };

  it('sends limit, remaining and reset, and on a refusal the retry moment and Retry-After', () => {
    expect(rateLimitHeaders({ ...state, remaining: 3, exceeded: false })).toEqual({
      'X-Rate-Limit-Limit': '5',
      'X-Rate-Limit-Remaining': '3',
      'X-Rate-Limit-Reset': '1800000060',
    });
    expect(() => enforceRateLimit({ ...state, exceeded: false }, 60)).not.toThrow();
    expect(() => enforceRateLimit(null, 60)).not.toThrow();
    expect(() => enforceRateLimit({ ...state, exceeded: true }, 60)).toThrow(
      expect.objectContaining({
        status: 429,
        key: 'too_many_requests',
        headers: {
          'X-Rate-Limit-Limit': '5',
          'X-Rate-Limit-Remaining': '0',
          'X-Rate-Limit-Reset': '1800000060',
          'X-Rate-Limit-Retry': '1800000060',
          'Retry-After': '42',
        },
      }),
    );
  });
});

describe('idempotency mode of a route', () => {
  it('makes a write POST generic unless its row says otherwise, and ignores the header elsewhere', () => {
    const { idempotency: _, ...unset } = createRewardRoute;
    expect(idempotencyModeOf(unset)).toBe('generic');
    expect(idempotencyModeOf({ ...unset, access: 'read' })).toBe('none');
    expect(idempotencyModeOf({ ...unset, idempotency: 'none' })).toBe('none');
    expect(idempotencyModeOf(getRewardRoute)).toBe('none');
  });
});
