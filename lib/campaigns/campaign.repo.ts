import * as entities from '../db/entities.js';
import type { Item, ItemKey } from '../db/entity.js';
import { queryAll } from '../db/query.js';
import { tableDesign } from '../db/table.js';
import { ExtraItemsConflictError, RETRY, retryOnConflict, transact, type TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { Campaign, CampaignCounter, CampaignListEntry, CampaignStatus } from './campaign.js';
import { ALL_VIEW, campaignViews, MAX_NOT_DONE, notDoneRecord, numberViews, type PageRead, type ViewNumbers } from './campaign-views.js';

export type { CampaignCounter, CampaignListEntry } from './campaign.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** Whether a campaign's vouchers are referral codes (a filter view of its own; false for campaigns without vouchers). */
export const isReferralCodeOf = (c: Campaign): boolean => c.voucher?.isReferralCode ?? false;

export const listEntryOf = (c: Campaign, sequence: number, viewNumbers?: ViewNumbers): CampaignListEntry => ({
  id: c.id,
  name: c.name,
  campaignType: c.campaignType,
  type: c.type,
  voucherType: c.voucher?.type ?? null,
  creationStatus: c.creationStatus,
  isReferralCode: isReferralCodeOf(c),
  categoryId: c.category?.id ?? null,
  categoryName: c.category?.name ?? null,
  active: c.active,
  startDate: c.startDate,
  expirationDate: c.expirationDate,
  validityDayOfWeek: c.validityDayOfWeek,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
  sequence,
  ...(viewNumbers ? { viewNumbers } : {}),
});

/**
 * The list entry item of a campaign, as insertCampaign writes it (exported so that bulk seeding
 * in tests and the benchmark writes the real layout). Without `viewNumbers`: as written before
 * the filter views existed.
 */
export const listEntryItem = (campaign: Campaign, sequence: number, viewNumbers?: ViewNumbers): Item =>
  entities.campaignListEntry.toItem(listEntryOf(campaign, sequence, viewNumbers), campaign.projectId);

/** The campaign item itself, as insertCampaign writes it. */
export const campaignItem = (campaign: Campaign): Item => entities.campaign.toItem(campaign);

export const campaignCounterItem = (projectId: string, counter: CampaignCounter): Item => entities.campaignCounter.toItem(counter, projectId);

/** A campaign's entries in its three filter views, at its numbers there. */
export const viewEntryItems = (projectId: string, campaign: Pick<CampaignListEntry, 'id' | 'campaignType' | 'isReferralCode'>, numbers: ViewNumbers): Item[] =>
  campaignViews(campaign.campaignType, campaign.isReferralCode).map((view, i) =>
    entities.campaignViewEntry.toItem({ id: campaign.id }, projectId, view, numbers[i] as number),
  );

/**
 * Every item a project's campaigns have once created, in the layout insertCampaign writes (the
 * campaign, its list entry, its view entries and, last, the project's counter), for campaigns of
 * one project given in creation order. For bulk seeding (tests, benchmark); names and tier refs are left out.
 */
export function bulkCampaignItems(campaigns: readonly Campaign[]): Item[] {
  const last = campaigns.at(-1);
  if (!last) return [];
  const numbering = numberViews(campaigns.map((c, i) => ({ ...c, isReferralCode: isReferralCodeOf(c), sequence: i + 1 })));
  const items = campaigns.flatMap((c, i) => {
    const numbers = numbering.numbers[i] as ViewNumbers;
    return [campaignItem(c), listEntryItem(c, i + 1, numbers), ...viewEntryItems(c.projectId, { ...c, isReferralCode: isReferralCodeOf(c) }, numbers)];
  });
  items.push(
    campaignCounterItem(last.projectId, {
      campaignCount: campaigns.length,
      lastCreatedAt: last.createdAt,
      views: numbering.views,
      notDone: numbering.notDone ?? {},
      ...(numbering.notDone ? {} : { notDoneOverflow: true }),
    }),
  );
  return items;
}

/** The project's campaign counter, read strongly consistently; null before its first campaign. */
export function getCampaignCounter(deps: Deps, projectId: string): Promise<CampaignCounter | null> {
  return entities.campaignCounter.get(deps, entities.campaignCounter.key(projectId));
}

/**
 * The ids of the campaigns numbered `from`..`to` (inclusive), in creation order or its reverse:
 * one Query of GSI1 over that key range, reading only those entries whatever the page number.
 * GSI1 is eventually consistent, so a campaign created a moment ago may be missing for a moment.
 */
export async function campaignIdsBySequence(deps: Deps, projectId: string, from: number, to: number, descending: boolean): Promise<string[]> {
  const bySequence = entities.campaignListEntry.index;
  const items = await queryAll(deps.ddb, {
    TableName: deps.tableName,
    IndexName: tableDesign.indexes.gsi1.name,
    KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': bySequence.partition(projectId), ':from': bySequence.sort(from), ':to': bySequence.sort(to) },
    ProjectionExpression: 'id',
    ScanIndexForward: !descending,
  });
  return items.map((item) => String(item.id));
}

/**
 * The ids a page plan names (campaign-views.ts planPage), in page order: each range one Query
 * (in parallel) of the view's entries (strongly consistent), or of the creation-number index for
 * the ALL view; reads exactly the page's entries.
 */
export async function campaignIdsOfPage(deps: Deps, projectId: string, view: string, reads: readonly PageRead[], descending: boolean): Promise<string[]> {
  const pages = await Promise.all(
    reads.map((read) => {
      if (read.kind === 'ids') return read.ids;
      if (view === ALL_VIEW) return campaignIdsBySequence(deps, projectId, read.from, read.to, descending);
      const sort = entities.campaignViewEntry.key.sort;
      return entities.campaignViewEntry
        .query(deps, { key: [projectId, view] }, { consistent: true, ascending: !descending, sortRange: { from: sort(read.from), to: sort(read.to) } })
        .then((entries) => entries.map((e) => e.id));
    }),
  );
  return pages.flat();
}

/**
 * Every list entry of a project, oldest first: Query pages over the project's compact entries
 * (about 300 bytes each, so 5,000 campaigns are two 1 MB pages), never a scan and never the
 * campaign items themselves. Only listings with `filters[…]` (or of a project whose views are not
 * complete) need this. `consistent` for the backfill.
 */
export function listCampaignEntries(deps: Deps, projectId: string, options: { consistent?: boolean } = {}): Promise<CampaignListEntry[]> {
  return entities.campaignListEntry.query(deps, { key: [projectId] }, options.consistent ? { consistent: true } : {});
}

/** Campaigns by id (≤ 100), in the order asked; ids whose campaign is gone are left out. */
export async function getCampaigns(deps: Deps, projectId: string, campaignIds: string[]): Promise<Campaign[]> {
  const keys = campaignIds.map((id) => entities.campaign.key(projectId, id));
  const found = new Map((await entities.campaign.getMany(deps, keys, 'Campaigns could not be read: the table is throttling')).map((c) => [c.id, c]));
  return campaignIds.flatMap((id) => found.get(id) ?? []);
}

/** Reads a campaign by id; strongly consistent, so a campaign is visible the moment it was created. */
export function getCampaign(deps: Deps, projectId: string, campaignId: string): Promise<Campaign | null> {
  return entities.campaign.get(deps, entities.campaign.key(projectId, campaignId));
}

export async function getCampaignIdByName(deps: Deps, projectId: string, name: string): Promise<string | null> {
  return (await entities.campaignName.get(deps, entities.campaignName.key(projectId, name)))?.campaignId ?? null;
}

export async function getCampaignIdByPromotionTier(deps: Deps, projectId: string, tierId: string): Promise<string | null> {
  return (await entities.promotionTierRef.get(deps, entities.promotionTierRef.key(projectId, tierId)))?.campaignId ?? null;
}

/**
 * The counter's write in a campaign's creating transaction. It holds only if the count is still
 * the one read (`campaignCount = :read`, or no counter yet), which serializes creations in a
 * project: numbers never repeat or skip. Once the project's views are complete (`views`), it also
 * raises the counts of the campaign's three views and records the campaign when it is not DONE;
 * before that (campaigns written before the views, not backfilled yet) it only counts, and the
 * condition pins that state so a backfill finishing meanwhile sends the creation round again.
 */
function counterWrite(deps: Deps, counter: CampaignCounter | null, campaign: Campaign, sequence: number, numbers: ViewNumbers | undefined): TransactItem {
  const key = entities.campaignCounter.key(campaign.projectId);
  const views = campaignViews(campaign.campaignType, isReferralCodeOf(campaign));
  const record = (n: ViewNumbers) => notDoneRecord(campaign.creationStatus, campaign.campaignType, isReferralCodeOf(campaign), sequence, n);
  const done = campaign.creationStatus === 'DONE';
  if (!counter) {
    const n = numbers ?? [1, 1, 1];
    const fresh: CampaignCounter = {
      campaignCount: sequence,
      lastCreatedAt: campaign.createdAt,
      views: Object.fromEntries(views.map((v) => [v, 1])),
      notDone: done ? {} : { [campaign.id]: record(n) },
    };
    return { Put: { TableName: deps.tableName, Item: campaignCounterItem(campaign.projectId, fresh), ConditionExpression: 'attribute_not_exists(PK)' } };
  }
  const sets = ['campaignCount = :n', 'lastCreatedAt = :t'];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':n': sequence, ':t': campaign.createdAt, ':read': counter.campaignCount };
  let condition = 'campaignCount = :read AND attribute_not_exists(#views)';
  names['#views'] = 'views';
  if (counter.views && numbers) {
    views.forEach((view, i) => {
      names[`#v${i}`] = view;
      values[`:v${i}`] = numbers[i];
      sets.push(`#views.#v${i} = :v${i}`);
    });
    condition = `campaignCount = :read AND attribute_exists(#views) AND ${counter.notDoneOverflow ? 'notDoneOverflow = :true' : 'attribute_not_exists(notDoneOverflow)'}`;
    if (counter.notDoneOverflow) values[':true'] = true;
    else if (!done && Object.keys(counter.notDone ?? {}).length >= MAX_NOT_DONE) {
      // The set would outgrow its cap: drop it; status filters read the list partition until a backfill rebuilds it.
      sets.push('notDoneOverflow = :true', '#notDone = :empty');
      Object.assign(values, { ':true': true, ':empty': {} });
      names['#notDone'] = 'notDone';
    } else if (!done) {
      sets.push('#notDone.#id = :record');
      Object.assign(names, { '#notDone': 'notDone', '#id': campaign.id });
      // Holds the cap exactly when status changes add records meanwhile (the count read may be stale).
      condition += ' AND size(#notDone) < :cap';
      Object.assign(values, { ':record': record(numbers), ':cap': MAX_NOT_DONE });
    }
  }
  return {
    Update: {
      TableName: deps.tableName,
      Key: key,
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: condition,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * Writes a new campaign, reserves its name, adds its list entry and its entries in its filter
 * views, counts it in the project's campaign counter and points each promotion tier id at it, all
 * in one transaction. The counter gives the campaign its creation number (and its numbers in its
 * views) and is conditioned on the count read, so concurrent creations in one project are
 * serialized (a loser re-reads and retries) and numbers never repeat or skip. `createdAt` is
 * raised to the counter's newest `createdAt` if the clock is behind it, so creation number order
 * and `created_at` order always agree.
 * @returns the campaign as written (its `createdAt` possibly raised), or null when the name is
 *   taken in the project (nothing is written).
 * `extra` items (a new category's) join the same transaction.
 * @throws ConflictRetryError when contention outlasts the retries; ExtraItemsConflictError when a
 *   condition of `extra` fails (nothing is written).
 */
export function insertCampaign(deps: Deps, campaign: Campaign, extra: readonly TransactItem[] = []): Promise<Campaign | null> {
  const p = campaign.projectId;
  return retryOnConflict(`Too many concurrent writes: campaign ${campaign.name}`, async () => {
    const counter = await getCampaignCounter(deps, p);
    const stamped = counter && counter.lastCreatedAt > campaign.createdAt ? { ...campaign, createdAt: counter.lastCreatedAt } : campaign;
    const sequence = (counter?.campaignCount ?? 0) + 1;
    // A project whose campaigns predate the views gets none until its backfill numbers them all.
    const numbers =
      !counter || counter.views
        ? (campaignViews(stamped.campaignType, isReferralCodeOf(stamped)).map((view) => (counter?.views?.[view] ?? 0) + 1) as ViewNumbers)
        : undefined;
    const items: TransactItem[] = [
      entities.campaignName.putIfAbsent(deps, { campaignId: stamped.id }, p, stamped.name),
      counterWrite(deps, counter, stamped, sequence, numbers),
      entities.campaign.putIfAbsent(deps, stamped),
      { Put: { TableName: deps.tableName, Item: listEntryItem(stamped, sequence, numbers) } },
      ...(numbers
        ? viewEntryItems(p, { ...stamped, isReferralCode: isReferralCodeOf(stamped) }, numbers).map(
            (Item): TransactItem => ({ Put: { TableName: deps.tableName, Item, ConditionExpression: 'attribute_not_exists(PK)' } }),
          )
        : []),
      ...(stamped.promotionTiers ?? []).map((tier) => entities.promotionTierRef.putIfAbsent(deps, { campaignId: stamped.id }, p, tier.id)),
    ];
    const extraFrom = items.push(...extra) - extra.length;
    const outcome = await transact(deps, items);
    if (outcome.ok) return stamped;
    if ('failed' in outcome) {
      if (outcome.failed.includes(0)) return null;
      if (outcome.failed.some((index) => index >= extraFrom)) throw new ExtraItemsConflictError();
      // A lost counter race also fails the view entries numbered from the stale count: re-read and retry.
      if (!outcome.failed.includes(1)) throw new Error(`Campaign ${campaign.id} could not be written: an id or view number is already taken`);
    }
    return RETRY;
  });
}

/**
 * A status move in a project whose `notDone` set is not kept (no views yet, or overflowed): only
 * counted (`statusMoves`, which a running backfill notices), held on the counter still being so.
 * `alsoAdd`: more counters moved by one in the same update (a delete's `deletedCount`).
 */
export function countedStatusMove(deps: Pick<Deps, 'tableName'>, projectId: string, counter: CampaignCounter, alsoAdd: readonly string[] = []): TransactItem {
  return {
    Update: {
      TableName: deps.tableName,
      Key: entities.campaignCounter.key(projectId),
      UpdateExpression: `ADD ${['statusMoves', ...alsoAdd].map((name) => `${name} :one`).join(', ')}`,
      ConditionExpression: counter.views ? 'notDoneOverflow = :true' : 'attribute_exists(PK) AND attribute_not_exists(#views)',
      ...(counter.views ? {} : { ExpressionAttributeNames: { '#views': 'views' } }),
      ExpressionAttributeValues: { ':one': 1, ...(counter.views ? { ':true': true } : {}) },
    },
  };
}

/**
 * The counter's part of a status change, planned from the counter as read: in a project whose
 * views are complete, the campaign's record in `notDone` is added, changed or removed (conditioned
 * on the record as read, so two concurrent changes of one campaign cannot both commit); otherwise
 * (no views yet, or `notDone` overflowed) the change is only counted (`statusMoves`) for the
 * backfill to notice. Null when there is no counter (a campaign that was never counted).
 */
async function statusCounterWrite(deps: Deps, campaign: Campaign, status: CampaignStatus, counter: CampaignCounter | null): Promise<TransactItem | null> {
  if (!counter) return null;
  const Key = entities.campaignCounter.key(campaign.projectId);
  const TableName = deps.tableName;
  if (!counter.views || counter.notDoneOverflow) return countedStatusMove(deps, campaign.projectId, counter);
  const notDone = counter.notDone ?? {};
  const current = notDone[campaign.id];
  const old = current?.s ?? 'DONE';
  const names: Record<string, string> = { '#views': 'views', '#notDone': 'notDone', '#id': campaign.id };
  const values: Record<string, unknown> = {};
  let condition = `attribute_exists(#views) AND attribute_not_exists(notDoneOverflow) AND `;
  if (current) {
    condition += '#notDone.#id.#s = :old';
    names['#s'] = 's';
    values[':old'] = old;
  } else condition += 'attribute_not_exists(#notDone.#id)';
  const update = (UpdateExpression: string): TransactItem => ({
    Update: { TableName, Key, UpdateExpression, ConditionExpression: condition, ExpressionAttributeNames: names, ExpressionAttributeValues: values },
  });
  if (old === status) {
    return {
      ConditionCheck: {
        TableName,
        Key,
        ConditionExpression: condition,
        ExpressionAttributeNames: names,
        ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
      },
    };
  }
  if (status === 'DONE') return update('REMOVE #notDone.#id');
  if (current) {
    values[':new'] = status;
    return update('SET #notDone.#id.#s = :new');
  }
  // DONE → another status: the record needs the campaign's numbers, kept on its list entry.
  const entry = await entities.campaignListEntry.get(deps, entities.campaignListEntry.key(campaign.projectId, campaign.createdAt, campaign.id));
  if (!entry?.viewNumbers) throw new Error(`Campaign ${campaign.id} has no view numbers on its list entry although its project's views are complete`);
  if (Object.keys(notDone).length >= MAX_NOT_DONE) {
    Object.assign(values, { ':true': true, ':empty': {}, ':one': 1 });
    return update('SET notDoneOverflow = :true, #notDone = :empty ADD statusMoves :one');
  }
  values[':record'] = notDoneRecord(status, entry.campaignType, entry.isReferralCode, entry.sequence, entry.viewNumbers);
  values[':cap'] = MAX_NOT_DONE;
  condition += ' AND size(#notDone) < :cap';
  return update('SET #notDone.#id = :record');
}

/**
 * Sets the creation and generation status of a campaign, of its list entry and of the project's
 * record of campaigns that are not DONE (statusCounterWrite), in one transaction; a lost race on
 * the counter is re-read and re-planned.
 * @throws Error when the campaign is gone; ConflictRetryError when contention outlasts the retries.
 */
export async function setCampaignStatus(deps: Deps, campaign: Campaign, status: CampaignStatus): Promise<void> {
  const p = campaign.projectId;
  const set = (Key: ItemKey, expression: string): TransactItem => ({
    Update: {
      TableName: deps.tableName,
      Key,
      UpdateExpression: expression,
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':s': status },
    },
  });
  const own = [
    set(entities.campaign.key(p, campaign.id), 'SET creationStatus = :s, vouchersGenerationStatus = :s'),
    set(entities.campaignListEntry.key(p, campaign.createdAt, campaign.id), 'SET creationStatus = :s'),
  ];
  const written = await retryOnConflict(`Too many concurrent writes: status of campaign ${campaign.id}`, async () => {
    const counterItem = await statusCounterWrite(deps, campaign, status, await getCampaignCounter(deps, p));
    const outcome = await transact(deps, counterItem ? [...own, counterItem] : own);
    if (outcome.ok) return true;
    if ('failed' in outcome && outcome.failed.some((index) => index < own.length)) return false;
    return RETRY;
  });
  if (!written) throw new Error(`Campaign ${campaign.id} vanished while its status was set`);
}
