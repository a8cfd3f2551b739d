import { PutCommand } from '@aws-sdk/lib-dynamodb';
import * as entities from '../db/entities.js';
import type { Runtime } from '../runtime.js';
import { NotFoundError } from '../errors.js';
import type { ClientSwitch, Project } from './project.js';

export type { Project } from './project.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

export async function insertProject(deps: Deps, project: Project): Promise<void> {
  await deps.ddb.send(new PutCommand(entities.project.putIfAbsent(deps, project).Put));
}

export function getProject(deps: Deps, projectId: string): Promise<Project | null> {
  return entities.project.get(deps, entities.project.key(projectId), { consistent: false });
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
