import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { inject } from 'vitest';
import { ensureTable } from '../../infra/local/engines.js';
import { ManualClock, type Clock } from '../../lib/clock.js';
import { createDocumentClient } from '../../lib/db/client.js';
import { randomIds } from '../../lib/ids.js';
import { silentLogger, type Logger } from '../../lib/logger.js';
import { createRuntime, type Runtime } from '../../lib/runtime.js';
import { createClientKey, createProject, type IssuedKeyPair, setClientSwitches } from '../../lib/app-keys/app-key.service.js';
import type { IssuedManagementKey } from '../../lib/management/management-key.js';
import { createManagementKey } from '../../lib/management/management-key.service.js';

export const engines = () => inject('engines');

let fileTable: Promise<string> | undefined;
let streamedFileTable: Promise<string> | undefined;

async function createFileTable(stream: boolean): Promise<string> {
  const e = engines();
  const name = `file-${randomUUID().slice(0, 8)}`;
  const client = new DynamoDBClient({ region: e.region, endpoint: e.dynamoEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    await ensureTable(client, name, { stream });
  } finally {
    client.destroy();
  }
  return name;
}

/**
 * A table of this test file's own (made on first use; forgotten between files by test/support/per-file.ts), for a
 * file whose tests Scan to count what they wrote: on the suite's shared table such a Scan reads every
 * other test's items, took tens of seconds and slowed the whole engine for the other workers.
 */
export function fileTableName(): Promise<string> {
  fileTable ??= createFileTable(false);
  return fileTable;
}

/** A table of this file's own with the change stream on, for a test that runs the outbox's stream poller. */
export function streamedFileTableName(): Promise<string> {
  streamedFileTable ??= createFileTable(true);
  return streamedFileTable;
}

/** Forgets this file's tables, so the next file makes its own (the integration project shares modules between files: test/support/per-file.ts). */
export function forgetFileTables(): void {
  fileTable = undefined;
  streamedFileTable = undefined;
}

/** A runtime on the test engines; pass a ManualClock to move time, a table name for a table of the test's own (made by the caller). */
export function testRuntime(options: { clock?: Clock; logger?: Logger; tableName?: string } = {}): Runtime {
  const e = engines();
  return createRuntime(
    { tableName: options.tableName ?? e.tableName, region: e.region, dynamoDbEndpoint: e.dynamoEndpoint, cluster: 'api', logLevel: 'error' },
    {
      ddb: createDocumentClient({ region: e.region, endpoint: e.dynamoEndpoint }),
      clock: options.clock ?? new ManualClock(),
      ids: randomIds,
      logger: options.logger ?? silentLogger,
    },
  );
}

/** A project's server key pair, and its client-side pair (no trusted origin; requests without Origin admitted). */
export type ProjectKeys = IssuedKeyPair & { client: IssuedKeyPair };

/** A fresh project with one key pair and one client-side pair (its client-side switches on), so a test never sees another test's data. */
export async function newProject(runtime: Runtime, name = 'test project'): Promise<ProjectKeys> {
  const pair = await createProject(runtime, name);
  // Every client route open, so the suites that walk the route table reach each one's engine.
  await setClientSwitches(runtime, pair.project_id, { clientRedeemEnabled: true, clientPublishEnabled: true, clientLoyaltyEventsEnabled: true });
  return { ...pair, client: await createClientKey(runtime, pair.project_id, { origins: [] }) };
}

/**
 * Headers of a project's credentials: the server pair, and with it the client-side pair when the
 * project has one. Each route reads its own side's (a client route never reads X-App-*), so one
 * set of headers calls every route of the table.
 */
export const keyPairHeaders = (pair: IssuedKeyPair | ProjectKeys): Record<string, string> => ({
  'x-app-id': pair.app_id,
  'x-app-token': pair.app_token,
  ...('client' in pair ? { 'x-client-application-id': pair.client.app_id, 'x-client-token': pair.client.app_token } : {}),
});

/** Only the client-side pair's headers. */
export const clientKeyHeaders = (pair: IssuedKeyPair): Record<string, string> => ({
  'x-client-application-id': pair.app_id,
  'x-client-token': pair.app_token,
});

/** A fresh management key pair (operator-wide: it opens /management/v1/* only). */
export const newManagementKey = (runtime: Runtime, name = 'test management key'): Promise<IssuedManagementKey> => createManagementKey(runtime, { name });

/** Headers of a management key pair. */
export const managementHeaders = (key: IssuedManagementKey): Record<string, string> => ({
  'x-management-id': key.management_id,
  'x-management-token': key.management_token,
});
