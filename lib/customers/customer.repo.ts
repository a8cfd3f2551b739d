import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../db/keys.js';
import { backoff, MAX_CONFLICT_ATTEMPTS, transact } from '../db/transact.js';
import { ConflictRetryError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { Customer, CustomerFields } from './customer.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

const SCHEMA_VERSION = 1;

const toDomain = (item: Record<string, unknown>): Customer => {
  const { PK: _pk, SK: _sk, entity: _e, v: _v, ...rest } = item;
  return rest as unknown as Customer;
};

/** A customer by id (strongly consistent); null if none. */
export async function getCustomer(deps: Deps, projectId: string, customerId: string): Promise<Customer | null> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.tableName, Key: keys.customer(projectId, customerId), ConsistentRead: true }));
  return res.Item ? toDomain(res.Item) : null;
}

/** The id of the customer with this source id (strongly consistent); null if none. */
export async function getCustomerIdBySourceId(deps: Deps, projectId: string, sourceId: string): Promise<string | null> {
  const res = await deps.ddb.send(
    new GetCommand({ TableName: deps.tableName, Key: keys.customerSourceId(projectId, sourceId), ConsistentRead: true }),
  );
  return res.Item ? (res.Item.customerId as string) : null;
}

/**
 * Writes a new customer and claims its source id, in one transaction.
 * @returns false when the source id is already claimed (by a concurrent writer): nothing is written.
 */
export async function insertCustomer(deps: Deps, customer: Customer & { sourceId: string }): Promise<boolean> {
  const p = customer.projectId;
  for (let attempt = 0; attempt < MAX_CONFLICT_ATTEMPTS; attempt += 1) {
    const outcome = await transact(deps, [
      {
        Put: {
          TableName: deps.tableName,
          Item: { ...keys.customerSourceId(p, customer.sourceId), entity: 'customer_source_id', v: SCHEMA_VERSION, customerId: customer.id },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      {
        Put: {
          TableName: deps.tableName,
          Item: { ...keys.customer(p, customer.id), entity: 'customer', v: SCHEMA_VERSION, ...customer },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    ]);
    if (outcome.ok) return true;
    if ('failed' in outcome) {
      if (outcome.failed.includes(0)) return false;
      throw new Error(`Customer id ${customer.id} is already taken`);
    }
    await backoff(attempt);
  }
  throw new ConflictRetryError(`Too many concurrent writes of customer ${customer.sourceId}`);
}

/**
 * Sets the given fields on an existing customer (last writer wins per field).
 * @returns the customer as written, or null if it does not exist.
 */
export async function updateCustomerFields(deps: Deps, projectId: string, customerId: string, fields: CustomerFields, updatedAt: string): Promise<Customer | null> {
  const entries = Object.entries({ ...fields, updatedAt });
  try {
    const res = await deps.ddb.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: keys.customer(projectId, customerId),
        UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return res.Attributes ? toDomain(res.Attributes) : null;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return null;
    throw error;
  }
}
