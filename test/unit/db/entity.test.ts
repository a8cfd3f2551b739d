import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { entity, gsi1Key, keyPath, tableKey, tenantPath } from '../../../lib/db/entity.js';
import { MAX_CONFLICT_ATTEMPTS, putUnique, RETRY, retryOnConflict } from '../../../lib/db/transact.js';
import { ConflictRetryError } from '../../../lib/errors.js';
import { ENTITY_ATTR, tableDesign, VERSION_ATTR } from '../../../lib/db/table.js';

interface Widget {
  id: string;
  projectId: string;
  createdAt: string;
  colour: string | null;
  expiresAt: number;
}

const widget = entity<Widget>('widget', 3)
  .key(
    (projectId: string, widgetId: string) => tenantPath(projectId, 'WIDGET', widgetId),
    () => 'WIDGET',
  )
  .index(
    (projectId: string, shelf: string) => tenantPath(projectId, 'SHELF', shelf, 'WIDGETS'),
    (createdAt: string, widgetId: string) => keyPath(createdAt, widgetId),
  )
  .from((w, shelf: string) => ({ key: [w.projectId, w.id], index: [w.projectId, shelf, w.createdAt, w.id] }), {
    defaults: { colour: null },
    ttl: (w) => w.expiresAt,
  });

const label = entity<{ widgetId: string }>('widget_label', 1)
  .key(
    (projectId: string, text: string) => tenantPath(projectId, 'LABEL', text),
    () => 'LABEL',
  )
  .apart();

const w: Widget = { id: 'w1', projectId: 'p1', createdAt: '2026-01-01T00:00:00.000Z', colour: 'red', expiresAt: 1_800_000_000 };

/** A client answering each command with the next scripted reply (a function of the command), recording what it was sent. */
function scripted(...replies: ((input: Record<string, unknown>) => unknown)[]) {
  const sent: { name: string; input: Record<string, unknown> }[] = [];
  const ddb = {
    send: async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
      sent.push({ name: command.constructor.name, input: command.input });
      const reply = replies[sent.length - 1];
      return reply ? reply(command.input) : {};
    },
  } as unknown as DynamoDBDocumentClient;
  return { deps: { ddb, tableName: 't' }, sent };
}

const cancelled =
  (...codes: string[]) =>
  () => {
    throw new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });
  };

describe('key builders', () => {
  it('give a full key and, from the same functions, its partition and sort values', () => {
    const k = tableKey(
      (projectId: string, campaignId: string) => tenantPath(projectId, 'CAMPAIGN', campaignId, 'ITEMS'),
      (createdAt: string, id: string) => keyPath(createdAt, id),
    );
    expect(k('p1', 'c1', '2026', 'i1')).toEqual({ PK: 'P#p1#CAMPAIGN#c1#ITEMS', SK: '2026#i1' });
    expect(k.partition('p1', 'c1')).toBe('P#p1#CAMPAIGN#c1#ITEMS');
    expect(k.sort('2026', 'i1')).toBe('2026#i1');
    const g = gsi1Key(
      (projectId: string) => tenantPath(projectId, 'SEQ'),
      (n: number) => String(n).padStart(4, '0'),
    );
    expect(g('p1', 7)).toEqual({ GSI1PK: 'P#p1#SEQ', GSI1SK: '0007' });
  });

  it('build the same keys whatever the arity of the partition and sort functions', () => {
    const one = tableKey(
      (projectId: string) => tenantPath(projectId, 'ONE'),
      () => 'ONE',
    );
    const two = tableKey(
      (projectId: string, id: string) => tenantPath(projectId, 'TWO', id),
      () => 'TWO',
    );
    const three = tableKey(
      (projectId: string, a: string, b: number) => tenantPath(projectId, a, b),
      (c: string) => keyPath('S', c),
    );
    expect(one('p1')).toEqual({ PK: 'P#p1#ONE', SK: 'ONE' });
    expect(two('p1', 'x')).toEqual({ PK: 'P#p1#TWO#x', SK: 'TWO' });
    expect(three('p1', 'a', 2, 'c')).toEqual({ PK: 'P#p1#a#2', SK: 'S#c' });
    expect(Object.keys(two('p1', 'x'))).toEqual(['PK', 'SK']);
  });

  it('start every tenant path with P#<projectId>, and keep case and numbers as given', () => {
    expect(tenantPath('Proj', 'CODE', 'AbC-1', 1700000000)).toBe('P#Proj#CODE#AbC-1#1700000000');
    expect(tenantPath('Proj')).toBe('P#Proj');
  });
});

