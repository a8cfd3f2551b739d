import type { RateLimitSettings } from '../config.js';
import { clientRateLimitWindow } from '../db/entities.js';
import type { Runtime } from '../runtime.js';
import { addOne } from './rate-limit.repo.js';
import { countInWindowOf, type RateLimitState } from './rate-limit.service.js';

/**
 * The client-side budgets (issue 39 "Abuse from the open internet"). A client key is published in
 * web pages, so its requests are counted apart from the project's budget (which its server keys
 * keep whole), in two fixed windows of the project's length: per client key, as many requests as
 * the project's budget, and per client address, a tenth of it (600 a minute at the default 6,000),
 * so one address cannot spend the key's budget for every shopper. Off when the project limit is off.
 */
export const clientIpLimitOf = (settings: RateLimitSettings): number => Math.max(1, Math.floor(settings.limit / 10));

/** The state a reply reports: an exceeded budget first, else the one with the least left. */
function tighter(a: RateLimitState | null, b: RateLimitState | null): RateLimitState | null {
  if (!a || !b) return a ?? b;
  if (a.exceeded !== b.exceeded) return a.exceeded ? a : b;
  return b.remaining < a.remaining ? b : a;
}

/** Counts one client-side request of `appId` from `sourceIp` in both budgets (two UpdateItem ADDs, in parallel). */
export async function countClientRequest(
  deps: Pick<Runtime, 'ddb' | 'tableName' | 'logger'>,
  settings: RateLimitSettings | null | undefined,
  projectId: string,
  appId: string,
  sourceIp: string | undefined,
  now: Date,
): Promise<RateLimitState | null> {
  if (!settings || settings.limit <= 0) return null;
  const count = (by: 'KEY' | 'IP', id: string, limit: number) =>
    countInWindowOf(deps, limit, settings.windowSeconds, now, projectId, (windowStart, expiresAt) =>
      addOne(deps, clientRateLimitWindow.key(projectId, by, id, windowStart), clientRateLimitWindow, expiresAt),
    );
  const [byKey, byIp] = await Promise.all([
    count('KEY', appId, settings.limit),
    sourceIp ? count('IP', sourceIp.slice(0, 100), clientIpLimitOf(settings)) : Promise.resolve(null),
  ]);
  return tighter(byKey, byIp);
}
