import { customer as customerEntity, customerSourceId } from '../db/entities.js';
import { putUnique, RETRY, retryOnConflict, transact, type TransactItem } from '../db/transact.js';
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

/**
 * Deletes a customer and frees its source id, in one transaction: the customer only if it is
 * still there, the source id item only if it still names this customer.
 * @returns false when the customer was gone already (a concurrent delete won): nothing is written.
 */
export function deleteCustomer(deps: Deps, customer: Customer): Promise<boolean> {
  const items: TransactItem[] = [
    { Delete: { TableName: deps.tableName, Key: customerEntity.key(customer.projectId, customer.id), ConditionExpression: 'attribute_exists(PK)' } },
  ];
  if (customer.sourceId !== null) {
    items.push({
      Delete: {
        TableName: deps.tableName,
        Key: customerSourceId.key(customer.projectId, customer.sourceId),
        ConditionExpression: 'customerId = :id',
        ExpressionAttributeValues: { ':id': customer.id },
      },
    });
  }
  return retryOnConflict(`Too many concurrent writes of customer ${customer.id}`, async () => {
    const outcome = await transact(deps, items);
    if (outcome.ok) return true;
    if ('failed' in outcome) return false;
    return RETRY;
  });
}
