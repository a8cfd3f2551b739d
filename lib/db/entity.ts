import { BatchGetCommand, GetCommand, QueryCommand, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { Runtime } from '../runtime.js';
import { queryAll, queryPages } from './query.js';
import { ENTITY_ATTR, tableDesign, VERSION_ATTR } from './table.js';
import { RETRY, retryOnConflict, type TransactItem } from './transact.js';

/**
 * The entity layer: one definition per stored type (name, schema version, key and index
 * builders), from which every item of that type is written (`toItem`) and read (`fromItem`).
 * Modelled on ElectroDB's `model: { entity, version }` + `indexes` and DynamoDB-Toolbox's
 * computed keys, in a few typed functions of our own.
 */

/** A stored item as the document client reads and writes it. */
export type Item = Record<string, unknown>;

/** The table's primary key of an item. */
export interface ItemKey {
  PK: string;
  SK: string;
}

/** An item's entry in GSI1. */
export interface Gsi1Key {
  GSI1PK: string;
  GSI1SK: string;
}

/** An item's entry in the sparse GSI2 (only items that belong to the set it lists have one). */
export interface Gsi2Key {
  GSI2PK: string;
  GSI2SK: string;
}

/** An item's entry in the keys-only GSI3 (lists whose pages may start deep: lib/db/table.ts). */
export interface Gsi3Key {
  GSI3PK: string;
  GSI3SK: string;
}

/** An item's entry in the sparse keys-only GSI4 (a category's vouchers: lib/db/table.ts). */
export interface Gsi4Key {
  GSI4PK: string;
  GSI4SK: string;
}

/** An item's entry in the keys-only GSI5 (the project's vouchers by last change: lib/db/table.ts). */
export interface Gsi5Key {
  GSI5PK: string;
  GSI5SK: string;
}

/** One part of a key: an id, a code, a name, a timestamp, a number. */
export type KeyPart = string | number;

/**
 * Builds one kind of key (table or GSI1) from positional parts, the partition's first, then the
 * sort key's. `partition` alone gives the partition value a Query asks for, so a key and its
 * partition come from one definition and no prefix is written twice.
 */
export interface KeyBuilder<P extends KeyPart[], S extends KeyPart[], K> {
  (...parts: [...P, ...S]): K;
  partition: (...parts: P) => string;
  sort: (...parts: S) => string;
}

/** Key parts joined by `#`, the table's separator. */
export const keyPath = (...parts: KeyPart[]): string => parts.join('#');

/**
 * A tenant-owned key value: `P#<projectId>`, then the parts. Every key of a project's items is
 * built through this, so a read for one project cannot address another's items.
 */
export const tenantPath = (projectId: string, ...parts: KeyPart[]): string => {
  // Concatenated rather than spread into keyPath: every read builds tens of keys.
  let path = `P#${projectId}`;
  for (const part of parts) path += `#${part}`;
  return path;
};

function keyBuilderFor<K>(partitionAttr: string, sortAttr: string) {
  // `partition` and `sort` take plain positional parameters (no defaults, no rest), so a full
  // key's parts split at `partition.length`.
  return <P extends KeyPart[], S extends KeyPart[]>(partition: (...parts: P) => string, sort: (...parts: S) => string): KeyBuilder<P, S, K> => {
    const at = partition.length;
    const key = (pk: string, sk: string): K => {
      const k: Record<string, string> = {};
      k[partitionAttr] = pk;
      k[sortAttr] = sk;
      return k as K;
    };
    // The common arities without slicing and spreading the parts: every read builds tens of keys.
    const p = partition as unknown as (...parts: KeyPart[]) => string;
    const s = sort as unknown as (...parts: KeyPart[]) => string;
    const build =
      at === 1 && sort.length === 0
        ? (...parts: [...P, ...S]): K => key(p(parts[0] as KeyPart), s())
        : at === 2 && sort.length === 0
          ? (...parts: [...P, ...S]): K => key(p(parts[0] as KeyPart, parts[1] as KeyPart), s())
          : (...parts: [...P, ...S]): K => key(partition(...(parts.slice(0, at) as P)), sort(...(parts.slice(at) as S)));
    return Object.assign(build, { partition, sort });
  };
}

/** A builder of table keys (`PK`, `SK`). */
export const tableKey = keyBuilderFor<ItemKey>(tableDesign.partitionKey, tableDesign.sortKey);
/** A builder of GSI1 keys (`GSI1PK`, `GSI1SK`). */
export const gsi1Key = keyBuilderFor<Gsi1Key>(tableDesign.indexes.gsi1.partitionKey, tableDesign.indexes.gsi1.sortKey);
/** A builder of sparse GSI2 keys (`GSI2PK`, `GSI2SK`). */
export const gsi2Key = keyBuilderFor<Gsi2Key>(tableDesign.indexes.gsi2.partitionKey, tableDesign.indexes.gsi2.sortKey);
/** A builder of keys-only GSI3 keys (`GSI3PK`, `GSI3SK`). */
export const gsi3Key = keyBuilderFor<Gsi3Key>(tableDesign.indexes.gsi3.partitionKey, tableDesign.indexes.gsi3.sortKey);
/** A builder of sparse keys-only GSI4 keys (`GSI4PK`, `GSI4SK`). */
export const gsi4Key = keyBuilderFor<Gsi4Key>(tableDesign.indexes.gsi4.partitionKey, tableDesign.indexes.gsi4.sortKey);
/** A builder of keys-only GSI5 keys (`GSI5PK`, `GSI5SK`). */
export const gsi5Key = keyBuilderFor<Gsi5Key>(tableDesign.indexes.gsi5.partitionKey, tableDesign.indexes.gsi5.sortKey);

type PartitionOf<B> = B extends KeyBuilder<infer P, infer _S, infer _K> ? P : never;

/** Attributes the table itself owns on every item; a domain object never sees them. */
const TABLE_ATTRIBUTES = new Set<string>([
  tableDesign.partitionKey,
  tableDesign.sortKey,
  tableDesign.indexes.gsi1.partitionKey,
  tableDesign.indexes.gsi1.sortKey,
  tableDesign.indexes.gsi2.partitionKey,
  tableDesign.indexes.gsi2.sortKey,
  tableDesign.indexes.gsi3.partitionKey,
  tableDesign.indexes.gsi3.sortKey,
  tableDesign.indexes.gsi4.partitionKey,
  tableDesign.indexes.gsi4.sortKey,
  tableDesign.indexes.gsi5.partitionKey,
  tableDesign.indexes.gsi5.sortKey,
  tableDesign.ttlAttribute,
  ENTITY_ATTR,
  VERSION_ATTR,
]);

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** A Put of a transaction (or, through its `Put`, of a PutCommand). */
export type PutItem = TransactItem & { Put: NonNullable<TransactItem['Put']> };

/** Which partition a Query reads: the table's (`key`), GSI1's (`index`) or the sparse GSI2's (`sparse`), by the partition's parts. */
export type Where<K, I, SI = undefined> =
  | { key: PartitionOf<K> }
  | (I extends undefined ? never : { index: PartitionOf<I> })
  | (SI extends undefined ? never : { sparse: PartitionOf<SI> });

/** Every key an item may carry: the table's, and its entries in GSI1 and the sparse GSI2 where it has them. */
export type ItemKeys = ItemKey & Partial<Gsi1Key> & Partial<Gsi2Key> & Partial<Gsi3Key> & Partial<Gsi4Key> & Partial<Gsi5Key>;

/** How a Query reads its partition; unset options are left out of the request (DynamoDB's defaults). */
export interface QueryOptions {
  /** Strongly consistent (table partitions only). */
  consistent?: boolean;
  /** Sort key order, ascending unless false. */
  ascending?: boolean;
  /** Items per Query call (`Limit`). */
  pageSize?: number;
  /** Only sort keys starting with this. */
  sortBeginsWith?: string;
  /** Only sort keys in this range, both ends included (either may be left open); not with `sortBeginsWith`. */
  sortRange?: { from?: string; to?: string };
  /** The key of the item the page starts after (`ExclusiveStartKey`). */
  startAfter?: ItemKeys | undefined;
}

/** What an entity definition adds beyond its keys. */
export interface EntityOptions<T> {
  /** Values that items written before a field existed lack, filled in on read where the attribute is absent (shared by every read: scalars or null only). */
  defaults?: Partial<T>;
  /** The item's expiry (Unix seconds) for the table's TTL, when it has one. */
  ttl?: (value: T) => number;
  /**
   * Index entries beyond the builders' (GSI3's, GSI4's and GSI5's, or a second kind of GSI2 entry for values the
   * sparse builder leaves out), computed from the value like every other key, so every Put of the
   * entity carries them. Must not set an attribute the builders set for the same value.
   */
  moreKeys?: (value: T) => Partial<Gsi2Key> & Partial<Gsi3Key> & Partial<Gsi4Key> & Partial<Gsi5Key>;
}

/**
 * One stored entity type. `A` are the key parts a value does not hold itself (a voucher's
 * campaign, a name reservation's name), passed next to it wherever an item is built.
 */
export interface Entity<T extends object, A extends unknown[], K, I = undefined, SI = undefined> {
  /** Stored in `entity`. */
  readonly name: string;
  /** Stored in `v`: the layout version of the item's attributes. */
  readonly version: number;
  /** The table key builder (also gives the partition value of a Query). */
  readonly key: K;
  /** The GSI1 key builder, when the entity is listed in GSI1. */
  readonly index: I;
  /** The sparse GSI2 key builder, when some items of the entity are listed in GSI2. */
  readonly sparse: SI;
  /** `entity` and `v` as stored, for writes that set them by UpdateItem. */
  readonly stamp: Item;
  /** The item's keys (table, and GSI1 / GSI2 where the entity and the value have them). */
  keysOf(value: T, ...parts: A): ItemKeys;
  /** The item as stored: keys, `entity`, `v`, `ttl` where defined, then the value's fields. */
  toItem(value: T, ...parts: A): Item;
  /** The value of a stored item: the table's own attributes dropped, `defaults` filled in. */
  fromItem(item: Item): T;
  /** A Put that holds only where the item's key is free (`attribute_not_exists(PK)`): it never overwrites. */
  putIfAbsent(deps: Pick<Runtime, 'tableName'>, value: T, ...parts: A): PutItem;
  /** The item at `key`, read strongly consistently unless `consistent` is false; null if none. */
  get(deps: Deps, key: ItemKey, options?: { consistent?: boolean }): Promise<T | null>;
  /** Whether an item exists at `key` (read strongly consistently, only its key is returned). */
  exists(deps: Deps, key: ItemKey): Promise<boolean>;
  /**
   * The items at `keys` (≤ 100, strongly consistent), in no particular order; missing ones are
   * left out. Keys the table leaves unprocessed are read again with backoff.
   * @throws ConflictRetryError with `busy` when they stay unprocessed through every attempt.
   */
  getMany(deps: Deps, keys: ItemKey[], busy: string): Promise<T[]>;
  /**
   * Sets `fields` on an existing item (never creates one) and returns it as written.
   * @returns null when the item does not exist.
   */
  update(deps: Deps, key: ItemKey, fields: Partial<T>): Promise<T | null>;
  /** Every item of one partition (all Query pages); for partitions known to be small. */
  query(deps: Deps, where: Where<K, I, SI>, options?: QueryOptions): Promise<T[]>;
  /** One partition page by page, so a caller holds one page at a time or stops early. */
  queryPages(deps: Deps, where: Where<K, I, SI>, options?: QueryOptions): AsyncGenerator<T[]>;
  /** The first page of one partition only (at most `pageSize` items). */
  queryPage(deps: Deps, where: Where<K, I, SI>, options?: QueryOptions): Promise<T[]>;
  /** How many items one partition holds (`Select: COUNT`, all pages): a list's `total`. */
  count(deps: Deps, where: Where<K, I, SI>, options?: QueryOptions): Promise<number>;
}

interface Spec<T, A extends unknown[]> extends EntityOptions<T> {
  name: string;
  version: number;
  keysOf: (value: T, ...parts: A) => ItemKeys;
}

function queryInput(
  tableName: string,
  where: { key: KeyPart[] } | { index: KeyPart[] } | { sparse: KeyPart[] },
  partitionOf: (where: 'key' | 'index' | 'sparse', parts: KeyPart[]) => string,
  o: QueryOptions,
): QueryCommandInput {
  const on = 'index' in where ? tableDesign.indexes.gsi1 : 'sparse' in where ? tableDesign.indexes.gsi2 : null;
  const [pk, sk] = on ? [on.partitionKey, on.sortKey] : [tableDesign.partitionKey, tableDesign.sortKey];
  const values: Item = {
    ':pk': 'index' in where ? partitionOf('index', where.index) : 'sparse' in where ? partitionOf('sparse', where.sparse) : partitionOf('key', where.key),
  };
  let sortCondition = '';
  const { from, to } = o.sortRange ?? {};
  if (o.sortBeginsWith !== undefined && (from !== undefined || to !== undefined)) throw new Error('A Query takes one sort key condition');
  if (o.sortBeginsWith !== undefined) {
    values[':sk'] = o.sortBeginsWith;
    sortCondition = ` AND begins_with(${sk}, :sk)`;
  } else if (from !== undefined && to !== undefined) {
    Object.assign(values, { ':from': from, ':to': to });
    sortCondition = ` AND ${sk} BETWEEN :from AND :to`;
  } else if (from !== undefined) {
    values[':from'] = from;
    sortCondition = ` AND ${sk} >= :from`;
  } else if (to !== undefined) {
    values[':to'] = to;
    sortCondition = ` AND ${sk} <= :to`;
  }
  return {
    TableName: tableName,
    ...(on ? { IndexName: on.name } : {}),
    KeyConditionExpression: `${pk} = :pk${sortCondition}`,
    ExpressionAttributeValues: values,
    ...(o.consistent ? { ConsistentRead: true } : {}),
    ...(o.ascending === false ? { ScanIndexForward: false } : {}),
    ...(o.pageSize !== undefined ? { Limit: o.pageSize } : {}),
    ...(o.startAfter ? { ExclusiveStartKey: o.startAfter } : {}),
  };
}

function define<T extends object, A extends unknown[], K, I, SI = undefined>(spec: Spec<T, A>, key: K, index: I, sparse?: SI): Entity<T, A, K, I, SI> {
  const stamp: Item = { [ENTITY_ATTR]: spec.name, [VERSION_ATTR]: spec.version };
  const keysOf = (value: T, ...parts: A): ItemKeys => ({ ...spec.keysOf(value, ...parts), ...spec.moreKeys?.(value) });
  const toItem = (value: T, ...parts: A): Item => ({
    ...keysOf(value, ...parts),
    ...stamp,
    ...(spec.ttl ? { [tableDesign.ttlAttribute]: spec.ttl(value) } : {}),
    ...value,
  });
  const fromItem = (item: Item): T => {
    // The one place a stored item becomes a typed value: items of this entity are written by
    // toItem only, so their fields are T's (older ones completed by `defaults`). A plain loop: the
    // validation engine turns tens of items a request into values (entries/filter/fromEntries cost ~10×).
    const value: Record<string, unknown> = { ...spec.defaults };
    for (const name of Object.keys(item)) {
      if (TABLE_ATTRIBUTES.has(name)) continue;
      // An attribute named __proto__ stays a field, as a spread would keep it: never the prototype.
      if (name === '__proto__') Object.defineProperty(value, name, { value: item[name], enumerable: true, writable: true, configurable: true });
      else value[name] = item[name];
    }
    return value as T;
  };
  const partitionOf = (where: 'key' | 'index' | 'sparse', parts: KeyPart[]): string => {
    const builder = (where === 'key' ? key : where === 'index' ? index : sparse) as KeyBuilder<KeyPart[], KeyPart[], unknown>;
    return builder.partition(...parts);
  };
  const input = (tableName: string, where: Where<K, I, SI>, options: QueryOptions = {}) =>
    queryInput(tableName, where as { key: KeyPart[] } | { index: KeyPart[] } | { sparse: KeyPart[] }, partitionOf, options);
  return {
    name: spec.name,
    version: spec.version,
    key,
    index,
    sparse: sparse as SI,
    stamp,
    keysOf,
    toItem,
    fromItem,
    putIfAbsent: (deps, value, ...parts) => ({
      Put: { TableName: deps.tableName, Item: toItem(value, ...parts), ConditionExpression: 'attribute_not_exists(PK)' },
    }),
    async get(deps, itemKey, options = {}) {
      const res = await deps.ddb.send(new GetCommand({ TableName: deps.tableName, Key: itemKey, ConsistentRead: options.consistent ?? true }));
      return res.Item ? fromItem(res.Item) : null;
    },
    async exists(deps, itemKey) {
      const res = await deps.ddb.send(
        new GetCommand({ TableName: deps.tableName, Key: itemKey, ConsistentRead: true, ProjectionExpression: tableDesign.partitionKey }),
      );
      return res.Item !== undefined;
    },
    async getMany(deps, keys, busy) {
      const found: T[] = [];
      let pending: Item[] = keys.map((k) => ({ ...k }));
      if (pending.length === 0) return found;
      return retryOnConflict(busy, async () => {
        const res = await deps.ddb.send(new BatchGetCommand({ RequestItems: { [deps.tableName]: { Keys: pending, ConsistentRead: true } } }));
        found.push(...(res.Responses?.[deps.tableName] ?? []).map(fromItem));
        pending = res.UnprocessedKeys?.[deps.tableName]?.Keys ?? [];
        return pending.length > 0 ? RETRY : found;
      });
    },
    async update(deps, itemKey, fields) {
      const entries = Object.entries(fields);
      try {
        const res = await deps.ddb.send(
          new UpdateCommand({
            TableName: deps.tableName,
            Key: itemKey,
            UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])),
            ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
            ReturnValues: 'ALL_NEW',
          }),
        );
        return res.Attributes ? fromItem(res.Attributes) : null;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return null;
        throw error;
      }
    },
    async query(deps, where, options) {
      return (await queryAll(deps.ddb, input(deps.tableName, where, options))).map(fromItem);
    },
    async *queryPages(deps, where, options) {
      for await (const page of queryPages(deps.ddb, input(deps.tableName, where, options))) yield page.map(fromItem);
    },
    async queryPage(deps, where, options) {
      const res = await deps.ddb.send(new QueryCommand(input(deps.tableName, where, options)));
      return (res.Items ?? []).map(fromItem);
    },
    async count(deps, where, options) {
      let total = 0;
      let start: Item | undefined;
      do {
        const res = await deps.ddb.send(new QueryCommand({ ...input(deps.tableName, where, options), Select: 'COUNT', ExclusiveStartKey: start }));
        total += res.Count ?? 0;
        start = res.LastEvaluatedKey;
      } while (start);
      return total;
    },
  };
}

