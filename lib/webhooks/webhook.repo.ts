import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as entities from '../db/entities.js';
import type { Runtime } from '../runtime.js';
import type { Webhook } from './webhook.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** Every webhook of a project (one partition, at most MAX_WEBHOOKS_PER_PROJECT items), oldest first. */
export async function listWebhooks(deps: Deps, projectId: string, consistent = true): Promise<Webhook[]> {
  const all = await entities.webhook.query(deps, { key: [projectId] }, { consistent });
  return all.sort((a, b) => (a.createdAt === b.createdAt ? a.id.localeCompare(b.id) : a.createdAt < b.createdAt ? -1 : 1));
}

export function getWebhook(deps: Deps, projectId: string, webhookId: string): Promise<Webhook | null> {
  return entities.webhook.get(deps, entities.webhook.key(projectId, webhookId));
}

export async function insertWebhook(deps: Deps, webhook: Webhook): Promise<void> {
  await deps.ddb.send(new PutCommand(entities.webhook.putIfAbsent(deps, webhook).Put));
}

/** Replaces an existing webhook; false when it does not exist (deleted meanwhile). */
export async function replaceWebhook(deps: Deps, webhook: Webhook): Promise<boolean> {
  try {
    await deps.ddb.send(new PutCommand({ TableName: deps.tableName, Item: entities.webhook.toItem(webhook), ConditionExpression: 'attribute_exists(PK)' }));
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/** Deletes a webhook; false when there was none. */
export async function deleteWebhook(deps: Deps, projectId: string, webhookId: string): Promise<boolean> {
  const reply = await deps.ddb.send(new DeleteCommand({ TableName: deps.tableName, Key: entities.webhook.key(projectId, webhookId), ReturnValues: 'ALL_OLD' }));
  return reply.Attributes !== undefined;
}
