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
 * engines, but with a jobs queue of the caller's own so no other test file's jobs reach it.
 */
export async function startLocalWithOwnQueue(prefix: string, options: { dataDir?: string } = {}): Promise<OwnLocalRuntime> {
  const e = engines();
  const sqs = new SQSClient({ region: e.region, endpoint: e.sqsEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const queue = await createQueueWithDlq(sqs, `${prefix}-${randomUUID().slice(0, 8)}`, { visibilityTimeoutSeconds: 60 });
  const [jobs] = resources.queues;
  const contractViolations: string[] = [];
  const local = await startLocal({
    dataDir: options.dataDir ?? null,
    port: 0,
    downloadPort: 0,
    logger: silentLogger,
    logLevel: 'error',
    engines: { ...e, queueUrls: { [jobs.name]: queue.url, [jobs.deadLetter]: queue.dlqUrl } },
    wrapHandler: contractCheckingWrapper(contractViolations),
  });
  return {
    local,
    contractViolations,
    stop: async () => {
      await local.stop();
      await deleteQueues(sqs, [queue.url, queue.dlqUrl]);
      sqs.destroy();
    },
  };
}
