import type { CustomEventSchema } from './event-schema.js';
import type * as z from '../zod.js';
import type { eventSchemaListReplySchema, eventSchemaReplySchema } from './event-schema.reply.js';

/** Voucherify's custom event schema object; `deleted` only where true, `updated_at` only once updated. */
export const toEventSchemaReply = (s: CustomEventSchema): z.input<typeof eventSchemaReplySchema> => ({
  id: s.id,
  name: s.name,
  schema: {
    properties: Object.fromEntries(
      Object.entries(s.properties).map(([name, p]) => [name, { type: p.type, optional: p.optional, ...(p.deleted ? { deleted: true } : {}) }]),
    ),
  },
  created_at: s.createdAt,
  ...(s.updatedAt !== null ? { updated_at: s.updatedAt } : {}),
  object: 'custom-event-schema',
});

export const toEventSchemaListReply = (schemas: CustomEventSchema[]): z.input<typeof eventSchemaListReplySchema> => ({
  object: 'list',
  data_ref: 'data',
  data: schemas.map(toEventSchemaReply),
  total: schemas.length,
});
