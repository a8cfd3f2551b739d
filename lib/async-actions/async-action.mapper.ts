import type { AsyncAction } from './async-action.js';
import type { AsyncActionReply } from './async-action.reply.js';

/**
 * Voucherify's async action object (AsyncActionGetResponseBody) for CAMPAIGN.VOUCHERS_GENERATE and CAMPAIGN.VOUCHERS_DELETE.
 * `result` appears once the action is final: `{message, done_count}` as Voucherify words it.
 */
export function toAsyncActionReply(a: AsyncAction): AsyncActionReply {
  const final = a.status === 'DONE' || a.status === 'FAILED';
  const result =
    a.status === 'DONE'
      ? { message: a.type === 'CAMPAIGN.VOUCHERS_DELETE' ? `Deleted ${a.doneCount} vouchers.` : `Generated ${a.doneCount} vouchers.`, done_count: a.doneCount }
      : a.status === 'FAILED'
        ? { message: a.failure ?? 'Failed', done_count: a.doneCount }
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
    progress: a.requested > 0 ? Math.floor((a.doneCount * 100) / a.requested) : 100,
    object: 'async_action',
  };
}