describe('an entity', () => {
  it('writes its keys, index keys, entity, version and ttl before the value', () => {
    expect(widget.toItem(w, 'top')).toEqual({
      PK: 'P#p1#WIDGET#w1',
      SK: 'WIDGET',
      GSI1PK: 'P#p1#SHELF#top#WIDGETS',
      GSI1SK: '2026-01-01T00:00:00.000Z#w1',
      entity: 'widget',
      v: 3,
      ttl: 1_800_000_000,
      ...w,
    });
    expect(label.toItem({ widgetId: 'w1' }, 'p1', 'Shiny')).toEqual({ PK: 'P#p1#LABEL#Shiny', SK: 'LABEL', entity: 'widget_label', v: 1, widgetId: 'w1' });
  });

  it('reads back exactly the value it wrote, without the table attributes', () => {
    expect(widget.fromItem(widget.toItem(w, 'top'))).toEqual(w);
    expect(label.fromItem(label.toItem({ widgetId: 'w1' }, 'p1', 'x'))).toEqual({ widgetId: 'w1' });
  });

  it('fills in defaults where an older item lacks the attribute, and keeps a stored null or value', () => {
    const { colour: _colour, ...older } = widget.toItem(w, 'top');
    expect(widget.fromItem(older).colour).toBeNull();
    expect(widget.fromItem({ ...older, colour: 'blue' }).colour).toBe('blue');
  });

  it('leaves out every attribute the table design owns, whatever the entity wrote', () => {
    const indexes = Object.values(tableDesign.indexes) as { partitionKey: string; sortKey: string }[];
    const owned = [
      tableDesign.partitionKey,
      tableDesign.sortKey,
      ...indexes.flatMap((i) => [i.partitionKey, i.sortKey]),
      tableDesign.ttlAttribute,
      ENTITY_ATTR,
      VERSION_ATTR,
    ];
    const item = { ...Object.fromEntries(owned.map((name) => [name, 'x'])), id: 'w1', colour: 'red' };
    expect(widget.fromItem(item)).toEqual({ id: 'w1', colour: 'red' });
  });

  it('never lets a stored attribute named __proto__ reach the prototype', () => {
    const item = JSON.parse('{"PK":"x","SK":"y","id":"w1","__proto__":{"polluted":true}}') as Record<string, unknown>;
    const value = widget.fromItem(item) as unknown as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('puts only where the key is free', () => {
    expect(widget.putIfAbsent({ tableName: 't' }, w, 'top')).toEqual({
      Put: { TableName: 't', Item: widget.toItem(w, 'top'), ConditionExpression: 'attribute_not_exists(PK)' },
    });
  });

  it('gets an item consistently unless told otherwise, and null for none', async () => {
    const { deps, sent } = scripted(
      () => ({ Item: widget.toItem(w, 'top') }),
      () => ({}),
    );
    expect(await widget.get(deps, widget.key('p1', 'w1'))).toEqual(w);
    expect(await widget.get(deps, widget.key('p1', 'w2'), { consistent: false })).toBeNull();
    expect(sent.map((s) => s.input)).toEqual([
      { TableName: 't', Key: { PK: 'P#p1#WIDGET#w1', SK: 'WIDGET' }, ConsistentRead: true },
      { TableName: 't', Key: { PK: 'P#p1#WIDGET#w2', SK: 'WIDGET' }, ConsistentRead: false },
    ]);
  });

  it('says whether an item exists, reading only its key', async () => {
    const { deps, sent } = scripted(
      () => ({ Item: { PK: 'P#p1#WIDGET#w1' } }),
      () => ({}),
    );
    expect(await widget.exists(deps, widget.key('p1', 'w1'))).toBe(true);
    expect(await widget.exists(deps, widget.key('p1', 'w2'))).toBe(false);
    expect(sent[0]?.input).toEqual({ TableName: 't', Key: { PK: 'P#p1#WIDGET#w1', SK: 'WIDGET' }, ConsistentRead: true, ProjectionExpression: 'PK' });
  });

  it('queries a table or index partition by its parts', async () => {
    const { deps, sent } = scripted(
      () => ({ Items: [widget.toItem(w, 'top')] }),
      () => ({ Items: [] }),
    );
    expect(await widget.query(deps, { index: ['p1', 'top'] })).toEqual([w]);
    await widget.queryPage(
      deps,
      { key: ['p1', 'w1'] },
      { consistent: true, ascending: false, pageSize: 11, sortBeginsWith: 'W', startAfter: widget.key('p1', 'w0') },
    );
    expect(sent.map((s) => s.input)).toEqual([
      { TableName: 't', IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': 'P#p1#SHELF#top#WIDGETS' } },
      {
        TableName: 't',
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
        ExpressionAttributeValues: { ':pk': 'P#p1#WIDGET#w1', ':sk': 'W' },
        ConsistentRead: true,
        ScanIndexForward: false,
        Limit: 11,
        ExclusiveStartKey: { PK: 'P#p1#WIDGET#w0', SK: 'WIDGET' },
      },
    ]);
  });

  it('narrows a Query to a sort key range, open at either end', async () => {
    const { deps, sent } = scripted(
      () => ({ Items: [] }),
      () => ({ Items: [] }),
      () => ({ Items: [] }),
    );
    await widget.queryPage(deps, { index: ['p1', 'top'] }, { sortRange: { from: 'a', to: 'b' } });
    await widget.queryPage(deps, { index: ['p1', 'top'] }, { sortRange: { from: 'a' } });
    await widget.queryPage(deps, { key: ['p1', 'w1'] }, { sortRange: { to: 'b' } });
    expect(sent.map((s) => [s.input.KeyConditionExpression, s.input.ExpressionAttributeValues])).toEqual([
      ['GSI1PK = :pk AND GSI1SK BETWEEN :from AND :to', { ':pk': 'P#p1#SHELF#top#WIDGETS', ':from': 'a', ':to': 'b' }],
      ['GSI1PK = :pk AND GSI1SK >= :from', { ':pk': 'P#p1#SHELF#top#WIDGETS', ':from': 'a' }],
      ['PK = :pk AND SK <= :to', { ':pk': 'P#p1#WIDGET#w1', ':to': 'b' }],
    ]);
    await expect(widget.queryPage(deps, { key: ['p1', 'w1'] }, { sortRange: { to: 'b' }, sortBeginsWith: 'a' })).rejects.toThrow(/one sort key condition/);
  });

  it('reads every page, one page at a time', async () => {
    const { deps, sent } = scripted(
      () => ({ Items: [widget.toItem(w, 'top')], LastEvaluatedKey: { PK: 'a', SK: 'b' } }),
      () => ({ Items: [widget.toItem({ ...w, id: 'w2' }, 'top')] }),
    );
    const pages: string[][] = [];
    for await (const page of widget.queryPages(deps, { key: ['p1', 'w1'] })) pages.push(page.map((x) => x.id));
    expect(pages).toEqual([['w1'], ['w2']]);
    expect(sent[1]?.input.ExclusiveStartKey).toEqual({ PK: 'a', SK: 'b' });
  });

  it('reads a batch again for the keys the table left unprocessed', async () => {
    const k1 = widget.key('p1', 'w1');
    const k2 = widget.key('p1', 'w2');
    const { deps, sent } = scripted(
      () => ({ Responses: { t: [widget.toItem(w, 'top')] }, UnprocessedKeys: { t: { Keys: [k2] } } }),
      () => ({ Responses: { t: [widget.toItem({ ...w, id: 'w2' }, 'top')] } }),
    );
    expect((await widget.getMany(deps, [k1, k2], 'busy')).map((x) => x.id)).toEqual(['w1', 'w2']);
    expect(sent.map((s) => s.input)).toEqual([
      { RequestItems: { t: { Keys: [k1, k2], ConsistentRead: true } } },
      { RequestItems: { t: { Keys: [k2], ConsistentRead: true } } },
    ]);
    expect(await widget.getMany(scripted().deps, [], 'busy')).toEqual([]);
  });

  it('updates only an existing item and returns it as written', async () => {
    const { deps, sent } = scripted(() => ({ Attributes: widget.toItem({ ...w, colour: 'green' }, 'top') }));
    expect(await widget.update(deps, widget.key('p1', 'w1'), { colour: 'green' })).toEqual({ ...w, colour: 'green' });
    expect(sent[0]?.input).toMatchObject({
      UpdateExpression: 'SET #f0 = :v0',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#f0': 'colour' },
      ExpressionAttributeValues: { ':v0': 'green' },
      ReturnValues: 'ALL_NEW',
    });
  });
});

describe('retryOnConflict', () => {
  it('runs the attempt again until it returns something other than RETRY', async () => {
    const seen: number[] = [];
    const attempt = async (n: number) => {
      seen.push(n);
      return n < 2 ? RETRY : 'done';
    };
    expect(await retryOnConflict('busy', attempt)).toBe('done');
    expect(seen).toEqual([0, 1, 2]);
  });

  it('gives up with ConflictRetryError, its details the message given, after MAX_CONFLICT_ATTEMPTS attempts', async () => {
    let attempts = 0;
    const attempt = async () => {
      attempts++;
      return RETRY;
    };
    const error = await retryOnConflict('Too many concurrent writes: x', attempt).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictRetryError);
    expect((error as ConflictRetryError).details).toBe('Too many concurrent writes: x');
    expect(attempts).toBe(MAX_CONFLICT_ATTEMPTS);
  }, 10_000);

  it('passes on what an attempt throws, at once', async () => {
    let attempts = 0;
    const attempt = async (): Promise<never> => {
      attempts++;
      throw new Error('boom');
    };
    await expect(retryOnConflict('busy', attempt)).rejects.toThrow('boom');
    expect(attempts).toBe(1);
  });
});

describe('putUnique', () => {
  const claim = label.toItem({ widgetId: 'w1' }, 'p1', 'Shiny');
  const item = widget.toItem(w, 'top');
  const errors = { busy: 'busy', taken: 'Widget id w1 is already taken' };

  it('writes the claim and the items in one transaction, each only where its key is free', async () => {
    const { deps, sent } = scripted(() => ({}));
    expect(await putUnique(deps, claim, [item], errors)).toBe(true);
    expect(sent[0]?.input).toEqual({
      TransactItems: [
        { Put: { TableName: 't', Item: claim, ConditionExpression: 'attribute_not_exists(PK)' } },
        { Put: { TableName: 't', Item: item, ConditionExpression: 'attribute_not_exists(PK)' } },
      ],
    });
  });

  it('says false when the name is taken, retries a lost race, and refuses a taken id', async () => {
    expect(await putUnique(scripted(cancelled('ConditionalCheckFailed', 'None')).deps, claim, [item], errors)).toBe(false);
    const raced = scripted(cancelled('None', 'TransactionConflict'), () => ({}));
    expect(await putUnique(raced.deps, claim, [item], errors)).toBe(true);
    expect(raced.sent).toHaveLength(2);
    await expect(putUnique(scripted(cancelled('None', 'ConditionalCheckFailed')).deps, claim, [item], errors)).rejects.toThrow(errors.taken);
  });
});
