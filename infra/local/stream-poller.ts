import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
  type ShardIteratorType,
} from '@aws-sdk/client-dynamodb-streams';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { lambdaContext } from './api-gateway-event.js';
import { ENTITY_ATTR } from '../../lib/db/table.js';
import type { Logger } from '../../lib/logger.js';

/** A stream worker's handler, as Lambda's DynamoDB Streams event source calls it. */
export type StreamWorkerHandler = (event: DynamoDBStreamEvent, context: Context) => Promise<DynamoDBBatchResponse | void | null | undefined>;

export interface StreamPollerOptions {
  dynamoEndpoint: string;
  region: string;
  tableName: string;
  /** The `entity` values passed to the handler (Lambda's event filter); other records only move the checkpoint. */
  entities: readonly string[];
  batchSize: number;
  /** Built with the poller's `onEnqueued` (the handler tells which deliveries each record started). */
  handler: StreamWorkerHandler;
  /** Where the per-shard checkpoints are kept across restarts; null = in memory (a run that keeps nothing). */
  checkpointFile: string | null;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  functionName?: string;
  /** Pause after an empty read (default 200 ms). */
  idleDelayMs?: number;
}

export interface StreamPoller {
  /** The handler's `onEnqueued`: the deliveries a record started (its checkpoint waits for each to settle). */
  onEnqueued(sequenceNumber: string, deliveryKeys: string[]): void;
  /** The delivery worker's `onSettled`: a delivery ended (delivered, dead-lettered or dropped). */
  settled(deliveryKey: string): void;
  /** Resolves once every shard's checkpoint covers every record read so far (tests). */
  drained(timeoutMs: number): Promise<boolean>;
  stop(): Promise<void>;
}

interface Entry {
  seq: string;
  /** Handled by the handler (or filtered out): only then may the checkpoint pass it. */
  done: boolean;
  /** Deliveries it started that have not settled. */
  keys: Set<string>;
}

/** The record Lambda's DynamoDB Streams event source builds (creation time in seconds, `eventSource`). */
function toLambdaRecord(r: StreamRecord, streamArn: string, region: string): DynamoDBRecord {
  const d = r.dynamodb ?? {};
  const created = d.ApproximateCreationDateTime;
  return {
    eventID: r.eventID ?? '',
    eventName: r.eventName as DynamoDBRecord['eventName'],
    eventVersion: r.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: region,
    eventSourceARN: streamArn,
    dynamodb: {
      ...(created ? { ApproximateCreationDateTime: Math.floor(new Date(created).getTime() / 1000) } : {}),
      Keys: d.Keys as never,
      ...(d.NewImage ? { NewImage: mended(d.NewImage as Image) as never } : {}),
      ...(d.OldImage ? { OldImage: mended(d.OldImage as Image) as never } : {}),
      SequenceNumber: d.SequenceNumber ?? '',
      SizeBytes: d.SizeBytes ?? 0,
      StreamViewType: d.StreamViewType as never,
    },
  };
}

type Image = Record<string, unknown>;

/** DynamoDB Local's stream writes an empty map as `{}` (no type); DynamoDB sends `{ M: {} }`. Mended here, as AWS would send it. */
function mended(image: Image | undefined): Image | undefined {
  if (!image) return image;
  const fix = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    const av = v as Record<string, unknown>;
    if (Object.keys(av).length === 0) return { M: {} };
    if (av.M && typeof av.M === 'object') return { M: mended(av.M as Image) };
    if (Array.isArray(av.L)) return { L: av.L.map(fix) };
    return av;
  };
  return Object.fromEntries(Object.entries(image).map(([k, v]) => [k, fix(v)]));
}

const entityOf = (r: StreamRecord): string | undefined => (r.dynamodb?.NewImage ?? r.dynamodb?.OldImage)?.[ENTITY_ATTR]?.S;

