import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import type { Item, ItemKey } from '../db/entity.js';
import { RETRY, retryOnConflict } from '../db/transact.js';
import { itemKeyString, keyString } from '../db/key-string.js';
import type { Runtime } from '../runtime.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

const BATCH_GET_MAX = 100;

/**
 * The items one qualification request has read, so that the validation engine
 * (lib/validations/validation.service.ts evaluateEach) reads them from memory instead of the table:
 * `readItems` is the engine's read port (ValidationReadDeps), which answers from what was read and
 * asks the table only for keys never read (remembering those too). A key read and not found is
 * remembered as absent. Request-scoped: it lives as long as one request, so it never serves a
 * stale item to another.
 */
export class PrefetchedReads {
  private readonly known = new Map<string, Item | null>();
  /** Values already made of items read (by item, as read): the engine takes them rather than converting again. */
  private readonly values = new WeakMap<Item, unknown>();
  /** For the engine's deps (lib/validations/validation.repo.ts ValidationReadDeps). */
  readonly knownValueOf = (item: Item): unknown => this.values.get(item);
  /** For the engine's deps: the items at `keys` (whose strings are `ids`), from memory, reading only keys never read. */
  readonly readItems = (keys: readonly ItemKey[], ids: readonly string[]): Promise<readonly (Item | undefined)[]> => this.answer(keys, ids);
  /** BatchGetItem round trips this request made to the table (for the bench and the tests). */
  roundTrips = 0;

  constructor(private readonly deps: Deps) {}

  /** Remembers items read another way (a Query of an index projecting every attribute). */
  add(items: readonly Item[]): void {
    for (const item of items) this.known.set(itemKeyString(item), item);
  }

  /** Records `value` as what `item` (an item this request read) converts to; the value must not be changed after. */
  remember<T>(item: Item, value: T): T {
    this.values.set(item, value);
    return value;
  }

  /** The item at `key` as read; undefined when never read, null when read and absent. */
  get(key: ItemKey): Item | null | undefined {
    return this.known.get(keyString(key));
  }

  /** Reads the keys never read yet, strongly consistently, ≤ 100 per BatchGetItem, the batches in parallel. */
  async read(keys: readonly ItemKey[]): Promise<void> {
    const missing = new Map<string, Item>();
    for (const k of keys) {
      const id = keyString(k);
      if (!this.known.has(id) && !missing.has(id)) missing.set(id, { PK: k.PK, SK: k.SK });
    }
    const distinct = [...missing.values()];
    const batches: Item[][] = [];
    for (let i = 0; i < distinct.length; i += BATCH_GET_MAX) batches.push(distinct.slice(i, i + BATCH_GET_MAX));
    await Promise.all(batches.map((batch) => this.readBatch(batch)));
  }

  private async readBatch(batch: Item[]): Promise<void> {
    for (const k of batch) this.known.set(itemKeyString(k), null);
    let pending = batch;
    await retryOnConflict('Too many concurrent reads of the qualification candidates', async () => {
      this.roundTrips += 1;
      const res = await this.deps.ddb.send(new BatchGetCommand({ RequestItems: { [this.deps.tableName]: { Keys: pending, ConsistentRead: true } } }));
      this.add(res.Responses?.[this.deps.tableName] ?? []);
      pending = res.UnprocessedKeys?.[this.deps.tableName]?.Keys ?? [];
      return pending.length > 0 ? RETRY : true;
    });
  }

  private async answer(keys: readonly ItemKey[], ids: readonly string[]): Promise<readonly (Item | undefined)[]> {
    // Usually every key was read already: nothing is built or copied.
    const missing = keys.filter((_, i) => !this.known.has(ids[i] as string));
    if (missing.length > 0) await this.read(missing);
    return ids.map((id) => this.known.get(id) ?? undefined);
  }
}
