import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Item } from '../db/entity.js';
import type { Runtime } from '../runtime.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/**
 * Where a walk over a project's items stands: the table key (PK, SK) after which the next page
 * starts, as JSON text (stored on the job's subject item), or null at the start of a pass.
 */
export type WalkCursor = string | null;

/** One page of a project's items and where the next page starts (null: the pass is over). */
export interface ProjectItemsPage {
  items: Item[];
  /** The cursor after the page's last evaluated item; null when the table is exhausted. */
  next: WalkCursor;
}

/** The cursor that starts right after `item` (a Scan's ExclusiveStartKey may name any key, even a deleted item's). */
export const cursorAfter = (item: Item): string => JSON.stringify({ PK: item.PK, SK: item.SK });

/**
 * Reads the project's items of the next `evaluate` table items from `cursor`: every item whose
 * partition is the project's (`P#<projectId>#…`) or whose partition is the project's own
 * (`P#<projectId>`, settings), except its tombstone. Item keys start with the project but
 * DynamoDB cannot Query a partition key prefix, so this is a Scan of the whole table, read once
 * per pass by a rare operator or erasure job (docs/decisions.md "Deleting a project").
 * Credential lookups keyed by the credential (application keys, OAuth tokens, client origins)
 * and open-job markers are not under the prefix: their owners remove them.
 */
export async function projectItemsPage(deps: Deps, projectId: string, cursor: WalkCursor, evaluate: number): Promise<ProjectItemsPage> {
  const reply = await deps.ddb.send(
    new ScanCommand({
      TableName: deps.tableName,
      ConsistentRead: true,
      Limit: evaluate,
      FilterExpression: 'begins_with(PK, :prefix) OR (PK = :own AND SK <> :tombstone)',
      ExpressionAttributeValues: { ':prefix': `P#${projectId}#`, ':own': `P#${projectId}`, ':tombstone': 'PROJECT_DELETED' },
      ...(cursor !== null ? { ExclusiveStartKey: JSON.parse(cursor) as Record<string, unknown> } : {}),
    }),
  );
  const last = reply.LastEvaluatedKey;
  return { items: (reply.Items ?? []) as Item[], next: last ? JSON.stringify({ PK: last.PK, SK: last.SK }) : null };
}
