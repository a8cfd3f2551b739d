import { clientOrigin } from '../db/entities.js';
import type { Runtime } from '../runtime.js';

/** Whether any client-side key of any project trusts `origin` (one Query of the origin's partition, one item at most). */
export async function originTrusted(deps: Pick<Runtime, 'ddb' | 'tableName'>, origin: string): Promise<boolean> {
  return (await clientOrigin.queryPage(deps, { key: [origin] }, { pageSize: 1 })).length > 0;
}
