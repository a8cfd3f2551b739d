import { PutCommand } from '@aws-sdk/lib-dynamodb';
import * as entities from '../db/entities.js';
import type { PutItem } from '../db/entity.js';
import { transact } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import { ConflictRetryError, NotFoundError } from '../errors.js';
import type { DeletedProject } from './deleted-project.js';
import type { ClientSwitch, Project } from './project.js';
import { removalStart } from './project-removal-start.js';

export type { Project } from './project.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** The write that inserts a project (never overwrites one). */
export const insertProjectItem = (deps: Pick<Runtime, 'tableName'>, project: Project): PutItem => entities.project.putIfAbsent(deps, project);

export async function insertProject(deps: Deps, project: Project): Promise<void> {
  await deps.ddb.send(new PutCommand(insertProjectItem(deps, project).Put));
}

export function getProject(deps: Deps, projectId: string): Promise<Project | null> {
  return entities.project.get(deps, entities.project.key(projectId), { consistent: false });
}

/** The project as last written (the Management API reads its own writes). */
export function getProjectConsistently(deps: Deps, projectId: string): Promise<Project | null> {
  return entities.project.get(deps, entities.project.key(projectId), { consistent: true });
}

/** Every project, oldest first (GSI1, one operator-wide partition). */
export function listProjects(deps: Deps): Promise<Project[]> {
  return entities.project.query(deps, { index: [] });
}

/** Sets fields of an existing project; null when it does not exist. */
export function updateProjectFields(deps: Deps, projectId: string, fields: Partial<Project>): Promise<Project | null> {
  return entities.project.update(deps, entities.project.key(projectId), fields);
}

/**
 * Starts the data removal of a project deleted before the removal job existed (a tombstone with no
 * status): its status and marker, together; false when it has one already.
 */
export async function startLateRemoval(deps: Deps, projectId: string, now: string): Promise<boolean> {
  const start = removalStart(deps, projectId, now);
  const names: Record<string, string> = { '#s': 'status' };
  const values: Record<string, unknown> = {};
  const sets = Object.entries(start.fields).map(([field, value], i) => {
    names[`#f${i}`] = field;
    values[`:f${i}`] = value;
    return `#f${i} = :f${i}`;
  });
  const outcome = await transact(deps, [
    {
      Update: {
        TableName: deps.tableName,
        Key: entities.deletedProject.key(projectId),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(#s)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
    start.marker,
  ]);
  return outcome.ok;
}

/** The tombstone as stored (strongly consistent); null when the project was never deleted. */
export const getTombstone = (deps: Deps, projectId: string): Promise<DeletedProject | null> =>
  entities.deletedProject.get(deps, entities.deletedProject.key(projectId), { consistent: true });

/** Whether the project was deleted (its tombstone exists). */
export function isDeleted(deps: Deps, projectId: string): Promise<boolean> {
  return entities.deletedProject.exists(deps, entities.deletedProject.key(projectId));
}

/**
 * Removes the project item and writes its tombstone, with the data removal job's status and
 * open-job marker, together; false when the project was already gone.
 */
export async function replaceWithTombstone(deps: Deps, project: Project, deletedAt: string): Promise<boolean> {
  const start = removalStart(deps, project.projectId, deletedAt);
  const tombstone = entities.deletedProject.toItem({ projectId: project.projectId, name: project.name, deletedAt, ...start.fields });
  const outcome = await transact(deps, [
    { Delete: { TableName: deps.tableName, Key: entities.project.key(project.projectId), ConditionExpression: 'attribute_exists(PK)' } },
    { Put: { TableName: deps.tableName, Item: tombstone } },
    start.marker,
  ]);
  if (!outcome.ok && 'conflict' in outcome) throw new ConflictRetryError(`Project ${project.projectId} is changing; try again`);
  return outcome.ok;
}

/**
 * Sets the project's client-side switches.
 * @throws NotFoundError when the project does not exist.
 */
export async function updateClientSwitches(deps: Deps, projectId: string, switches: Partial<Pick<Project, ClientSwitch>>): Promise<Project> {
  const updated = await entities.project.update(deps, entities.project.key(projectId), switches);
  if (!updated) throw new NotFoundError('project', projectId);
  return updated;
}
