import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Config } from '../config.js';
import { defaultConfig } from '../runtime.js';
import type { JobMessage, JobQueue } from './job.js';

/**
 * The jobs queue over SQS. Only the handlers that enqueue import this module, so no other
 * bundle carries the SQS client. `client`: one the caller owns (and destroys), instead of a new one.
 * @throws Error at construction when the configuration names no jobs queue (JOBS_QUEUE_URL).
 */
export function createSqsJobQueue(config: Pick<Config, 'region' | 'jobsQueueUrl' | 'sqsEndpoint'>, client?: SQSClient): JobQueue {
  const queueUrl = config.jobsQueueUrl;
  if (!queueUrl) throw new Error('Invalid configuration: JOBS_QUEUE_URL is required by a function that enqueues jobs');
  const sqs =
    client ??
    new SQSClient({
      region: config.region,
      ...(config.sqsEndpoint ? { endpoint: config.sqsEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
      maxAttempts: 4,
    });
  return {
    send: async (job: JobMessage) => {
      await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(job) }));
    },
  };
}

let containerQueue: JobQueue | undefined;

/** The jobs queue of this container, built from the container's configuration on first use. */
export function defaultJobQueue(): JobQueue {
  containerQueue ??= createSqsJobQueue(defaultConfig());
  return containerQueue;
}

/**
 * The container's queue, built on the first send: a handler that enqueues only on some requests
 * (a bulk add, not a single voucher) needs no queue configuration for the others.
 */
export const containerJobQueue: JobQueue = { send: (job) => defaultJobQueue().send(job) };
