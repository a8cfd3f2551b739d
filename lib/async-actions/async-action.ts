import type { VoucherOverrides } from '../vouchers/voucher-generation.js';

export type AsyncActionStatus = 'ENQUEUED' | 'IN_PROGRESS' | 'DONE' | 'FAILED';

/**
 * Async action types: bulk generation, the imports of a list of vouchers into a campaign or as
 * standalone vouchers, the removal of a deleted campaign's vouchers, and the change of a campaign's
 * vouchers after a PUT changed their discount or gift (lib/campaigns/campaign-vouchers-update.ts).
 */
export type AsyncActionType =
  | 'CAMPAIGN.VOUCHERS_GENERATE'
  | 'CAMPAIGN.VOUCHERS_IMPORT'
  | 'VOUCHERS.IMPORT'
  | 'CAMPAIGN.VOUCHERS_DELETE'
  | 'CAMPAIGN.VOUCHERS_UPDATE'
  | 'VOUCHERS.IMPORT_CSV'
  | 'CAMPAIGN.VOUCHERS_IMPORT_CSV'
  | BulkActionType;

/** The async actions of lib/bulk/bulk-job.ts: rows applied one by one through the resources' own services. */
export type BulkActionType =
  | 'VOUCHERS.BULK_UPDATE'
  | 'VOUCHERS.METADATA_UPDATE'
  | 'PRODUCTS.IMPORT_CSV'
  | 'SKUS.IMPORT_CSV'
  | 'CUSTOMERS.IMPORT_CSV'
  | 'PRODUCTS.BULK_UPDATE'
  | 'PRODUCTS.METADATA_UPDATE'
  | 'CUSTOMERS.BULK_UPDATE'
  | 'CUSTOMERS.METADATA_UPDATE'
  | 'ORDERS.IMPORT';

/** A voucher an import could not write, and why (the reference's `result.failed[]`). */
export interface ImportFailure {
  code: string;
  reason: string;
  /** The line of a CSV import's file the failed row starts on (failures found before the job ran). */
  line?: number;
}

/**
 * An import's progress: the list is stored in `chunks` chunk items (lib/vouchers/voucher-import-job.ts);
 * `chunksDone` is the checkpoint, raised with `failed` in the transaction that writes a chunk's vouchers.
 */
export interface ImportProgress {
  chunks: number;
  chunksDone: number;
  failed: ImportFailure[];
}

/**
 * A bulk voucher generation (Voucherify's `CAMPAIGN.VOUCHERS_GENERATE` async action). Everything
 * the worker needs is here, not in the queue message. `doneCount` is raised only in the
 * transaction that writes that many vouchers, so it is both the progress and the resume point.
 */
export interface AsyncAction {
  id: string;
  projectId: string;
  type: AsyncActionType;
  status: AsyncActionStatus;
  /** The request that started it. */
  requestId: string;
  /** The campaign generated into or imported to; `none` (NO_CAMPAIGN) for VOUCHERS.IMPORT. */
  campaignId: string;
  requested: number;
  doneCount: number;
  /** Set when the action generates a new campaign's vouchers: the campaign's creation status follows it. */
  campaignCreation: boolean;
  /** What generated vouchers get (a VOUCHERS_DELETE action has `{category: null}`). */
  overrides: VoucherOverrides;
  /**
   * VOUCHERS_DELETE only: true = the campaign's vouchers are removed for good, false = each goes to
   * the bin. `requested` is then the campaign's `vouchers_count` when it was deleted (raised if the
   * job finds more), `doneCount` the vouchers removed so far.
   */
  force?: boolean;
  /** Why it FAILED; null otherwise. */
  failure: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
  /** Imports only. */
  import?: ImportProgress;
}

/** What differs between new actions; the rest starts the same for every type (ENQUEUED, nothing done). */
export type NewAsyncAction = Pick<AsyncAction, 'id' | 'projectId' | 'type' | 'requestId' | 'campaignId' | 'requested'> &
  Partial<Pick<AsyncAction, 'campaignCreation' | 'overrides' | 'force' | 'import'>>;

/** A new action, ENQUEUED at `now` with nothing done. */
export function newAsyncAction(fields: NewAsyncAction, now: string): AsyncAction {
  return {
    status: 'ENQUEUED',
    doneCount: 0,
    campaignCreation: false,
    overrides: { category: null },
    failure: null,
    createdAt: now,
    updatedAt: now,
    finishedAt: null,
    ...fields,
  };
}
