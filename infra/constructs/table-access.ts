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

/**
 * Grants a function the table access its route declares, on the table and each of its named
 * indexes: exact ARNs instead of `grantReadData`'s `index/*` wildcard.
 */
export function grantTableAccess(table: ITable, grantee: IGrantable, access: 'read' | 'write'): Grant {
  const indexArns = Object.values(tableDesign.indexes).map((index) => `${table.tableArn}/index/${index.name}`);
  return Grant.addToPrincipal({
    grantee,
    actions: access === 'write' ? [...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS] : [...TABLE_READ_ACTIONS],
    resourceArns: [table.tableArn, ...indexArns],
  });
}
