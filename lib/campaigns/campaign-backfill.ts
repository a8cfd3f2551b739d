import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { putAll } from '../db/batch-write.js';
import * as entities from '../db/entities.js';
import { ENTITY_ATTR } from '../db/table.js';
import { backoff } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import { numberViews, type ViewNumbers } from './campaign-views.js';
import { getCampaignCounter, listCampaignEntries, viewEntryItems } from './campaign.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** What the backfill did to one project. */
export interface CampaignFilterBackfill {
  projectId: string;
  campaigns: number;
  /**
   * `indexed`: views and the not-DONE set written now; `rebuilt`: the not-DONE set rebuilt after an
   * overflow; `already-indexed`, `no-campaigns`: nothing to do; `still-overflowing`: more campaigns
   * than MAX_NOT_DONE are not DONE, so status filters keep reading the list partition.
   */
  outcome: 'indexed' | 'rebuilt' | 'already-indexed' | 'no-campaigns' | 'still-overflowing';
  /** Campaigns that are not DONE (kept in the counter unless still overflowing). */
  notDone: number;
  /** Reads of the project it took (a creation or status change during one sends it round again). */
  attempts: number;
}

/** Rounds before the backfill of a project gives up (each round lost means the project changed while it was read). */
const MAX_ROUNDS = 20;

/**
 * Gives a project's campaigns written before the filter views existed what insertCampaign gives a
 * new one: its entries in its three views, its numbers on its list entry, and, on the counter,
 * each view's count and the set of campaigns that are not DONE (the counter's `views` appear last:
 * they switch GET /v1/campaigns to the views). Also rebuilds the not-DONE set after an overflow.
 *
 * Idempotent and safe beside live traffic: numbers follow creation order, so a rerun writes the
 * same entries (no count is ever added to, only set), and the counter is written only if neither
 * the campaign count nor the count of status changes moved since the list was read; otherwise
 * the project is read and written again.
 * @throws Error when the project keeps changing for MAX_ROUNDS rounds, or its list entries do not
 *   add up to its counter.
 */
export async function backfillCampaignFilters(deps: Deps, projectId: string): Promise<CampaignFilterBackfill> {
  for (let round = 1; round <= MAX_ROUNDS; round += 1) {
    if (round > 1) await backoff(round);
    const counter = await getCampaignCounter(deps, projectId);
    const report = (outcome: CampaignFilterBackfill['outcome'], notDone: number): CampaignFilterBackfill => ({
      projectId,
      campaigns: counter?.campaignCount ?? 0,
      outcome,
      notDone,
      attempts: round,
    });
    if (!counter) return report('no-campaigns', 0);
    if (counter.views && !counter.notDoneOverflow) return report('already-indexed', Object.keys(counter.notDone ?? {}).length);
    const entries = (await listCampaignEntries(deps, projectId, { consistent: true })).sort((a, b) => a.sequence - b.sequence);
    // A campaign created between the two reads: read both again.
    if (entries.length !== counter.campaignCount) {
      if (entries.length > counter.campaignCount) continue;
      throw new Error(`Project ${projectId} counts ${counter.campaignCount} campaigns but has ${entries.length} list entries`);
    }
    const numbering = numberViews(entries);
    const notDone = entries.filter((e) => e.creationStatus !== 'DONE').length;
    if (!counter.views) {
      // Entries first, the counter's views last: until they are there, listings do not read the views.
      await putAll(
        deps,
        entries.flatMap((e, i) => viewEntryItems(projectId, e, numbering.numbers[i] as ViewNumbers)),
      );
      await setViewNumbers(
        deps,
        entries.map((e, i) => ({ key: entities.campaignListEntry.key(projectId, e.createdAt, e.id), numbers: numbering.numbers[i] as ViewNumbers })),
      );
    } else if (!numbering.notDone) {
      return report('still-overflowing', notDone);
    }
    const committed = await commitCounter(deps, projectId, {
      campaignCount: counter.campaignCount,
      statusMoves: counter.statusMoves,
      hadViews: counter.views !== undefined,
      views: numbering.views,
      notDone: numbering.notDone,
    });
    if (committed) return report(counter.views ? 'rebuilt' : numbering.notDone ? 'indexed' : 'still-overflowing', notDone);
  }
  throw new Error(`Project ${projectId} kept changing while its campaign filters were backfilled (${MAX_ROUNDS} rounds): run the backfill again`);
}

/** Sets `viewNumbers` on list entries (UpdateItem: a status change racing it is never undone), 16 at a time. */
async function setViewNumbers(deps: Deps, updates: ReadonlyArray<{ key: { PK: string; SK: string }; numbers: ViewNumbers }>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < updates.length) {
      const { key, numbers } = updates[next++] as (typeof updates)[number];
      await deps.ddb.send(
        new UpdateCommand({
          TableName: deps.tableName,
          Key: key,
          UpdateExpression: 'SET viewNumbers = :n',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':n': numbers },
        }),
      );
    }
  };
  await Promise.all(Array.from({ length: 16 }, lane));
}

/**
 * Writes the views' counts and the not-DONE set (or the overflow mark) on the counter, if the
 * project is as it was read: same campaign count, same count of status changes, same state.
 * @returns false when it changed meanwhile (nothing written).
 */
async function commitCounter(
  deps: Deps,
  projectId: string,
  read: {
    campaignCount: number;
    statusMoves: number | undefined;
    hadViews: boolean;
    views: Record<string, number>;
    notDone: Record<string, unknown> | null;
  },
): Promise<boolean> {
  const values: Record<string, unknown> = { ':count': read.campaignCount, ':views': read.views, ':notDone': read.notDone ?? {} };
  const conditions = ['campaignCount = :count', read.hadViews ? 'notDoneOverflow = :true' : 'attribute_not_exists(#views)'];
  if (read.hadViews) values[':true'] = true;
  if (read.statusMoves === undefined) conditions.push('attribute_not_exists(statusMoves)');
  else {
    conditions.push('statusMoves = :moves');
    values[':moves'] = read.statusMoves;
  }
  let update = 'SET #views = :views, notDone = :notDone REMOVE notDoneOverflow';
  if (!read.notDone) {
    update = 'SET #views = :views, notDone = :notDone, notDoneOverflow = :true';
    values[':true'] = true;
  }
  try {
    await deps.ddb.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: entities.campaignCounter.key(projectId),
        UpdateExpression: update,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: { '#views': 'views' },
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * The projects that have campaigns: a Scan for campaign counters (an operator's one-off over the
 * whole table, paid once; no request path scans). Yields project ids page by page.
 */
export async function* projectsWithCampaigns(deps: Deps): AsyncGenerator<string> {
  const prefix = entities.campaignCounter.key.partition('');
  let start: Record<string, unknown> | undefined;
  do {
    const res = await deps.ddb.send(
      new ScanCommand({
        TableName: deps.tableName,
        FilterExpression: '#entity = :entity',
        ExpressionAttributeNames: { '#entity': ENTITY_ATTR },
        ExpressionAttributeValues: { ':entity': entities.campaignCounter.name },
        ProjectionExpression: 'PK',
        ExclusiveStartKey: start,
      }),
    );
    // The counter's partition is the project's own (`P#<projectId>`).
    for (const item of res.Items ?? []) yield String(item.PK).slice(prefix.length);
    start = res.LastEvaluatedKey;
  } while (start);
}
