import { DuplicateError, InvalidPayloadError, NotFoundError } from '../errors.js';
import { requireProject } from '../projects/require-project.js';
import type { Runtime } from '../runtime.js';
import type { User, UserRole } from './user.js';
import * as repo from './user.repo.js';
import type { AssignUserBody, InviteUserBody, UpdateUserBody } from './user.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** A user and the role the reply shows (the user's role in the project the path names). */
export interface UserInProject {
  user: User;
  role: UserRole;
}

const userNotFound = (userId: string) => new NotFoundError('user', userId);

/** The user as written by the transaction that just committed. */
async function reread(deps: Deps, userId: string): Promise<User> {
  const found = await repo.getUser(deps, userId);
  if (!found) throw userNotFound(userId);
  return found;
}

/**
 * invite-user: makes the user (login = the email) and assigns it to each project with its role, in
 * one transaction. There is no invitation to accept and no email is sent: the record exists at once.
 * @throws NotFoundError (project: one of `projects` does not exist or was deleted), DuplicateError (the email is a user's login).
 */
export async function inviteUser(deps: Deps & Pick<Runtime, 'clock' | 'ids'>, body: InviteUserBody): Promise<void> {
  await Promise.all(Object.keys(body.projects).map((projectId) => requireProject(deps, projectId)));
  const value: User = {
    id: deps.ids.id('user'),
    login: body.email,
    email: body.email,
    firstName: body.first_name,
    lastName: body.last_name,
    projects: body.projects,
    createdAt: deps.clock.now().toISOString(),
  };
  const outcome = await repo.insertUser(deps, value);
  if (outcome === 'login_taken') throw new DuplicateError('user', `Duplicated user exists with login ${body.email}`, body.email);
  if (outcome === 'project_gone') {
    // A project was deleted between the check and the write: name it.
    await Promise.all(Object.keys(body.projects).map((projectId) => requireProject(deps, projectId)));
    throw new NotFoundError('project', Object.keys(body.projects)[0] ?? '');
  }
}

/**
 * assign-user: an existing user, by `id` or `login` (exactly one), joins the project with `role`.
 * @throws NotFoundError (project, user), InvalidPayloadError (both or neither of id and login),
 *   DuplicateError (the user is assigned to the project already: change the role with update-user).
 */
export async function assignUser(deps: Deps & Pick<Runtime, 'clock'>, projectId: string, body: AssignUserBody): Promise<UserInProject> {
  if ((body.id === undefined) === (body.login === undefined)) throw new InvalidPayloadError('Send either id or login of the user, not both');
  const [, userId] = await Promise.all([
    requireProject(deps, projectId),
    body.id !== undefined ? Promise.resolve(body.id) : repo.getUserIdByLogin(deps, body.login ?? ''),
  ]);
  const named = body.id ?? body.login ?? '';
  if (userId === null) throw userNotFound(named);
  const outcome = await repo.assignUser(deps, { projectId, userId, role: body.role, assignedAt: deps.clock.now().toISOString() });
  if (outcome === 'no_user') throw userNotFound(named);
  if (outcome === 'project_gone') throw new NotFoundError('project', projectId);
  if (outcome === 'already') throw new DuplicateError('user', `User ${userId} is already assigned to project ${projectId}; change the role with PUT`, userId);
  return { user: await reread(deps, userId), role: body.role };
}

/** list-users: every user assigned to the project. @throws NotFoundError (project). */
export async function listUsers(deps: Deps, projectId: string): Promise<UserInProject[]> {
  const [, assignments] = await Promise.all([requireProject(deps, projectId), repo.listProjectUsers(deps, projectId)]);
  const users = new Map(
    (
      await repo.getUsers(
        deps,
        assignments.map((a) => a.userId),
      )
    ).map((u) => [u.id, u]),
  );
  return assignments.flatMap((a) => {
    const found = users.get(a.userId);
    return found ? [{ user: found, role: a.role }] : [];
  });
}

/** get-user. @throws NotFoundError (project; user, also when the user is not assigned to the project). */
export async function getUser(deps: Deps, projectId: string, userId: string): Promise<UserInProject> {
  const [, assignment, found] = await Promise.all([requireProject(deps, projectId), repo.getProjectUser(deps, projectId, userId), repo.getUser(deps, userId)]);
  if (!assignment || !found) throw userNotFound(userId);
  return { user: found, role: assignment.role };
}

/** update-user: the user's role in the project. @throws NotFoundError (project; user not assigned to it). */
export async function updateUser(deps: Deps, projectId: string, userId: string, body: UpdateUserBody): Promise<UserInProject> {
  await requireProject(deps, projectId);
  if (!(await repo.setRole(deps, projectId, userId, body.role))) throw userNotFound(userId);
  return { user: await reread(deps, userId), role: body.role };
}

/** unassign-user: the user leaves the project (and stays a user). @throws NotFoundError (project; user not assigned to it). */
export async function unassignUser(deps: Deps, projectId: string, userId: string): Promise<void> {
  await requireProject(deps, projectId);
  if (!(await repo.unassignUser(deps, projectId, userId))) throw userNotFound(userId);
}
