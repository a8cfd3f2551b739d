import { project } from '../db/entities.js';
import { NotFoundError } from '../errors.js';
import type { Runtime } from '../runtime.js';

/**
 * The check every Management API route under `/projects/{projectId}/` makes before it reads or
 * writes the project's data: one strongly consistent key-only read. A deleted project has no
 * project item (only its tombstone), so it is refused the same way as one that never existed.
 * @throws NotFoundError (project) in both cases, the reference's "Cannot find project with id …".
 */
export async function requireProject(deps: Pick<Runtime, 'ddb' | 'tableName'>, projectId: string): Promise<void> {
  if (!(await project.exists(deps, project.key(projectId)))) throw new NotFoundError('project', projectId);
}
