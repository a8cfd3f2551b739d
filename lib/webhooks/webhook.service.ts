import { InvalidPayloadError, NotFoundError } from '../errors.js';
import { getProjectConsistently } from '../projects/project.repo.js';
import type { Runtime } from '../runtime.js';
import { type Resolve, resolveTarget, TargetRefused, type TargetPolicy } from './target-guard.js';
import { MAX_WEBHOOKS_PER_PROJECT, type Webhook } from './webhook.js';
import * as repo from './webhook.repo.js';
import type { CreateWebhookBody, UpdateWebhookBody } from './webhook.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/** Where a webhook may point, and how its host is resolved for the check. */
export interface TargetCheck {
  policy: TargetPolicy;
  resolve: Resolve;
}

/**
 * The target URL as stored, once the guard allows it: scheme, credentials, and every address its
 * host resolves to now (checked again at each delivery: DNS may change).
 * @throws InvalidPayloadError (`invalid_payload`) naming why the target is refused.
 */
async function checkedTarget(text: string, check: TargetCheck): Promise<string> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidPayloadError('target_url must be an absolute URL');
  }
  try {
    await resolveTarget(url, check.policy, check.resolve);
  } catch (error) {
    if (error instanceof TargetRefused) throw new InvalidPayloadError(`target_url ${error.message}`);
    throw error;
  }
  return url.href;
}

/** @throws NotFoundError when the project does not exist (or was deleted). */
async function assertProject(deps: Deps, projectId: string): Promise<void> {
  if (!(await getProjectConsistently(deps, projectId))) throw new NotFoundError('project', projectId);
}

/**
 * Adds a webhook to a project. Events are kept de-duplicated in the order sent.
 * @throws NotFoundError (project), InvalidPayloadError (target refused, too many webhooks).
 */
export async function createWebhook(deps: Deps, check: TargetCheck, projectId: string, body: CreateWebhookBody): Promise<Webhook> {
  await assertProject(deps, projectId);
  const targetUrl = await checkedTarget(body.target_url, check);
  if ((await repo.listWebhooks(deps, projectId)).length >= MAX_WEBHOOKS_PER_PROJECT)
    throw new InvalidPayloadError(`A project has at most ${MAX_WEBHOOKS_PER_PROJECT} webhooks`);
  const webhook: Webhook = {
    id: deps.ids.id('wh'),
    projectId,
    targetUrl,
    events: [...new Set(body.events)],
    active: body.active ?? true,
    createdAt: deps.clock.now().toISOString(),
    updatedAt: null,
  };
  await repo.insertWebhook(deps, webhook);
  return webhook;
}

export async function listWebhooks(deps: Deps, projectId: string): Promise<Webhook[]> {
  await assertProject(deps, projectId);
  return repo.listWebhooks(deps, projectId);
}

/** @throws NotFoundError when the project or the webhook does not exist. */
export async function getWebhook(deps: Deps, projectId: string, webhookId: string): Promise<Webhook> {
  await assertProject(deps, projectId);
  const webhook = await repo.getWebhook(deps, projectId, webhookId);
  if (!webhook) throw new NotFoundError('webhook', webhookId);
  return webhook;
}

/**
 * Replaces a webhook's target, events and switch (the reference's PUT takes the whole configuration;
 * `active` not sent keeps its value). Deliveries already queued go to the new target.
 * @throws NotFoundError, InvalidPayloadError (target refused).
 */
export async function updateWebhook(deps: Deps, check: TargetCheck, projectId: string, webhookId: string, body: UpdateWebhookBody): Promise<Webhook> {
  const current = await getWebhook(deps, projectId, webhookId);
  const next: Webhook = {
    ...current,
    targetUrl: await checkedTarget(body.target_url, check),
    events: [...new Set(body.events)],
    active: body.active ?? current.active,
    updatedAt: deps.clock.now().toISOString(),
  };
  if (!(await repo.replaceWebhook(deps, next))) throw new NotFoundError('webhook', webhookId);
  return next;
}

/** Deletes a webhook: deliveries already queued for it are dropped by the worker. @throws NotFoundError. */
export async function deleteWebhook(deps: Deps, projectId: string, webhookId: string): Promise<void> {
  await assertProject(deps, projectId);
  if (!(await repo.deleteWebhook(deps, projectId, webhookId))) throw new NotFoundError('webhook', webhookId);
}
