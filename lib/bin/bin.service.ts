import type { Runtime } from '../runtime.js';
import { type BinPage, listBinEntries } from './bin.repo.js';
import type { ListBinQuery } from './bin.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** One page of the project's bin, in the requested id (= deletion time) order. */
export async function listBin(deps: Deps, projectId: string, query: ListBinQuery): Promise<BinPage> {
  return listBinEntries(deps, projectId, {
    limit: query.limit,
    descending: query.order === '-id',
    startingAfterId: query.starting_after_id,
  });
}
