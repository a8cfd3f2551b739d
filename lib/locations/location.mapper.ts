import type * as z from '../zod.js';
import type { Location } from './location.js';
import type { locationListReplySchema, locationReplySchema } from './location.reply.js';

/** The reference's Location object. */
export const toLocationReply = (l: Location): z.input<typeof locationReplySchema> => ({
  id: l.id,
  object: 'location',
  name: l.name,
  shape: l.shape,
  created_at: l.createdAt,
  updated_at: l.updatedAt,
});

export const toLocationListReply = (page: { locations: Location[]; total: number; hasMore: boolean }): z.input<typeof locationListReplySchema> => ({
  object: 'list',
  data_ref: 'data',
  data: page.locations.map(toLocationReply),
  total: page.total,
  has_more: page.hasMore,
});
