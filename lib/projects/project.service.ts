import type { AppKey } from '../app-keys/app-key.js';
import { deleteAppKey, type IssuedKeyPair, listAppKeys, regenerateAppKey, setClientOrigins, trustedOriginsOf } from '../app-keys/app-key.service.js';
import { clientKeyItems } from '../app-keys/client-key.repo.js';
import { hashSecret } from '../auth/secrets.js';
import { appKey } from '../db/entities.js';
import type { TransactItem } from '../db/transact.js';
import { ConflictRetryError, InvalidPayloadError, NotFoundError } from '../errors.js';
import type { IdempotencyScope } from '../idempotency/idempotency-scope.js';
import { type Committed, commitOnce } from '../idempotency/idempotency.service.js';
import type { JobQueue } from '../jobs/job.js';
import type { Logger } from '../logger.js';
import type { Runtime } from '../runtime.js';
import { type CreatedProject, calloutOf, mergedUsage } from './project.mapper.js';
import {
  DEFAULT_CLUSTER_ID,
  defaultApiUsageNotifications,
  defaultWebhooksCalloutNotifications,
  type Project,
  type WebhooksCalloutNotifications,
} from './project.js';
import * as repo from './project.repo.js';
import type { CreateProjectBody, UpdateProjectBody } from './project.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/** What an Idempotency-Key's record keeps of a create: ids only, never a token. */
interface CreateRecord {
  projectId: string;
  serverAppId: string;
  clientAppId: string;
}

function calloutsAfter(current: WebhooksCalloutNotifications, sent: CreateProjectBody['webhooks_callout_notifications']): WebhooksCalloutNotifications {
  if (!sent) return current;
  return {
    distributions: sent.distributions ? calloutOf(sent.distributions) : current.distributions,
    webhooks: sent.webhooks ? calloutOf(sent.webhooks) : current.webhooks,
  };
}

const newKey = (deps: Deps, projectId: string, side: AppKey['side'], trustedOrigins: string[] | null, now: string): { key: AppKey; pair: IssuedKeyPair } => {
  const appId = side === 'client' ? `client_${deps.ids.uuid()}` : deps.ids.uuid();
  const appToken = deps.ids.secret();
  return {
    key: {
      appId,
      projectId,
      name: side === 'client' ? 'client' : 'default',
      tokenHash: hashSecret(appToken),
      status: 'ACTIVE',
      permissions: null,
      ipAllowList: null,
      side,
      trustedOrigins,
      originless: true,
      createdAt: now,
      updatedAt: now,
    },
    pair: { project_id: projectId, app_id: appId, app_token: appToken },
  };
};

/**
 * Creates a project with a server-side and a client-side key pair (the client key trusting the
 * project's `client_trusted_domains`), all in one transaction with the Idempotency-Key's record.
 * The record keeps ids only: a retry after a lost reply gets the same project with both tokens
 * replaced (the lost reply's tokens are never stored, so they cannot be replayed).
 * @throws InvalidPayloadError (case-insensitive codes, users), BadRequestError (origins), IdempotencyKeyReusedError.
 */
