import type { AsyncAction } from './async-action.js';
import type { AsyncActionListReply, AsyncActionReply } from './async-action.reply.js';

/** How a bulk action's result names what it did (the voucher imports say "Imported N vouchers"). */
const bulkVerbs: Partial<Record<AsyncAction['type'], string>> = {
  'VOUCHERS.BULK_UPDATE': 'Updated',
  'VOUCHERS.METADATA_UPDATE': 'Updated',
  'PRODUCTS.BULK_UPDATE': 'Updated',
  'PRODUCTS.METADATA_UPDATE': 'Updated',
  'CUSTOMERS.BULK_UPDATE': 'Updated',
  'CUSTOMERS.METADATA_UPDATE': 'Updated',
};
const bulkNouns: Partial<Record<AsyncAction['type'], string>> = {
  'PRODUCTS.IMPORT_CSV': 'products',
  'PRODUCTS.BULK_UPDATE': 'products',
  'PRODUCTS.METADATA_UPDATE': 'products',
  'SKUS.IMPORT_CSV': 'SKUs',
  'CUSTOMERS.IMPORT_CSV': 'customers',
  'CUSTOMERS.BULK_UPDATE': 'customers',
  'CUSTOMERS.METADATA_UPDATE': 'customers',
  'ORDERS.IMPORT': 'orders',
};

/** Percent done: of the vouchers generated, or of an import's chunks written (successes and failures alike). */
function progressOf(a: AsyncAction): number {
  if (a.import) return a.import.chunks > 0 ? Math.floor((a.import.chunksDone * 100) / a.import.chunks) : 100;
  return a.requested > 0 ? Math.floor((a.doneCount * 100) / a.requested) : 100;
}

/**
 * Voucherify's async action object (AsyncActionGetResponseBody) for CAMPAIGN.VOUCHERS_GENERATE, _IMPORT, _DELETE and _UPDATE.
 * `result` appears once the action is final: `{message, done_count}` as Voucherify words it.
 */
export function toAsyncActionReply(a: AsyncAction): AsyncActionReply {
  const final = a.status === 'DONE' || a.status === 'FAILED';
  const failures = a.import ? { failed_count: a.import.failed.length, failed: a.import.failed } : {};
  const result =
    a.status === 'DONE'
      ? {
          message: a.import
            ? `${bulkVerbs[a.type] ?? 'Imported'} ${a.doneCount} ${bulkNouns[a.type] ?? 'vouchers'}; ${a.import.failed.length} failed.`
            : a.type === 'CAMPAIGN.VOUCHERS_DELETE'
              ? `Deleted ${a.doneCount} vouchers.`
              : a.type === 'CAMPAIGN.VOUCHERS_UPDATE'
                ? `Updated ${a.doneCount} vouchers.`
                : `Generated ${a.doneCount} vouchers.`,
          done_count: a.doneCount,
          ...failures,
        }
      : a.status === 'FAILED'
        ? { message: a.failure ?? 'Failed', done_count: a.doneCount, ...failures }
        : null;
  return {
    id: a.id,
    type: a.type,
    status: a.status,
    operation_status: a.status === 'DONE' ? 'SUCCESS' : a.status === 'FAILED' ? 'FAILED' : 'UNKNOWN',
    ...(result ? { result } : {}),
    created_at: a.createdAt,
    updated_at: a.updatedAt,
    request_id: a.requestId,
    ...(final && a.finishedAt ? { processing_time: Date.parse(a.finishedAt) - Date.parse(a.createdAt) } : {}),
    progress: progressOf(a),
    object: 'async_action',
  };
}

/** GET /v1/async-actions: each action without its `result`, as the reference's list shows them. */
export function toAsyncActionListReply(page: { actions: AsyncAction[]; hasMore: boolean }): AsyncActionListReply {
  return {
    object: 'list',
    data_ref: 'async_actions',
    async_actions: page.actions.map((a) => {
      const { result: _result, ...rest } = toAsyncActionReply(a);
      return rest;
    }),
    has_more: page.hasMore,
  };
}
