import type { VoucherOverrides } from '../vouchers/voucher-generation.js';

export type AsyncActionStatus = 'ENQUEUED' | 'IN_PROGRESS' | 'DONE' | 'FAILED';

/**
 * A bulk voucher generation (Voucherify's `CAMPAIGN.VOUCHERS_GENERATE` async action). Everything
 * the worker needs is here, not in the queue message. `doneCount` is raised only in the
 * transaction that writes that many vouchers, so it is both the progress and the resume point.
 */
export interface AsyncAction {
  id: string;
  projectId: string;
  type: 'CAMPAIGN.VOUCHERS_GENERATE';
  status: AsyncActionStatus;
  /** The request that started it. */
  requestId: string;
  campaignId: string;
  requested: number;
  doneCount: number;
  /** Set when the action generates a new campaign's vouchers: the campaign's creation status follows it. */
  campaignCreation: boolean;
  overrides: VoucherOverrides;
  /** Why it FAILED; null otherwise. */
  failure: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}
