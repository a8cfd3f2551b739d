import { inject } from 'vitest';
import { ManualClock, type Clock } from '../../lib/clock.js';
import { createDocumentClient } from '../../lib/db/client.js';
import { randomIds } from '../../lib/ids.js';
import { silentLogger, type Logger } from '../../lib/logger.js';
import { createRuntime, type Runtime } from '../../lib/runtime.js';
import { createProject, type IssuedKeyPair } from '../../lib/app-keys/app-key.service.js';

export const engines = () => inject('engines');

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

/** A fresh project with one key pair, so a test never sees another test's data. */
export async function newProject(runtime: Runtime, name = 'test project'): Promise<IssuedKeyPair> {
  return createProject(runtime, name);
}

export const keyPairHeaders = (pair: IssuedKeyPair): Record<string, string> => ({
  'x-app-id': pair.app_id,
  'x-app-token': pair.app_token,
});
