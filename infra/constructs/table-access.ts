import { Grant, type IGrantable } from 'aws-cdk-lib/aws-iam';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { tableDesign } from '../../lib/db/table.js';

/**
 * What a read-only handler may do. Narrower than `grantReadData`: no Scan (a request never scans)
 * and no stream or DescribeTable actions (nothing here uses them).
 */
export const TABLE_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'] as const;

/** Added for writers. Transactions are authorized item by item through these same actions. */
export const TABLE_WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'] as const;

/** Added for functions that only move existing items (a status): no Put, no Delete, no batch writes. */
export const TABLE_UPDATE_ACTIONS = ['dynamodb:UpdateItem'] as const;

/** `read`: reads only; `update`: reads and UpdateItem; `write`: reads and every item write. */
export type TableAccess = 'read' | 'update' | 'write';

const actionsFor: Record<TableAccess, readonly string[]> = {
  read: TABLE_READ_ACTIONS,
  update: [...TABLE_READ_ACTIONS, ...TABLE_UPDATE_ACTIONS],
  write: [...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS],
};

/**
 * Grants a function the table access its route (or worker) declares, on the table and each of its
 * named indexes: exact ARNs instead of `grantReadData`'s `index/*` wildcard.
 */
export function grantTableAccess(table: ITable, grantee: IGrantable, access: TableAccess): Grant {
  const indexArns = Object.values(tableDesign.indexes).map((index) => `${table.tableArn}/index/${index.name}`);
  return Grant.addToPrincipal({
    grantee,
    actions: [...actionsFor[access]],
    resourceArns: [table.tableArn, ...indexArns],
  });
}
