import { NotFoundError } from '../errors.js';
import { removeVoucherRedemptions } from '../redemptions/redemption.repo.js';
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

/**
 * DELETE /v1/trash-bin/{binEntryId}: the entry goes for good, and with a voucher's entry the
 * redemptions, rollbacks and count shards its voucher kept for a restore go too, as
 * `DELETE /v1/vouchers/{code}?force=true` removes them (paged, at most MAX_INLINE_REDEMPTION_DELETES;
 * docs/decisions.md "Deleting a bin entry"). The resource itself left the table when it was binned
 * (its code or name was freed then), so nothing else is held. Of concurrent deletes one wins; the
 * others answer 404.
 * @throws NotFoundError (bin_entry).
 */
export async function deleteBinEntry(deps: Deps, projectId: string, entryId: string): Promise<void> {
  const entry = await repo.getBinEntry(deps, projectId, entryId);
  if (!entry || !(await repo.removeBinEntry(deps, projectId, entryId))) throw new NotFoundError('bin_entry', entryId);
  if (entry.resourceType === 'voucher') await removeVoucherRedemptions(deps, projectId, entry.resourceId);
}
