import { NotFoundError, StackingRulesExistError } from '../errors.js';
import { requireProject } from '../projects/require-project.js';
import type { Runtime } from '../runtime.js';
import { removeStackingRules } from '../validations/stacking-rules.repo.js';
import { changesOf, getProjectStackingRules, type ProjectStackingRules, writeStackingRules } from '../validations/stacking-rules.service.js';
import type { CreateStackingRulesBody, UpdateStackingRulesBody } from './stacking-rules.schema.js';

/*
 * The Management API's door onto the project's one set of stacking rules, the item GET/PUT
 * /v1/stacking-rules read and write and every validation and redemption follows.
 */

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;
type WriteDeps = Deps & Pick<Runtime, 'clock' | 'ids'>;

/**
 * create-stacking-rules: the members sent over the defaults; a project has one set at most.
 * @throws NotFoundError (project), StackingRulesExistError (set already, by either door: 409 `stacking_rules_exist`), InvalidPayloadError.
 */
export async function createStackingRules(deps: WriteDeps, projectId: string, body: CreateStackingRulesBody): Promise<ProjectStackingRules> {
  await requireProject(deps, projectId);
  return writeStackingRules(deps, projectId, changesOf(body), (read) => {
    if (read !== null) throw new StackingRulesExistError(read.id ?? '');
    return 'write';
  });
}

/** list-stacking-rules: always one item, the rules in force (the defaults have no id). @throws NotFoundError (project). */
export async function listStackingRules(deps: Deps, projectId: string): Promise<ProjectStackingRules[]> {
  const [, rules] = await Promise.all([requireProject(deps, projectId), getProjectStackingRules(deps, projectId)]);
  return [rules];
}

const requireId = (rules: ProjectStackingRules, stackingRulesId: string): ProjectStackingRules => {
  if (rules.id !== stackingRulesId) throw new NotFoundError('stacking_rules', stackingRulesId);
  return rules;
};

/** get-stacking-rules. @throws NotFoundError (project; stacking_rules when the project's set rules have another id or none). */
export async function getStackingRules(deps: Deps, projectId: string, stackingRulesId: string): Promise<ProjectStackingRules> {
  const [, rules] = await Promise.all([requireProject(deps, projectId), getProjectStackingRules(deps, projectId)]);
  return requireId(rules, stackingRulesId);
}

/**
 * update-stacking-rules: the members sent replace the stored ones; the others stay.
 * @throws NotFoundError (project, stacking_rules), InvalidPayloadError.
 */
export async function updateStackingRules(
  deps: WriteDeps,
  projectId: string,
  stackingRulesId: string,
  body: UpdateStackingRulesBody,
): Promise<ProjectStackingRules> {
  await requireProject(deps, projectId);
  return writeStackingRules(deps, projectId, changesOf(body), (read) => {
    if (read?.id !== stackingRulesId) throw new NotFoundError('stacking_rules', stackingRulesId);
    return 'write';
  });
}

/**
 * delete-stacking-rules: the project is back to the defaults from the reply on, and may create rules again.
 * @throws NotFoundError (project, stacking_rules; also to the loser of two concurrent deletes).
 */
export async function deleteStackingRules(deps: Deps, projectId: string, stackingRulesId: string): Promise<void> {
  await requireProject(deps, projectId);
  if (!(await removeStackingRules(deps, projectId, stackingRulesId))) throw new NotFoundError('stacking_rules', stackingRulesId);
}