/**
 * Defines a stored entity, in steps: `entity<T>(name, version)`, then `.key(partition, sort)`,
 * optionally `.index(partition, sort)` for GSI1 and after it `.sparse(partition, sort)` for the
 * sparse GSI2 (its `from` gives `sparse: null` for a value not in the set), then either
 * `.from(parts)`, which says which key parts a value supplies (with any it lacks as extra
 * arguments), or `.apart()`, for small items whose every key part is passed in (name
 * reservations, id pointers).
 */
export function entity<T extends object>(name: string, version: number) {
  return {
    key<P extends KeyPart[], S extends KeyPart[]>(partition: (...parts: P) => string, sort: (...parts: S) => string) {
      const key = tableKey(partition, sort);
      const base = (options: EntityOptions<T>) => ({ ...options, name, version });
      return {
        index<IP extends KeyPart[], IS extends KeyPart[]>(indexPartition: (...parts: IP) => string, indexSort: (...parts: IS) => string) {
          const index = gsi1Key(indexPartition, indexSort);
          return {
            sparse<SP extends KeyPart[], SS extends KeyPart[]>(sparsePartition: (...parts: SP) => string, sparseSort: (...parts: SS) => string) {
              const sparse = gsi2Key(sparsePartition, sparseSort);
              return {
                from: <A extends unknown[]>(
                  parts: (value: T, ...extra: A) => { key: [...P, ...S]; index: [...IP, ...IS]; sparse: [...SP, ...SS] | null },
                  options: EntityOptions<T> = {},
                ) =>
                  define<T, A, typeof key, typeof index, typeof sparse>(
                    {
                      ...base(options),
                      keysOf: (value, ...extra) => {
                        const p = parts(value, ...extra);
                        return { ...key(...p.key), ...index(...p.index), ...(p.sparse ? sparse(...p.sparse) : {}) };
                      },
                    },
                    key,
                    index,
                    sparse,
                  ),
              };
            },
            from: <A extends unknown[]>(parts: (value: T, ...extra: A) => { key: [...P, ...S]; index: [...IP, ...IS] }, options: EntityOptions<T> = {}) =>
              define<T, A, typeof key, typeof index>(
                {
                  ...base(options),
                  keysOf: (value, ...extra) => {
                    const p = parts(value, ...extra);
                    return { ...key(...p.key), ...index(...p.index) };
                  },
                },
                key,
                index,
              ),
          };
        },
        from: <A extends unknown[]>(parts: (value: T, ...extra: A) => { key: [...P, ...S] }, options: EntityOptions<T> = {}) =>
          define<T, A, typeof key, undefined>({ ...base(options), keysOf: (value, ...extra) => key(...parts(value, ...extra).key) }, key, undefined),
        apart: (options: EntityOptions<T> = {}) =>
          define<T, [...P, ...S], typeof key, undefined>({ ...base(options), keysOf: (_value, ...parts) => key(...parts) }, key, undefined),
      };
    },
  };
}
