import type { Engines } from './engines.js';
import { localResources } from './resources.js';

export type EngineEndpoints = Omit<Engines, 'stop'>;

/** `promo-engine-jobs` → `JOBS`: the queue's role, as its URL's environment variable names it. */
const roleOf = (queueName: string): string =>
  queueName
    .replace(new RegExp(`^${localResources.tableName}-`), '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toUpperCase();

/** The variable holding a queue's URL for handlers and workers: `JOBS_QUEUE_URL`, `JOBS_DLQ_URL`. */
export function queueUrlVariables(queue: { name: string; deadLetter: string }): { queue: string; deadLetter: string } {
  return { queue: `${roleOf(queue.name)}_QUEUE_URL`, deadLetter: `${roleOf(queue.name)}_DLQ_URL` };
}

/**
 * The environment the Lambda functions get from the stacks, pointed at the local engines:
 * what lib/config.ts reads, plus the S3 and SQS endpoints, the bucket and one URL per queue.
 * The fixed credentials and service endpoints keep a developer's real AWS profile out of reach:
 * nothing the local runtime runs can talk to AWS.
 */
export function handlerEnvironment(engines: EngineEndpoints, logLevel: string): Record<string, string> {
  const env: Record<string, string> = {
    TABLE_NAME: engines.tableName,
    AWS_REGION: engines.region,
    DYNAMODB_ENDPOINT: engines.dynamoEndpoint,
    CLUSTER: 'api',
    LOG_LEVEL: logLevel,
    S3_ENDPOINT: engines.s3Endpoint,
    SQS_ENDPOINT: engines.sqsEndpoint,
    BUCKET_NAME: engines.bucketName,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: engines.dynamoEndpoint,
    AWS_ENDPOINT_URL_S3: engines.s3Endpoint,
    AWS_ENDPOINT_URL_SQS: engines.sqsEndpoint,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  for (const queue of localResources.queues) {
    const names = queueUrlVariables(queue);
    const url = engines.queueUrls[queue.name];
    const dlqUrl = engines.queueUrls[queue.deadLetter];
    if (url) env[names.queue] = url;
    if (dlqUrl) env[names.deadLetter] = dlqUrl;
  }
  return env;
}
