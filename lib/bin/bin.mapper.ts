import type { BinEntry } from './bin-entry.js';
import type { BinPage } from './bin.repo.js';
import type { BinEntryReply, BinListReply } from './bin.reply.js';

export const toBinEntryReply = (e: BinEntry): BinEntryReply => ({
  id: e.id,
  created_at: e.createdAt,
  deleted_by_user_id: e.deletedByUserId,
  resource_id: e.resourceId,
  resource_type: e.resourceType,
  resource_name: e.resourceName,
  resource_parent_id: e.resourceParentId,
  object: e.resourceType,
});

/** Voucherify's TrashBinListResponseBody: `total` is the number of entries in this reply. */
export function toBinListReply(page: BinPage): BinListReply {
  const last = page.entries.at(-1);
  return {
    object: 'list' as const,
    data_ref: 'data' as const,
    data: page.entries.map(toBinEntryReply),
    total: page.entries.length,
    has_more: page.hasMore,
    ...(page.hasMore && last ? { more_starting_after: last.id } : {}),
  };
}
