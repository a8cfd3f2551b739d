import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import type { Logger } from '../logger.js';
import type { Runtime } from '../runtime.js';
import type { Webhook } from '../webhooks/webhook.js';
import { listWebhooks } from '../webhooks/webhook.repo.js';
import { eventsOfChange } from './change-events.js';
import type { DeliveryMessage, ItemChange } from './out-event.js';
import type { WebhookQueue } from './webhook-queue.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'> & { logger: Pick<Logger, 'warn' | 'info'> };

/** Told which deliveries a stream record started (the local runtime's checkpoint waits for them to settle). */
export type OnEnqueued = (sequenceNumber: string, deliveryKeys: string[]) => void;

/** The key of one event's delivery to one webhook (the local runtime tracks each until it settles). */
export const deliveryKey = (eventId: string, webhookId: string): string => `${eventId}|${webhookId}`;

/** A stream record's change, its images unmarshalled. */
export function changeOf(record: DynamoDBRecord): ItemChange | null {
  const kind = record.eventName;
  if (kind !== 'INSERT' && kind !== 'MODIFY' && kind !== 'REMOVE') return null;
  const image = (i: Record<string, AttributeValue> | undefined) => (i ? (unmarshall(i as Parameters<typeof unmarshall>[0]) as Record<string, unknown>) : null);
  const seconds = record.dynamodb?.ApproximateCreationDateTime;
  return {
    kind,
    newItem: image(record.dynamodb?.NewImage),
    oldItem: image(record.dynamodb?.OldImage),
    ...(seconds !== undefined ? { at: new Date(seconds * 1000).toISOString() } : {}),
  };
}

/**
 * The events of a record; none (logged) for one that does not map: such a record would fail the
 * same way on every read and hold back its shard's later records, so it is skipped, not retried.
 */
function mappedEvents(deps: Deps, record: DynamoDBRecord) {
  try {
    const change = changeOf(record);
    return change ? eventsOfChange(change) : [];
  } catch (error) {
    deps.logger.warn('outbox record not mapped; skipped', { sequence: record.dynamodb?.SequenceNumber, error: (error as Error).message });
    return [];
  }
}

/**
 * The outbox's consumer (a DynamoDB Streams batch): maps each change to the reference's events and
 * enqueues one message per (event, webhook of the project that names the event and is active).
 * Records are taken in order; on an error the records from the first one not enqueued are reported
 * as failed (ReportBatchItemFailures: the stream resumes there), so a record is enqueued at least
 * once, and its events keep their ids however often it is read.
 */
export async function dispatchStreamRecords(
  deps: Deps,
  queue: WebhookQueue,
  records: readonly DynamoDBRecord[],
  onEnqueued?: OnEnqueued,
): Promise<{ batchItemFailures: { itemIdentifier: string }[] }> {
  const webhooksOf = new Map<string, Promise<Webhook[]>>();
  const webhooks = (projectId: string): Promise<Webhook[]> => {
    let found = webhooksOf.get(projectId);
    if (!found) webhooksOf.set(projectId, (found = listWebhooks(deps, projectId)));
    return found;
  };
  // Messages of consecutive records go out together (SendMessageBatch takes 10); each group remembers its first record.
  let pending: { body: DeliveryMessage; delaySeconds: number }[] = [];
  let pendingFrom: number | null = null;
  let pendingTold: { sequence: string; keys: string[] }[] = [];
  const flush = async (): Promise<void> => {
    if (pending.length > 0) await queue.send(pending);
    for (const t of pendingTold) onEnqueued?.(t.sequence, t.keys);
    pending = [];
    pendingFrom = null;
    pendingTold = [];
  };
  const failedFrom = (index: number) => ({ batchItemFailures: records.slice(index).map((r) => ({ itemIdentifier: r.dynamodb?.SequenceNumber ?? '' })) });
  for (let i = 0; i < records.length; i++) {
    const record = records[i] as DynamoDBRecord;
    const sequence = record.dynamodb?.SequenceNumber ?? '';
    try {
      const events = mappedEvents(deps, record);
      const keys: string[] = [];
      for (const event of events) {
        for (const webhook of await webhooks(event.projectId)) {
          if (!webhook.active || !webhook.events.includes(event.type)) continue;
          pendingFrom ??= i;
          pending.push({ body: { v: 1, event, webhookId: webhook.id, attempts: 0 }, delaySeconds: 0 });
          keys.push(deliveryKey(event.id, webhook.id));
        }
      }
      pendingTold.push({ sequence, keys });
      if (pending.length >= 10) await flush();
    } catch (error) {
      deps.logger.warn('outbox record not dispatched', { sequence, error: (error as Error).message });
      return failedFrom(pendingFrom ?? i);
    }
  }
  try {
    await flush();
  } catch (error) {
    deps.logger.warn('outbox records not dispatched', { error: (error as Error).message });
    return failedFrom(pendingFrom ?? records.length);
  }
  return { batchItemFailures: [] };
}
