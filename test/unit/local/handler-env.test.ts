import { describe, expect, it } from 'vitest';
import { handlerEnvironment } from '../../../infra/local/handler-env.js';
import { queueUrlVariables } from '../../../lib/api/resources.js';
import { resources } from '../../../lib/api/resources.js';
import { loadConfig } from '../../../lib/config.js';

const engines = {
  dynamoEndpoint: 'http://127.0.0.1:1001',
  s3Endpoint: 'http://127.0.0.1:1002',
  sqsEndpoint: 'http://127.0.0.1:1003',
  region: 'eu-central-1',
  tableName: 'promo-engine',
  bucketName: 'promo-engine-exports',
  queueUrls: {
    'promo-engine-jobs': 'http://q/jobs',
    'promo-engine-jobs-dlq': 'http://q/jobs-dlq',
    'promo-engine-export-jobs': 'http://q/export-jobs',
    'promo-engine-export-jobs-dlq': 'http://q/export-jobs-dlq',
    'promo-engine-webhooks': 'http://q/webhooks',
    'promo-engine-webhooks-dlq': 'http://q/webhooks-dlq',
  },
};

describe('handler environment of the local runtime', () => {
  it('names queue URL variables after the queue role', () => {
    expect(queueUrlVariables({ name: 'promo-engine-jobs', deadLetter: 'promo-engine-jobs-dlq' })).toEqual({
      queue: 'JOBS_QUEUE_URL',
      deadLetter: 'JOBS_DLQ_URL',
    });
  });

  it('gives handlers what lib/config.ts reads, pointed at the local engines', () => {
    const env = handlerEnvironment(engines, 'warn');
    expect(loadConfig(env)).toEqual({
      tableName: 'promo-engine',
      region: 'eu-central-1',
      dynamoDbEndpoint: 'http://127.0.0.1:1001',
      cluster: 'api',
      logLevel: 'warn',
      // One URL per job queue: each job kind goes on its own lane's queue (lib/jobs/job.ts).
      queueUrls: { 'promo-engine-jobs': 'http://q/jobs', 'promo-engine-export-jobs': 'http://q/export-jobs', 'promo-engine-webhooks': 'http://q/webhooks' },
      sqsEndpoint: 'http://127.0.0.1:1003',
      bucketName: 'promo-engine-exports',
      s3Endpoint: 'http://127.0.0.1:1002',
      // The download cluster's URL is known only once its server listens: start-local sets it then.
      downloadBaseUrl: undefined,
      // No RATE_LIMIT_* variables locally: the generous default applies (6,000 requests a minute per project).
      rateLimit: { limit: 6000, windowSeconds: 60 },
      // Webhooks to receivers on this machine; the delivery worker dead-letters a delivery past its bound itself.
      webhookTargets: 'local',
      webhooksDeadLetterUrl: 'http://q/webhooks-dlq',
    });
  });

  it('adds the S3 and SQS endpoints, the bucket, every queue URL and local-only credentials', () => {
    const env = handlerEnvironment(engines, 'info');
    expect(env).toMatchObject({
      S3_ENDPOINT: 'http://127.0.0.1:1002',
      SQS_ENDPOINT: 'http://127.0.0.1:1003',
      BUCKET_NAME: 'promo-engine-exports',
      JOBS_QUEUE_URL: 'http://q/jobs',
      JOBS_DLQ_URL: 'http://q/jobs-dlq',
      EXPORT_JOBS_QUEUE_URL: 'http://q/export-jobs',
      EXPORT_JOBS_DLQ_URL: 'http://q/export-jobs-dlq',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_ENDPOINT_URL_SQS: 'http://127.0.0.1:1003',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    });
    for (const queue of resources.queues) expect(env[queueUrlVariables(queue).queue]).toBeDefined();
  });
});