export async function createProject(deps: Deps, body: CreateProjectBody, idempotency: IdempotencyScope | null): Promise<Committed<CreatedProject>> {
  if (!body.case_sensitive_codes)
    throw new InvalidPayloadError('case_sensitive_codes must be true: voucher codes are always case-sensitive in this deployment');
  if (body.users && body.users.length > 0) throw new InvalidPayloadError('users cannot be assigned: this deployment has no dashboard users');
  const origins = trustedOriginsOf(body.client_trusted_domains ?? []);
  const now = deps.clock.now().toISOString();
  const projectId = deps.ids.id('proj');
  const server = newKey(deps, projectId, 'server', null, now);
  const client = newKey(deps, projectId, 'client', origins, now);
  const project: Project = {
    projectId,
    name: body.name,
    description: body.description ?? null,
    timezone: body.timezone,
    currency: body.currency,
    dialCode: body.dial_code ?? null,
    webhookVersion: body.webhook_version ?? 'v2024-01-01',
    clusterId: body.cluster_id ?? DEFAULT_CLUSTER_ID,
    clientTrustedDomains: origins,
    clientRedeemEnabled: body.client_redeem_enabled ?? false,
    clientPublishEnabled: body.client_publish_enabled ?? false,
    clientLoyaltyEventsEnabled: body.client_loyalty_events_enabled ?? false,
    clientListVouchersEnabled: body.client_list_vouchers_enabled ?? false,
    clientCreateCustomerEnabled: body.client_create_customer_enabled ?? false,
    clientSetVoucherExpirationDateEnabled: body.client_set_voucher_expiration_date_enabled ?? false,
    apiUsageNotifications: mergedUsage(defaultApiUsageNotifications(), body.api_usage_notifications),
    webhooksCalloutNotifications: calloutsAfter(defaultWebhooksCalloutNotifications(), body.webhooks_callout_notifications),
    defaultCodeCharset: null,
    webhookToken: deps.ids.secret(),
    managedClientAppId: client.key.appId,
    createdAt: now,
    updatedAt: null,
  };
  const items: TransactItem[] = [repo.insertProjectItem(deps, project), appKey.putIfAbsent(deps, server.key), ...clientKeyItems(deps, client.key)];
  const record: CreateRecord = { projectId, serverAppId: server.key.appId, clientAppId: client.key.appId };
  const outcome = await commitOnce(deps, idempotency, items, record, deps.clock.now());
  if (!outcome.ok) throw new ConflictRetryError('The project could not be created; try again');
  if (!outcome.replayed) return { value: { project, serverKey: server.pair, clientKey: client.pair }, replayed: false };
  const first = outcome.reply;
  const [kept, serverKey, clientKey] = await Promise.all([
    getProject(deps, first.projectId),
    regenerateAppKey(deps, first.serverAppId),
    regenerateAppKey(deps, first.clientAppId),
  ]);
  return { value: { project: kept, serverKey, clientKey }, replayed: true };
}

/** Every project of the deployment, oldest first. */
export function listProjects(deps: Pick<Runtime, 'ddb' | 'tableName'>): Promise<Project[]> {
  return repo.listProjects(deps);
}

/** @throws NotFoundError when no such project exists (or it was deleted). */
export async function getProject(deps: Pick<Runtime, 'ddb' | 'tableName'>, projectId: string): Promise<Project> {
  const project = await repo.getProjectConsistently(deps, projectId);
  if (!project) throw new NotFoundError('project', projectId);
  return project;
}

/**
 * Changes the fields sent. New `client_trusted_domains` become the origins of the client key the
 * Management API made with the project (first, so the project never names origins its key lacks).
 * @throws NotFoundError, BadRequestError (origins), ConflictRetryError (the key changed meanwhile).
 */
