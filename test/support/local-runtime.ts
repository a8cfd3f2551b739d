import { randomUUID } from 'node:crypto';
import { SQSClient } from '@aws-sdk/client-sqs';
import { resources } from '../../lib/api/resources.js';
import { startLocal, type LocalRuntime } from '../../infra/local/start-local.js';
import { silentLogger } from '../../lib/logger.js';
import { createQueueWithDlq, deleteQueues } from './queues.js';
import { contractCheckingWrapper } from './reply-contract.js';
import { engines } from './runtime.js';

export interface OwnLocalRuntime {
  local: LocalRuntime;
  /** Replies that did not match docs/openapi.json (each names the route and the problem); tests expect none. */
  contractViolations: string[];
  stop(): Promise<void>;
}

/**
 * The whole local runtime (HTTP servers, handlers, the real poller and worker) on the suite's
 * engines, but with job queues of the caller's own (one pair per `resources.queues`) so no other test file's jobs reach it.
 */
export async function startLocalWithOwnQueue(prefix: string, options: { dataDir?: string } = {}): Promise<OwnLocalRuntime> {
  const e = engines();
  const sqs = new SQSClient({ region: e.region, endpoint: e.sqsEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const suffix = randomUUID().slice(0, 8);
  const own = await Promise.all(
    resources.queues.map(async (q) => ({
      q,
      pair: await createQueueWithDlq(sqs, `${prefix}-${q.name.replace(/^promo-engine-/, '')}-${suffix}`, { visibilityTimeoutSeconds: 60 }),
    })),
  );
  const queueUrls = Object.fromEntries(
    own.flatMap(({ q, pair }) => [
      [q.name, pair.url],
      [q.deadLetter, pair.dlqUrl],
    ]),
  );
  const contractViolations: string[] = [];
  const local = await startLocal({
    dataDir: options.dataDir ?? null,
    port: 0,
    downloadPort: 0,
    logger: silentLogger,
    logLevel: 'error',
    engines: { ...e, queueUrls },
    wrapHandler: contractCheckingWrapper(contractViolations),
  });
  return {
    local,
    contractViolations,
    stop: async () => {
      await local.stop();
      await deleteQueues(sqs, Object.values(queueUrls));
      sqs.destroy();
    },
  };
}
