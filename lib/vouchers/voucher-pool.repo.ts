import { randomBase62 } from '../ids.js';
import { voucherChangeSet, voucher as voucherEntity, voucherByHolder } from '../db/entities.js';
import { tableDesign } from '../db/table.js';
import type { TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from './voucher.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/**
 * Up to `want` vouchers of the campaign's pool of publishable vouchers (the sparse GSI2, sorted by
 * voucher id), starting at a random id and wrapping round to the start, so concurrent publications
 * begin at different places of a large pool. Index reads are eventually consistent: a voucher
 * published a moment ago may still be listed (the publishing write's condition catches it), one
 * made a moment ago may be missing yet.
 */
export async function poolCandidates(deps: Deps, projectId: string, campaignId: string, want: number): Promise<Voucher[]> {
  const start = `v_${randomBase62(4)}`;
  const after = await voucherEntity.queryPage(deps, { sparse: [projectId, campaignId] }, { pageSize: want, sortRange: { from: start } });
  if (after.length >= want) return after;
  const before = await voucherEntity.queryPage(deps, { sparse: [projectId, campaignId] }, { pageSize: want - after.length, sortRange: { to: start } });
  return [...after, ...before.filter((v) => v.id < start)];
}

/** The publishable ones of `vouchers` (by code), as they are now: strongly consistent reads. */
export async function stillPublishable(
  deps: Deps,
  projectId: string,
  vouchers: readonly Voucher[],
  isPublishable: (v: Voucher) => boolean,
): Promise<Voucher[]> {
  if (vouchers.length === 0) return [];
  const fresh = await voucherEntity.getMany(
    deps,
    vouchers.map((v) => voucherEntity.key(projectId, v.code)),
    `Too many concurrent reads of vouchers of project ${projectId}`,
  );
  const ids = new Set(vouchers.map((v) => v.id));
  return fresh.filter((v) => ids.has(v.id) && isPublishable(v));
}

const GSI2 = tableDesign.indexes.gsi2;

/**
 * The GSI2 entry of `read` once `holderId` holds it (voucherByHolder), as `:hpk` / `:hsk`: every
 * write that sets a holder sets it, so the holder's voucher list (GET /v1/vouchers?customer=)
 * stays true; it replaces the pool entry (a held voucher is never publishable).
 */
const holderEntry = (read: Voucher, holderId: string): Record<string, string> => {
  const k = voucherByHolder(read.projectId, holderId, read.createdAt, read.id);
  return { ':hpk': k.GSI2PK, ':hsk': k.GSI2SK };
};

/**
 * Publishes a voucher of a pool to `holderId` as publication `publicationId`: sets the holder,
 * counts the publication and moves the voucher's GSI2 entry from the pool to the holder's list. Holds only while
 * the voucher is the one read (same id, same `updatedAt`) and still in the pool: of concurrent
 * publications reaching for one voucher exactly one succeeds.
 */
export function publishPooledItem(deps: Deps, read: Voucher, holderId: string, publicationId: string, now: string): TransactItem {
  const unchanged = read.updatedAt === null ? '(attribute_not_exists(updatedAt) OR attribute_type(updatedAt, :nullType))' : 'updatedAt = :read';
  return {
    Update: {
      TableName: deps.tableName,
      Key: voucherEntity.key(read.projectId, read.code),
      UpdateExpression:
        'SET holderId = :holder, publicationId = :pub, publishCount = publishCount + :one, updatedAt = :now, #gpk = :hpk, #gsk = :hsk, #chpk = :chpk, #chsk = :chsk',
      ConditionExpression: `id = :id AND #gpk = :pool AND publishCount = :zero AND ${unchanged}`,
      ExpressionAttributeNames: { '#gpk': GSI2.partitionKey, '#gsk': GSI2.sortKey, ...voucherChangeSet(read, now).names },
      ExpressionAttributeValues: {
        ...holderEntry(read, holderId),
        ...voucherChangeSet(read, now).values,
        ':pool': voucherEntity.sparse.partition(read.projectId, read.campaignId ?? ''),
        ':holder': holderId,
        ':pub': publicationId,
        ':one': 1,
        ':zero': 0,
        ':now': now,
        ':id': read.id,
        ...(read.updatedAt === null ? { ':nullType': 'NULL' } : { ':read': read.updatedAt }),
      },
    },
  };
}

/**
 * Publishes a voucher named by its code. A one-holder voucher: as publishPooledItem, but it need
 * not be in a pool (a voucher of no campaign, or one written before pools existed): it must be
 * the one read, active and never published. A generic code (`generic`): only its count rises and
 * a first holder is set; it may be published any number of times.
 */
export function publishNamedItem(deps: Deps, read: Voucher, holderId: string, publicationId: string, now: string, generic: boolean): TransactItem {
  if (generic) {
    // The first holder stays the holder; later publications only count. Conditioned on the holder
    // as read, so two first publications at once cannot both set it (the loser re-reads).
    const first = read.holderId === null;
    return {
      Update: {
        TableName: deps.tableName,
        Key: voucherEntity.key(read.projectId, read.code),
        UpdateExpression: `SET ${first ? 'holderId = :holder, #gpk = :hpk, #gsk = :hsk, ' : ''}updatedAt = :now, #chpk = :chpk, #chsk = :chsk ADD publishCount :one`,
        ConditionExpression: `id = :id AND active = :true AND ${first ? '(attribute_not_exists(holderId) OR attribute_type(holderId, :nullType))' : 'holderId = :held'}`,
        ExpressionAttributeNames: { ...(first ? { '#gpk': GSI2.partitionKey, '#gsk': GSI2.sortKey } : {}), ...voucherChangeSet(read, now).names },
        ExpressionAttributeValues: {
          ...(first ? holderEntry(read, holderId) : {}),
          ...voucherChangeSet(read, now).values,
          ':now': now,
          ':one': 1,
          ':id': read.id,
          ':true': true,
          ...(first ? { ':holder': holderId, ':nullType': 'NULL' } : { ':held': read.holderId }),
        },
      },
    };
  }
  return {
    Update: {
      TableName: deps.tableName,
      Key: voucherEntity.key(read.projectId, read.code),
      UpdateExpression:
        'SET holderId = :holder, publicationId = :pub, publishCount = publishCount + :one, updatedAt = :now, #gpk = :hpk, #gsk = :hsk, #chpk = :chpk, #chsk = :chsk',
      ConditionExpression: 'id = :id AND active = :true AND publishCount = :zero',
      ExpressionAttributeNames: { '#gpk': GSI2.partitionKey, '#gsk': GSI2.sortKey, ...voucherChangeSet(read, now).names },
      ExpressionAttributeValues: {
        ...holderEntry(read, holderId),
        ...voucherChangeSet(read, now).values,
        ':holder': holderId,
        ':pub': publicationId,
        ':one': 1,
        ':zero': 0,
        ':now': now,
        ':id': read.id,
        ':true': true,
      },
    },
  };
}

/**
 * Records publication `publicationId` on a voucher its holder got without one (a referee reward):
 * the voucher must still be held by `holderId`.
 */
export function recordPublicationItem(deps: Deps, read: Voucher, holderId: string, publicationId: string): TransactItem {
  return {
    Update: {
      TableName: deps.tableName,
      Key: voucherEntity.key(read.projectId, read.code),
      UpdateExpression: 'SET publicationId = :pub',
      ConditionExpression: 'id = :id AND holderId = :holder AND attribute_not_exists(publicationId)',
      ExpressionAttributeValues: { ':pub': publicationId, ':id': read.id, ':holder': holderId },
    },
  };
}
