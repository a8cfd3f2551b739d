import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../db/keys.js';
import type { Runtime } from '../runtime.js';
import type { Project } from './project.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

export type { Project } from './project.js';

export async function insertProject(deps: Deps, project: Project): Promise<void> {
  await deps.ddb.send(
    new PutCommand({
      TableName: deps.tableName,
      Item: { ...keys.project(project.projectId), entity: 'project', v: 1, ...project },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

export async function getProject(deps: Deps, projectId: string): Promise<Project | null> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.tableName, Key: keys.project(projectId) }));
  if (!res.Item) return null;
  const { projectId: id, name, createdAt } = res.Item as Project;
  return { projectId: id, name, createdAt };
}
