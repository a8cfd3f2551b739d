import { listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';
import { locationShape } from './location.schema.js';

/*
 * Reply schemas of the locations routes (location.mapper.ts writes these shapes). Only the OpenAPI
 * generator and the tests import this module: handler bundles stay small.
 */

export const locationReplySchema = z.strictObject({
  id: z.string().check(z.regex(/^loc_/)),
  object: z.literal('location'),
  name: z.string(),
  shape: locationShape,
  created_at: z.iso.datetime(),
  updated_at: z.nullable(z.iso.datetime()),
});

export const locationListReplySchema = listReply(locationReplySchema, { dataRef: 'data', hasMore: true });
