/**
 * When a failed delivery is tried again (issue 40: exponential backoff and a bound). Voucherify
 * retries hourly for up to three days; here the first retries come sooner (a receiver that was
 * restarting is back within minutes), then hourly, and the delivery is dead-lettered once three
 * days have passed since the event. Pure: the delivery worker asks it, the tests pin it.
 */

/** The first retry's delay; each later one is four times the previous, up to MAX_DELAY_SECONDS. */
export const FIRST_DELAY_SECONDS = 30;
export const MAX_DELAY_SECONDS = 3600;
/** How long after the event a delivery is still tried. */
export const GIVE_UP_AFTER_SECONDS = 3 * 24 * 3600;

/** The schedule's parameters: the deployed one is the constants above; tests shorten it. */
export interface RetrySchedule {
  firstDelaySeconds: number;
  maxDelaySeconds: number;
  giveUpAfterSeconds: number;
}

export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = {
  firstDelaySeconds: FIRST_DELAY_SECONDS,
  maxDelaySeconds: MAX_DELAY_SECONDS,
  giveUpAfterSeconds: GIVE_UP_AFTER_SECONDS,
};

/** The delay before attempt `attempt + 1`, after `attempt` (≥ 1) attempts have failed. */
export const retryDelaySeconds = (attempt: number, schedule: RetrySchedule = DEFAULT_RETRY_SCHEDULE): number =>
  Math.min(schedule.maxDelaySeconds, schedule.firstDelaySeconds * 4 ** Math.max(0, Math.min(attempt - 1, 10)));

/**
 * What to do after `attempt` failed attempts of an event created `ageSeconds` ago: retry after a
 * delay, or give up (the delivery goes to the dead-letter queue) when the next attempt would come
 * after the bound.
 */
export function nextAttempt(
  attempt: number,
  ageSeconds: number,
  schedule: RetrySchedule = DEFAULT_RETRY_SCHEDULE,
): { retryInSeconds: number } | { giveUp: true } {
  const delay = retryDelaySeconds(attempt, schedule);
  return ageSeconds + delay > schedule.giveUpAfterSeconds ? { giveUp: true } : { retryInSeconds: delay };
}
