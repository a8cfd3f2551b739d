import type * as z from '../zod.js';
import type { User, UserRole } from './user.js';
import type { userListReplySchema, userReplySchema } from './user.reply.js';

/** The reference's User object, `role` being the user's role in the project the path names. */
export const toUserReply = (u: User, role: UserRole): z.input<typeof userReplySchema> => ({
  id: u.id,
  login: u.login,
  email: u.email,
  first_name: u.firstName,
  last_name: u.lastName,
  projects: u.projects,
  role,
  // No organisation owner exists here: the operator holds the management keys, not a user.
  is_owner: false,
});

export const toUserListReply = (users: { user: User; role: UserRole }[]): z.input<typeof userListReplySchema> => ({
  object: 'list',
  data_ref: 'data',
  data: users.map(({ user, role }) => toUserReply(user, role)),
  total: users.length,
});
