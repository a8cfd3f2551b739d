import { InvalidQueryParamsError } from '../errors.js';
import type { ActivityEvent } from './activity.js';
import { keyOfActivityId, timeKey } from './activity.js';

/** One page of an activity list, newest first unless asked otherwise. */
export interface ActivityPage {
  events: ActivityEvent[];
  hasMore: boolean;
}

/**
 * The key a page starts after: `starting_after_id` (an event id carries its key, so no read), else
 * `starting_after` (a date: events before it newest first, after it oldest first), else none.
 * @throws InvalidQueryParamsError for a `starting_after_id` that is no event id of these lists.
 */
export function cursorOf(q: { starting_after_id?: string | undefined; starting_after?: string | undefined }, descending: boolean): string | null {
  if (q.starting_after_id !== undefined) {
    const key = keyOfActivityId(q.starting_after_id);
    if (key === null) throw new InvalidQueryParamsError(`starting_after_id ${q.starting_after_id} is no event id of an activity list`);
    return key;
  }
  if (q.starting_after !== undefined) return descending ? timeKey(q.starting_after) : `${timeKey(q.starting_after)}\uffff`;
  return null;
}
