import type { Runtime } from '../runtime.js';
import * as repo from './bin.repo.js';
import type { BinPage } from './bin.repo.js';
import type { ListBinQuery } from './bin.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** One page of the project's bin, in the requested id (= deletion time) order. */
export async function listBinEntries(deps: Deps, projectId: string, query: ListBinQuery): Promise<BinPage> {
  return repo.listBinEntries(deps, projectId, {
    limit: query.limit,
    descending: query.order === '-id',
    startingAfterId: query.starting_after_id,
  });
}
