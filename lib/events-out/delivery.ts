import type { Logger } from '../logger.js';
import { getProject } from '../projects/project.repo.js';
import type { Runtime } from '../runtime.js';
import { DEFAULT_RETRY_SCHEDULE, nextAttempt, type RetrySchedule } from '../webhooks/retry-schedule.js';
import type { Resolve, TargetPolicy } from '../webhooks/target-guard.js';
import type { Project } from '../projects/project.js';
import type { Webhook } from '../webhooks/webhook.js';
import { getWebhook } from '../webhooks/webhook.repo.js';
import { type SendLimits, sendWebhook } from '../webhooks/webhook-sender.js';
import { type DeliveryMessage, webhookPayload } from './out-event.js';
import { MAX_SQS_DELAY_SECONDS, type WebhookQueue } from './webhook-queue.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock'> & { logger: Pick<Logger, 'info' | 'warn'> };

export interface DeliveryPorts {
  queue: WebhookQueue;
  policy: TargetPolicy;
  resolve: Resolve;
  limits?: SendLimits;
  schedule?: RetrySchedule;
}

/**
 * What became of a message: `delivered` (a 2xx), `retrying` (enqueued again with the schedule's
 * delay), `waiting` (a retry not yet due, re-delayed), `dead-lettered` (given up after the bound),
 * `dropped` (the webhook was deleted, switched off or no longer names the event; or the project is gone).
 */
export type DeliveryResult = 'delivered' | 'retrying' | 'waiting' | 'dead-lettered' | 'dropped';

/** Whether a result ends the delivery (nothing of it is queued any more). */
export const settles = (result: DeliveryResult): boolean => result === 'delivered' || result === 'dead-lettered' || result === 'dropped';

/** How a delivery reads its webhook and its project's secret. */
export interface DeliveryReads {
  webhook(projectId: string, webhookId: string): Promise<Webhook | null>;
  project(projectId: string): Promise<Project | null>;
}

/**
 * Reads shared by the messages of one batch: each webhook and project is read once however many of
 * the batch's events it concerns (a batch is received at one moment, so each is still read as it is
 * now). Ten GetItem pairs per batch of one receiver's events were most of the worker's work
 * (docs/benchmarks.md item 22). A failed read is not kept: the messages that needed it fail and are received again.
 */
export function batchReads(deps: Pick<Runtime, 'ddb' | 'tableName'>): DeliveryReads {
  const webhooks = new Map<string, Promise<Webhook | null>>();
  const projects = new Map<string, Promise<Project | null>>();
  const once = <T>(memo: Map<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> => {
    let found = memo.get(key);
    if (!found) {
      found = read();
      memo.set(key, found);
      found.catch(() => memo.delete(key));
    }
    return found;
  };
  return {
    webhook: (projectId, webhookId) => once(webhooks, `${projectId}\u0000${webhookId}`, () => getWebhook(deps, projectId, webhookId)),
    project: (projectId) => once(projects, projectId, () => getProject(deps, projectId)),
  };
}

/**
 * One delivery attempt of one event to one webhook: the webhook and the project's secret are read
 * as they are now (through `reads`: once per batch) (a target changed since the event is where it goes), the target is checked
 * again by the guard (DNS may have changed) and the signed payload POSTed (webhook-sender.ts). A
 * failure is re-enqueued after the retry schedule's delay; an SQS delay is at most 15 minutes, so a
 * longer one goes out with `dueAt` and is re-delayed until then without an attempt. Past the
 * schedule's bound the message goes to the dead-letter queue (its alarm tells the operator).
 * @throws Error only when the queue or the table fails (the message is then received again).
 */
export async function deliverMessage(
  deps: Deps,
  ports: DeliveryPorts,
  message: DeliveryMessage,
  reads: DeliveryReads = batchReads(deps),
): Promise<DeliveryResult> {
  const now = deps.clock.now().getTime();
  if (message.dueAt !== undefined) {
    const waitSeconds = Math.ceil((Date.parse(message.dueAt) - now) / 1000);
    if (waitSeconds > 0) {
      const { dueAt: _due, ...rest } = message;
      const body = waitSeconds > MAX_SQS_DELAY_SECONDS ? message : rest;
      await ports.queue.send([{ body, delaySeconds: Math.min(MAX_SQS_DELAY_SECONDS, waitSeconds) }]);
      return 'waiting';
    }
  }
  const { event, webhookId } = message;
  const [webhook, project] = await Promise.all([reads.webhook(event.projectId, webhookId), reads.project(event.projectId)]);
  if (!webhook?.active || !webhook.events.includes(event.type) || !project) {
    deps.logger.info('webhook delivery dropped', {
      event: event.id,
      type: event.type,
      webhook: webhookId,
      why: !webhook ? 'deleted' : 'not active or not subscribed',
    });
    return 'dropped';
  }
  const outcome = await sendWebhook(
    { url: webhook.targetUrl, body: JSON.stringify(webhookPayload(event, webhookId)), secret: project.webhookToken, eventId: event.id },
    { policy: ports.policy, resolve: ports.resolve, ...(ports.limits ? { limits: ports.limits } : {}) },
  );
  const attempts = message.attempts + 1;
  if (outcome.kind === 'answered' && outcome.delivered) {
    deps.logger.info('webhook delivered', { event: event.id, type: event.type, webhook: webhookId, status: outcome.status, attempts });
    return 'delivered';
  }
  const why = outcome.kind === 'answered' ? `answered ${outcome.status}` : `${outcome.kind}: ${outcome.reason}`;
  const next = nextAttempt(attempts, Math.max(0, (now - Date.parse(event.createdAt)) / 1000), ports.schedule ?? DEFAULT_RETRY_SCHEDULE);
  if ('giveUp' in next) {
    await ports.queue.deadLetter({ ...message, attempts }, `gave up after ${attempts} attempts; last: ${why}`);
    deps.logger.warn('webhook dead-lettered', { event: event.id, type: event.type, webhook: webhookId, attempts, why });
    return 'dead-lettered';
  }
  const retry: DeliveryMessage = { v: 1, event, webhookId, attempts };
  if (next.retryInSeconds > MAX_SQS_DELAY_SECONDS) retry.dueAt = new Date(now + next.retryInSeconds * 1000).toISOString();
  await ports.queue.send([{ body: retry, delaySeconds: Math.min(MAX_SQS_DELAY_SECONDS, next.retryInSeconds) }]);
  deps.logger.info('webhook delivery failed; retrying', {
    event: event.id,
    type: event.type,
    webhook: webhookId,
    attempts,
    why,
    inSeconds: next.retryInSeconds,
  });
  return 'retrying';
}
