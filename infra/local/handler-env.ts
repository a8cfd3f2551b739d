import type { Engines } from './engines.js';
import { queueUrlVariables, resources } from '../../lib/api/resources.js';

export type EngineEndpoints = Omit<Engines, 'stop'>;

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
    // Webhooks to a receiver on this machine (http://127.0.0.1:…) are how a developer tests them.
    WEBHOOK_TARGETS: 'local',
  };
  for (const queue of resources.queues) {
    const names = queueUrlVariables(queue);
    const url = engines.queueUrls[queue.name];
    const dlqUrl = engines.queueUrls[queue.deadLetter];
    if (url) env[names.queue] = url;
    if (dlqUrl) env[names.deadLetter] = dlqUrl;
  }
  return env;
}
