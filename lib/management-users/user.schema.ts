import * as z from '../zod.js';
import { USER_ROLES } from './user.js';

/*
 * Request schemas of the Management API's users (/management/v1/projects/{projectId}/users[/{userId}],
 * /management/v1/projects/users/invite), after the reference's ManagementProjectsUsers* bodies.
 */

const projectId = z.string().check(z.minLength(1), z.maxLength(100));
/** Projects one invitation may name: its writes are one transaction (a user, a login, one item per project). */
export const MAX_INVITE_PROJECTS = 50;

export const usersParams = z.strictObject({ projectId });
export const userParams = z.strictObject({ projectId, userId: z.string().check(z.minLength(1), z.maxLength(100)) });

/** A predefined role; custom roles (`role_…`) do not exist in this deployment. */
const role = z.enum(USER_ROLES, { error: `must be one of ${USER_ROLES.join(', ')} (this deployment has no custom roles)` });
const email = z.string({ error: 'is required' }).check(z.minLength(3), z.maxLength(254), z.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an email address'));
const name = z.string({ error: 'is required' }).check(z.minLength(1), z.maxLength(200));

/** assign-user: an existing user by `id` or by `login` (exactly one), and the role in the project. */
export const assignUserBody = z.strictObject({
  id: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
  login: z.optional(z.string().check(z.minLength(1), z.maxLength(254))),
  role,
});
export type AssignUserBody = z.output<typeof assignUserBody>;

export const updateUserBody = z.strictObject({ role });
export type UpdateUserBody = z.output<typeof updateUserBody>;

export const inviteUserBody = z.strictObject({
  email,
  first_name: name,
  last_name: name,
  projects: z.record(projectId, role).check(
    z.refine((p) => Object.keys(p).length >= 1, 'must name at least one project'),
    z.refine((p) => Object.keys(p).length <= MAX_INVITE_PROJECTS, `must name at most ${MAX_INVITE_PROJECTS} projects`),
  ),
});
export type InviteUserBody = z.output<typeof inviteUserBody>;