export async function updateProject(deps: Deps, projectId: string, body: UpdateProjectBody): Promise<Project> {
  const current = await getProject(deps, projectId);
  const origins = body.client_trusted_domains !== undefined ? trustedOriginsOf(body.client_trusted_domains) : undefined;
  if (origins !== undefined && current.managedClientAppId !== null) {
    try {
      await setClientOrigins(deps, current.managedClientAppId, origins);
    } catch (error) {
      // An operator may have deleted that key: the domains are then kept on the project only.
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
  const fields: Partial<Project> = {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.timezone !== undefined ? { timezone: body.timezone } : {}),
    ...(body.currency !== undefined ? { currency: body.currency } : {}),
    ...(body.dial_code !== undefined ? { dialCode: body.dial_code } : {}),
    ...(body.webhook_version !== undefined ? { webhookVersion: body.webhook_version } : {}),
    ...(origins !== undefined ? { clientTrustedDomains: origins } : {}),
    ...(body.client_redeem_enabled !== undefined ? { clientRedeemEnabled: body.client_redeem_enabled } : {}),
    ...(body.client_publish_enabled !== undefined ? { clientPublishEnabled: body.client_publish_enabled } : {}),
    ...(body.client_list_vouchers_enabled !== undefined ? { clientListVouchersEnabled: body.client_list_vouchers_enabled } : {}),
    ...(body.client_create_customer_enabled !== undefined ? { clientCreateCustomerEnabled: body.client_create_customer_enabled } : {}),
    ...(body.client_loyalty_events_enabled !== undefined ? { clientLoyaltyEventsEnabled: body.client_loyalty_events_enabled } : {}),
    ...(body.client_set_voucher_expiration_date_enabled !== undefined
      ? { clientSetVoucherExpirationDateEnabled: body.client_set_voucher_expiration_date_enabled }
      : {}),
    ...(body.api_usage_notifications !== undefined ? { apiUsageNotifications: mergedUsage(current.apiUsageNotifications, body.api_usage_notifications) } : {}),
    ...(body.webhooks_callout_notifications !== undefined
      ? { webhooksCalloutNotifications: calloutsAfter(current.webhooksCalloutNotifications, body.webhooks_callout_notifications) }
      : {}),
    ...(body.default_code_config?.charset !== undefined ? { defaultCodeCharset: body.default_code_config.charset } : {}),
    updatedAt: deps.clock.now().toISOString(),
  };
  const updated = await repo.updateProjectFields(deps, projectId, fields);
  if (!updated) throw new NotFoundError('project', projectId);
  return updated;
}

/** Deletes every application key of the project (client keys with their origin items); a key already gone is skipped. */
async function deleteKeysOf(deps: Deps, projectId: string, also: string | null): Promise<void> {
  const ids = new Set([...(await listAppKeys(deps, projectId)).map((k) => k.appId), ...(also ? [also] : [])]);
  for (const appId of ids) {
    try {
      await deleteAppKey(deps, appId);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
}

/**
 * Puts the data removal's message on the jobs queue. A refused send is logged, not thrown: the
 * project is deleted already, its open-job marker stays (the local start-up resends it) and a
 * repeated DELETE sends it again.
 */
async function enqueueRemoval(deps: Deps & { jobs: JobQueue; logger?: Logger }, projectId: string): Promise<void> {
  try {
    await deps.jobs.send({ type: 'remove-project-data', projectId });
  } catch (error) {
    deps.logger?.error('the project data removal could not be enqueued', { project_id: projectId, error: String(error) });
  }
}

/**
 * Deletes a project: first its keys (each pair fails from then on; its OAuth tokens within the
 * key cache's 30 s), then the project item, replaced by a tombstone in the same transaction with
 * the start of the job that removes its data (status IN_PROGRESS on the tombstone, open-job
 * marker), then any key made meanwhile; then the job is enqueued (docs/decisions.md "Deleting a
 * project"). A crash part-way leaves the project listed; deleting it again finishes. Deleting a
 * deleted project again removes leftover keys, re-sends a removal still open (or starts one for a
 * project deleted before the job existed), and answers 404.
 * @throws NotFoundError when no such project exists (or it was deleted).
 */
export async function deleteProject(deps: Deps & { jobs: JobQueue; logger?: Logger }, projectId: string): Promise<void> {
  const project = await repo.getProjectConsistently(deps, projectId);
  if (!project) {
    const tombstone = await repo.getTombstone(deps, projectId);
    if (tombstone) {
      await deleteKeysOf(deps, projectId, null);
      if (
        tombstone.status === 'IN_PROGRESS' ||
        (tombstone.status === undefined && (await repo.startLateRemoval(deps, projectId, deps.clock.now().toISOString())))
      ) {
        await enqueueRemoval(deps, projectId);
      }
    }
    throw new NotFoundError('project', projectId);
  }
  await deleteKeysOf(deps, projectId, project.managedClientAppId);
  if (!(await repo.replaceWithTombstone(deps, project, deps.clock.now().toISOString()))) throw new NotFoundError('project', projectId);
  await deleteKeysOf(deps, projectId, null);
  await enqueueRemoval(deps, projectId);
}
