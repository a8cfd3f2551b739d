import { project, projectUser, user, userLogin } from '../db/entities.js';
import { mustExist, RETRY, retryOnConflict, type TransactItem, transact } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import { loginKeyOf, type ProjectUser, type User, type UserRole } from './user.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** Runs `items` as one transaction, retrying lost races: the index of the first failed condition, or -1 when written. */
function commit(deps: Deps, items: TransactItem[], busy: string): Promise<number> {
  return retryOnConflict(busy, async () => {
    const outcome = await transact(deps, items);
    if (outcome.ok) return -1;
    if (!('failed' in outcome)) return RETRY;
    return outcome.failed[0] ?? 0;
  });
}

/** The transaction's check that the project still exists (a delete may run meanwhile). */
const projectExists = (deps: Deps, projectId: string): TransactItem => mustExist(deps, project.key(projectId));

/** The user's role in one project, set on the user item (its `projects` map). */
const setRoleOnUser = (deps: Deps, userId: string, projectId: string, role: UserRole): TransactItem => ({
  Update: {
    TableName: deps.tableName,
    Key: user.key(userId),
    UpdateExpression: 'SET projects.#p = :role',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeNames: { '#p': projectId },
    ExpressionAttributeValues: { ':role': role },
  },
});

/**
 * Writes a new user, its login and its assignments, in one transaction; each project must exist.
 * @returns 'login_taken' when the login is another user's, 'project_gone' when a project was deleted meanwhile (nothing is written).
 */
export async function insertUser(deps: Deps, value: User): Promise<'ok' | 'login_taken' | 'project_gone'> {
  const projectKeys = Object.keys(value.projects).map((projectId) => projectExists(deps, projectId));
  const assignments = Object.entries(value.projects).map(([projectId, role]) =>
    projectUser.putIfAbsent(deps, { projectId, userId: value.id, role, assignedAt: value.createdAt }),
  );
  const failed = await commit(
    deps,
    [userLogin.putIfAbsent(deps, { userId: value.id }, loginKeyOf(value.login)), user.putIfAbsent(deps, value), ...assignments, ...projectKeys],
    `Too many concurrent writes of user ${value.login}`,
  );
  if (failed === -1) return 'ok';
  if (failed === 0) return 'login_taken';
  if (failed >= 2 + assignments.length) return 'project_gone';
  throw new Error(`User id ${value.id} is already taken`);
}

/** A user by id (strongly consistent); null if none. */
export function getUser(deps: Deps, userId: string): Promise<User | null> {
  return user.get(deps, user.key(userId));
}

/** The user id a login names; null if none. */
export async function getUserIdByLogin(deps: Deps, login: string): Promise<string | null> {
  return (await userLogin.get(deps, userLogin.key(loginKeyOf(login))))?.userId ?? null;
}

/** A user's assignment to a project; null if the user is not assigned to it. */
export function getProjectUser(deps: Deps, projectId: string, userId: string): Promise<ProjectUser | null> {
  return projectUser.get(deps, projectUser.key(projectId, userId));
}

/** Every assignment of a project, by user id (strongly consistent). */
export function listProjectUsers(deps: Deps, projectId: string): Promise<ProjectUser[]> {
  return projectUser.query(deps, { key: [projectId] }, { consistent: true });
}

/** The users of `ids` (any number), in no particular order; missing ones left out. */
export async function getUsers(deps: Deps, ids: string[]): Promise<User[]> {
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += 100) chunks.push(ids.slice(i, i + 100));
  const pages = await Promise.all(
    chunks.map((chunk) =>
      user.getMany(
        deps,
        chunk.map((id) => user.key(id)),
        'Too many concurrent reads of users',
      ),
    ),
  );
  return pages.flat();
}

/**
 * Assigns an existing user to a project (conditioned on the project existing).
 * @returns 'assigned', 'no_user', 'already' (the user is assigned already), or 'project_gone'.
 */
export async function assignUser(deps: Deps, m: ProjectUser): Promise<'assigned' | 'no_user' | 'already' | 'project_gone'> {
  const failed = await commit(
    deps,
    [projectUser.putIfAbsent(deps, m), setRoleOnUser(deps, m.userId, m.projectId, m.role), projectExists(deps, m.projectId)],
    `Too many concurrent writes of user ${m.userId}`,
  );
  return failed === -1 ? 'assigned' : failed === 0 ? 'already' : failed === 1 ? 'no_user' : 'project_gone';
}

/** Changes a user's role in a project. @returns false when the user is not assigned to it. */
export async function setRole(deps: Deps, projectId: string, userId: string, role: UserRole): Promise<boolean> {
  const failed = await commit(
    deps,
    [
      {
        Update: {
          TableName: deps.tableName,
          Key: projectUser.key(projectId, userId),
          UpdateExpression: 'SET #r = :role',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeNames: { '#r': 'role' },
          ExpressionAttributeValues: { ':role': role },
        },
      },
      setRoleOnUser(deps, userId, projectId, role),
    ],
    `Too many concurrent writes of user ${userId}`,
  );
  return failed === -1;
}

/** Removes a user from a project (the user stays in the organisation). @returns false when it was not assigned. */
export async function unassignUser(deps: Deps, projectId: string, userId: string): Promise<boolean> {
  const failed = await commit(
    deps,
    [
      { Delete: { TableName: deps.tableName, Key: projectUser.key(projectId, userId), ConditionExpression: 'attribute_exists(PK)' } },
      {
        Update: {
          TableName: deps.tableName,
          Key: user.key(userId),
          UpdateExpression: 'REMOVE projects.#p',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeNames: { '#p': projectId },
        },
      },
    ],
    `Too many concurrent writes of user ${userId}`,
  );
  return failed === -1;
}
