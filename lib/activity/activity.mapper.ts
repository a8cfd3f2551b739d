import type * as z from '../zod.js';
import { type ActivityEvent, activityIdOf } from './activity.js';
import type { ActivityPage } from './activity-page.js';
import type { activitiesListReplySchema, activityListReplySchema, activityReplySchema } from './activity.reply.js';

const apiSource = { channel: 'API' } as const;

export const toActivityReply = (e: ActivityEvent): z.input<typeof activityReplySchema> => ({
  id: activityIdOf(e.key),
  type: e.type,
  data: { data: e.data, event_source: apiSource },
  created_at: e.createdAt,
});

const nextOf = (p: ActivityPage) => {
  const last = p.events.at(-1);
  return p.hasMore && last ? { more_starting_after: activityIdOf(last.key) } : {};
};

/** The page of GET /v1/customers/{customerId}/activity and of the member activity lists. */
export const toActivityListReply = (p: ActivityPage): z.input<typeof activityListReplySchema> => ({
  object: 'list',
  data_ref: 'data',
  data: p.events.map(toActivityReply),
  has_more: p.hasMore,
  ...nextOf(p),
});

/** The page of GET /v1/customers/{customerId}/activities. */
export const toActivitiesListReply = (p: ActivityPage): z.input<typeof activitiesListReplySchema> => ({
  object: 'list',
  data_ref: 'data',
  data: p.events.map(toActivityReply),
  total: p.events.length,
  has_more: p.hasMore,
  ...nextOf(p),
});
