import { toEpochSeconds } from '../clock.js';
import type { RateLimitSettings } from '../config.js';
import { TooManyRequestsError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { countInWindow } from './rate-limit.repo.js';

/**
 * Per-project rate limiting in fixed windows, shared by every Lambda container: each request adds
 * one to its project's counter item for the current window (one UpdateItem ADD; the item expires by
 * TTL a window after its end). A request whose count passes the limit is refused with 429.
 *
 * The count is a blind ADD on purpose: an SDK retry of a timed-out update may count one request
 * twice, which costs the caller one request of budget, never correctness. One counter item takes
 * about 1,000 writes/s (a partition's limit), far above any budget configured today; a project
 * allowed more would need the counter sharded over several items.
 */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Unix seconds at which the window ends and the budget is full again. */
  resetAt: number;
  /** Seconds from now until `resetAt`, at least 1. */
  retryAfterSeconds: number;
  exceeded: boolean;
}

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'logger'>;

/**
 * Counts one request of `projectId` in the window that holds `now`, or returns null when the
 * limit is off. A failing counter (throttled, unreachable) lets the request through unmetered
 * and logs it: the limit protects the service, it must not be what takes it down.
 */
export function countRequest(deps: Deps, settings: RateLimitSettings | null | undefined, projectId: string, now: Date): Promise<RateLimitState | null> {
  if (!settings || settings.limit <= 0) return Promise.resolve(null);
  return countInWindowOf(deps, settings.limit, settings.windowSeconds, now, projectId, (windowStart, expiresAt) =>
    countInWindow(deps, projectId, windowStart, expiresAt),
  );
}

/**
 * Counts one request in the fixed window of `windowSeconds` that holds `now`, by `add` (the window's
 * start and when its counter may expire), against `limit`. A failing counter lets the request
 * through unmetered and logs it (see countRequest).
 */
export async function countInWindowOf(
  deps: Pick<Runtime, 'logger'>,
  limit: number,
  windowSeconds: number,
  now: Date,
  projectId: string,
  add: (windowStart: number, expiresAt: number) => Promise<number>,
): Promise<RateLimitState | null> {
  const nowSeconds = toEpochSeconds(now);
  const windowStart = nowSeconds - (nowSeconds % windowSeconds);
  const resetAt = windowStart + windowSeconds;
  try {
    const count = await add(windowStart, resetAt + windowSeconds);
    return {
      limit,
      remaining: Math.max(0, limit - count),
      resetAt,
      retryAfterSeconds: Math.max(1, resetAt - nowSeconds),
      exceeded: count > limit,
    };
  } catch (error) {
    deps.logger.warn('rate limit counter failed; request not metered', {
      project_id: projectId,
      error: error instanceof Error ? error.name : typeof error,
    });
    return null;
  }
}

/**
 * Voucherify's headers: `X-Rate-Limit-Limit` and `-Remaining`; `-Reset` (Unix seconds) tells when
 * the budget refills, and on a refusal `X-Rate-Limit-Retry` (Voucherify's name for the same moment).
 */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'X-Rate-Limit-Limit': String(state.limit),
    'X-Rate-Limit-Remaining': String(state.remaining),
    'X-Rate-Limit-Reset': String(state.resetAt),
    ...(state.exceeded ? { 'X-Rate-Limit-Retry': String(state.resetAt) } : {}),
  };
}

/**
 * @throws TooManyRequestsError (429 `too_many_requests`, with `Retry-After`) when the request is over the limit.
 */
export function enforceRateLimit(state: RateLimitState | null, windowSeconds: number): void {
  if (!state?.exceeded) return;
  throw new TooManyRequestsError(state.limit, windowSeconds, { ...rateLimitHeaders(state), 'Retry-After': String(state.retryAfterSeconds) });
}
