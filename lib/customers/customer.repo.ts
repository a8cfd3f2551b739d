import { customer as customerEntity, customerSourceId } from '../db/entities.js';
import { putUnique } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { Customer, CustomerFields } from './customer.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** A customer by id (strongly consistent); null if none. */
export function getCustomer(deps: Deps, projectId: string, customerId: string): Promise<Customer | null> {
  return customerEntity.get(deps, customerEntity.key(projectId, customerId));
}

/** The id of the customer with this source id (strongly consistent); null if none. */
export async function getCustomerIdBySourceId(deps: Deps, projectId: string, sourceId: string): Promise<string | null> {
  return (await customerSourceId.get(deps, customerSourceId.key(projectId, sourceId)))?.customerId ?? null;
}

/**
 * Writes a new customer and claims its source id, in one transaction.
 * @returns false when the source id is already claimed (by a concurrent writer): nothing is written.
 */
export function insertCustomer(deps: Deps, customer: Customer & { sourceId: string }): Promise<boolean> {
  return putUnique(deps, customerSourceId.toItem({ customerId: customer.id }, customer.projectId, customer.sourceId), [customerEntity.toItem(customer)], {
    busy: `Too many concurrent writes of customer ${customer.sourceId}`,
    taken: `Customer id ${customer.id} is already taken`,
  });
}

/**
 * Sets the given fields on an existing customer (last writer wins per field).
 * @returns the customer as written, or null if it does not exist.
 */
export function updateCustomerFields(deps: Deps, projectId: string, customerId: string, fields: CustomerFields, updatedAt: string): Promise<Customer | null> {
  return customerEntity.update(deps, customerEntity.key(projectId, customerId), { ...fields, updatedAt });
}
