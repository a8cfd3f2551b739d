import { listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';
import { USER_ROLES } from './user.js';

/*
 * Reply schemas of the users routes (user.mapper.ts writes these shapes). Only the OpenAPI
 * generator and the tests import this module: handler bundles stay small.
 */

export const userReplySchema = z.strictObject({
  id: z.string().check(z.regex(/^user_/)),
  login: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  projects: z.record(z.string(), z.enum(USER_ROLES)),
  role: z.enum(USER_ROLES),
  is_owner: z.boolean(),
});

export const userListReplySchema = listReply(userReplySchema, { dataRef: 'data' });
