import * as entities from '../db/entities.js';
import { RETRY, retryOnConflict, transact, type TransactItem } from '../db/transact.js';
import { NotFoundError } from '../errors.js';
import type { JobQueue } from '../jobs/job.js';
import { openJobPut } from '../jobs/open-job.repo.js';
import type { Logger } from '../logger.js';
import { WALK_START, type WalkState } from '../projects/walk-state.js';
import type { Runtime } from '../runtime.js';
import type { Customer } from './customer.js';
import * as repo from './customer.repo.js';
import { type PersonalData, personalDataOf } from './customer-erasure.rules.js';

/**
 * POST /v1/customers/{customerId}/permanent-deletion (the job is customer-erasure.job.ts) (`erase-customer`). The request
 * deletes the customer item, its source id item and its list entries and counts in one
 * transaction with the erasure item (the job's subject and open-job marker): from the reply on the
 * customer is gone as a whole. The job then walks the project's items (lib/projects/project-walk.ts)
 * and deletes the customer's partitions (events, counters) and anonymises every other item that
 * names the customer (customer-erasure.rules.ts), chunk by chunk with its checkpoint, until a pass
 * changes nothing. docs/architecture.md "Personal data" lists the items.
 */

/** The erasure's counts, as the reply's `data_json` names them (camelCase here). */
export interface ErasureCounts {
  events: number;
  customerEvents: number;
  dailyEvents: number;
  segments: number;
  orders: number;
  orderEvents: number;
  customer: number;
}

/** A customer's permanent deletion (`del_...`), keyed by the customer id. */
export interface CustomerErasure extends Partial<WalkState> {
  id: string;
  projectId: string;
  customerId: string;
  createdAt: string;
  status: 'IN_PROGRESS' | 'DONE' | 'FAILED';
  counts: ErasureCounts;
  /** What the job looks for; removed when the job ends. */
  personal?: PersonalData;
  failure?: string | null;
  updatedAt?: string;
  /** When the table walk ended: the export-file stage (customer-erasure-files.ts) then runs; exports created later are left alone. */
  walkEndedAt?: string;
  /** The export-file stage's checkpoint: `<createdAt>#<exportId>` of the last export it finished. */
  filesCursor?: string;
  /** Export files rewritten without the customer's data, and files deleted (rows that cannot be told apart). */
  filesRewritten?: number;
  filesDeleted?: number;
}

/**
 * The job's first pass starts this long after the request: a redemption or publication that read
 * the customer before it went may still commit its copy meanwhile (the API's request time limit).
 */
export const ERASURE_SETTLE_MS = 30_000;

export const erasureKey = (projectId: string, customerId: string) => entities.customerErasure.key(projectId, customerId);

/** The erasure of a customer id (strongly consistent); null when none was asked. */
export const getCustomerErasure = (deps: Pick<Runtime, 'ddb' | 'tableName'>, projectId: string, customerId: string): Promise<CustomerErasure | null> =>
  entities.customerErasure.get(deps, erasureKey(projectId, customerId), { consistent: true });

const zeroCounts = (): ErasureCounts => ({ events: 0, customerEvents: 0, dailyEvents: 0, segments: 0, orders: 0, orderEvents: 0, customer: 1 });

/** Deletes the customer's own items and puts the erasure with its marker, together; null when the customer changed or went meanwhile. */
async function startErasure(deps: Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>, customer: Customer): Promise<CustomerErasure | null> {
  const now = deps.clock.now().toISOString();
  const erasure: CustomerErasure = {
    id: deps.ids.id('del'),
    projectId: customer.projectId,
    customerId: customer.id,
    createdAt: now,
    status: 'IN_PROGRESS',
    counts: zeroCounts(),
    personal: personalDataOf(customer),
    walkCursor: WALK_START,
    walkPass: 0,
    walkChanged: 0,
    failure: null,
    updatedAt: now,
  };
  const items: TransactItem[] = [
    ...repo.customerDeletionItems(deps, customer),
    entities.customerErasure.putIfAbsent(deps, erasure),
    openJobPut(deps, { type: 'erase-customer', projectId: customer.projectId, subjectId: customer.id, createdAt: now }),
  ];
  const outcome = await transact(deps, items);
  if (outcome.ok) return erasure;
  if (!('failed' in outcome)) return null;
  if (outcome.failed.some((i) => i > 0 && i < items.length - 2)) throw new Error(`The source id item of customer ${customer.id} names another customer`);
  return null;
}

/**
 * POST /v1/customers/{customerId}/permanent-deletion: erases the customer an id or source id names.
 * Asked again (by id) it answers the same erasure with its current status, and re-sends its job
 * while it is open. A refused send is logged: the open-job marker stays for the start-up resume,
 * and the next call sends it again.
 * @throws NotFoundError (customer) when no customer and no erasure has that id (a source id is
 * forgotten with the customer).
 */
export async function customerPermanentlyDeletion(
  deps: Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'> & { jobs: JobQueue; logger?: Logger },
  projectId: string,
  ref: string,
): Promise<CustomerErasure> {
  const erasure = await retryOnConflict(`Too many concurrent writes of customer ${ref}`, async () => {
    const asked = await getCustomerErasure(deps, projectId, ref);
    if (asked) return asked;
    const byId = await repo.getCustomer(deps, projectId, ref);
    const bySource = byId ? null : await repo.getCustomerIdBySourceId(deps, projectId, ref);
    const customer = byId ?? (bySource ? await repo.getCustomer(deps, projectId, bySource) : null);
    if (!customer) {
      if (bySource) return (await getCustomerErasure(deps, projectId, bySource)) ?? RETRY;
      throw new NotFoundError('customer', ref);
    }
    return (await startErasure(deps, customer)) ?? (await getCustomerErasure(deps, projectId, customer.id)) ?? RETRY;
  });
  if (erasure.status === 'IN_PROGRESS') {
    try {
      await deps.jobs.send({ type: 'erase-customer', projectId, customerId: erasure.customerId });
    } catch (error) {
      deps.logger?.error('the customer erasure could not be enqueued', { customer_id: erasure.customerId, error: String(error) });
    }
  }
  return erasure;
}