/**
 * Feeds the table's stream on DynamoDB Local to a stream worker the way Lambda's event source does
 * (records of a shard in order, filtered by entity, a failed record read again), and keeps a
 * checkpoint per shard in `checkpointFile`. The local SQS keeps its messages in memory, so a
 * checkpoint passes a record only once every delivery it started has settled: a runtime killed
 * (kill -9) with deliveries queued reads those records again on its next start and enqueues the
 * same events (same ids) again: at least once. A first start with no checkpoint file begins at the
 * stream's end (earlier changes are not sent); shards that appear later are read from their start.
 */
export function startStreamPoller(options: StreamPollerOptions): StreamPoller {
  const { logger, tableName } = options;
  const functionName = options.functionName ?? 'stream-worker';
  const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  const ddb = new DynamoDBClient({ region: options.region, endpoint: options.dynamoEndpoint, credentials });
  const streams = new DynamoDBStreamsClient({ region: options.region, endpoint: options.dynamoEndpoint, credentials });
  const idleDelayMs = options.idleDelayMs ?? 200;
  const wanted = new Set(options.entities);
  const aborter = new AbortController();
  let stopping = false;

  const hadCheckpoints = options.checkpointFile !== null && existsSync(options.checkpointFile);
  const checkpoints: Record<string, string> = hadCheckpoints
    ? (JSON.parse(readFileSync(options.checkpointFile as string, 'utf8')) as Record<string, string>)
    : {};
  const saveCheckpoints = (): void => {
    if (options.checkpointFile === null) return;
    const temp = `${options.checkpointFile}.tmp`;
    writeFileSync(temp, JSON.stringify(checkpoints));
    renameSync(temp, options.checkpointFile);
  };
  // Written at once, so a start after this one knows the stream was being read (and reads new shards from their start).
  if (!hadCheckpoints) saveCheckpoints();

  const entries = new Map<string, Entry[]>();
  const bySeq = new Map<string, Entry>();
  const settledEarly = new Set<string>();

  const advance = (shardId: string): void => {
    const list = entries.get(shardId) ?? [];
    let moved = false;
    while (list.length > 0 && list[0]?.done && list[0].keys.size === 0) {
      const entry = list.shift() as Entry;
      bySeq.delete(entry.seq);
      checkpoints[shardId] = entry.seq;
      moved = true;
    }
    if (moved) saveCheckpoints();
  };
  const advanceAll = (): void => {
    for (const shardId of entries.keys()) advance(shardId);
  };

  const readShard = async (streamArn: string, shardId: string, fromStart: boolean): Promise<void> => {
    const after = checkpoints[shardId];
    const start = async (type: ShardIteratorType, seq?: string): Promise<string | undefined> =>
      (
        await streams.send(
          new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shardId, ShardIteratorType: type, ...(seq ? { SequenceNumber: seq } : {}) }),
          { abortSignal: aborter.signal },
        )
      ).ShardIterator;
    let iterator = after ? await start('AFTER_SEQUENCE_NUMBER', after) : await start(fromStart ? 'TRIM_HORIZON' : 'LATEST');
    const list: Entry[] = [];
    entries.set(shardId, list);
    while (!stopping && iterator) {
      const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: options.batchSize }), { abortSignal: aborter.signal });
      const records = page.Records ?? [];
      if (records.length === 0) {
        iterator = page.NextShardIterator;
        await sleep(idleDelayMs, undefined, { signal: aborter.signal }).catch(() => undefined);
        continue;
      }
      const batch: DynamoDBRecord[] = [];
      for (const r of records) {
        const entry: Entry = { seq: r.dynamodb?.SequenceNumber ?? '', done: false, keys: new Set() };
        list.push(entry);
        bySeq.set(entry.seq, entry);
        const entity = entityOf(r);
        if (entity !== undefined && wanted.has(entity)) batch.push(toLambdaRecord(r, streamArn, options.region));
        else entry.done = true;
      }
      let failedFrom: string | undefined;
      if (batch.length > 0) {
        try {
          const reply = await options.handler({ Records: batch }, lambdaContext(functionName, 60_000));
          failedFrom = reply?.batchItemFailures?.[0]?.itemIdentifier;
        } catch (error) {
          failedFrom = batch[0]?.dynamodb?.SequenceNumber;
          logger.error('stream batch threw', { function: functionName, error: (error as Error).message });
        }
      }
      if (failedFrom !== undefined) {
        // Lambda reads a failed record again; so does this, after a pause. The entries before it are done; from it on they go (they come back).
        const at = list.findIndex((e) => e.seq === failedFrom);
        for (const e of list.slice(0, at < 0 ? list.length : at)) e.done = true;
        for (const e of list.splice(at < 0 ? list.length : at)) bySeq.delete(e.seq);
        logger.warn('stream records failed; reading them again', { function: functionName, shard: shardId });
        await sleep(1000, undefined, { signal: aborter.signal }).catch(() => undefined);
        iterator = await start('AT_SEQUENCE_NUMBER', failedFrom);
        advance(shardId);
        continue;
      }
      // Records the handler took without telling (no deliveries) are done as well.
      for (const r of records) {
        const entry = bySeq.get(r.dynamodb?.SequenceNumber ?? '');
        if (entry) entry.done = true;
      }
      advance(shardId);
      iterator = page.NextShardIterator;
    }
  };

  const loop = async (): Promise<void> => {
    const reading = new Map<string, Promise<void>>();
    const finished = new Set<string>();
    let firstLook = true;
    while (!stopping) {
      try {
        const table = (await ddb.send(new DescribeTableCommand({ TableName: tableName }), { abortSignal: aborter.signal })).Table;
        const streamArn = table?.LatestStreamArn;
        if (!streamArn) throw new Error(`${tableName} has no stream`);
        const shards =
          (await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }), { abortSignal: aborter.signal })).StreamDescription?.Shards ?? [];
        const known = new Set(shards.map((s) => s.ShardId));
        for (const shard of shards) {
          const id = shard.ShardId ?? '';
          if (reading.has(id) || finished.has(id)) continue;
          const parent = shard.ParentShardId;
          // A child shard waits for its parent, so one item's changes stay in order.
          if (parent && known.has(parent) && !finished.has(parent)) continue;
          // A run that keeps nothing has a stream of its own making, or one it shares and reads from the start (tests).
          const fromStart = hadCheckpoints || !firstLook || options.checkpointFile === null;
          reading.set(
            id,
            readShard(streamArn, id, fromStart)
              .catch((error: unknown) => {
                if (!stopping) logger.warn('stream shard reading failed', { function: functionName, shard: id, error: (error as Error).message });
              })
              .finally(() => {
                reading.delete(id);
                if (!stopping) finished.add(id);
              }),
          );
        }
        firstLook = false;
      } catch (error) {
        if (stopping) break;
        logger.warn('stream polling failed', { function: functionName, error: (error as Error).message });
      }
      await sleep(1000, undefined, { signal: aborter.signal }).catch(() => undefined);
    }
    await Promise.all(reading.values());
  };

  const running = loop();
  return {
    onEnqueued(sequenceNumber, deliveryKeys) {
      const entry = bySeq.get(sequenceNumber);
      if (!entry) return;
      for (const key of deliveryKeys) {
        if (settledEarly.delete(key)) continue;
        entry.keys.add(key);
      }
    },
    settled(deliveryKey) {
      let found = false;
      for (const entry of bySeq.values()) if (entry.keys.delete(deliveryKey)) found = true;
      if (!found) {
        // Delivered before the handler told of it (the worker can be that quick), or a delivery of a previous run.
        if (settledEarly.size > 100_000) settledEarly.clear();
        settledEarly.add(deliveryKey);
      }
      advanceAll();
    },
    async drained(timeoutMs) {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        if ([...entries.values()].every((l) => l.length === 0)) return true;
        await sleep(100);
      }
      return false;
    },
    stop: async () => {
      stopping = true;
      aborter.abort();
      await running;
      ddb.destroy();
      streams.destroy();
    },
  };
}
