import { customEvent, EVENT_SORT_PREFIX } from '../db/entities.js';
import type { TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { CustomEvent } from './event.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** The transaction item that stores a new event (ids are random: a taken one is a bug). */
export const putEventItem = (deps: Deps, e: CustomEvent): TransactItem => customEvent.putIfAbsent(deps, e);

/** A customer's events, oldest first (one Query on the customer's event partition). */
export function listEventsOfCustomer(deps: Deps, projectId: string, customerId: string): Promise<CustomEvent[]> {
  return customEvent.query(deps, { key: [projectId, customerId] }, { consistent: true, sortBeginsWith: `${EVENT_SORT_PREFIX}#` });
}
