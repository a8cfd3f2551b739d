import { keys } from '../db/keys.js';
import { queryAll } from '../db/query.js';
import type { TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { CustomEvent } from './event.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

const SCHEMA_VERSION = 1;

/** The transaction item that stores a new event (ids are random: a taken one is a bug). */
export const putEventItem = (deps: Deps, e: CustomEvent): TransactItem => ({
  Put: {
    TableName: deps.tableName,
    Item: { ...keys.customEvent(e.projectId, e.customerId, e.createdAt, e.id), entity: 'custom_event', v: SCHEMA_VERSION, ...e },
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});

/** A customer's events, oldest first (one Query on the customer's event partition). */
export async function listEventsOfCustomer(deps: Deps, projectId: string, customerId: string): Promise<CustomEvent[]> {
  const items = await queryAll(deps.ddb, {
    TableName: deps.tableName,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :event)',
    ExpressionAttributeValues: { ':pk': keys.customerEventsPartition(projectId, customerId), ':event': 'EVENT#' },
    ConsistentRead: true,
  });
  return items.map((item) => {
    const { PK: _pk, SK: _sk, entity: _e, v: _v, ...rest } = item;
    return rest as unknown as CustomEvent;
  });
}
