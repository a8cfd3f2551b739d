import { fromEnv } from '@aws-sdk/credential-provider-env';
import { JOBS_QUEUE, type QueueName, queueNamed, queueUrlVariables } from '../api/resources.js';
import { createSqsSender } from '../aws/sqs-send.js';
import type { Config } from '../config.js';
import { defaultConfig } from '../runtime.js';
import { type JobMessage, type JobQueue, queueOfJob } from './job.js';

/** What the local SQS engine takes (it checks no signature). */
const LOCAL_SQS_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/**
 * The job queues over SQS: each message goes on its kind's queue (`jobKinds` in job.ts), sent by the hand-made
 * `SendMessage` of lib/aws/sqs-send.ts rather than the SDK's client (a cold-start cost of every enqueueing handler).
 * Lambda puts the role's credentials in the environment.
 * `queueUrls`: each queue's URL (`jobsQueueUrl` is the jobs queue's, when `queueUrls` lacks it).
 * A send to a queue with no URL throws, naming the variable that is missing: a function enqueues
 * only the kinds its route row's `sendsTo` names, and the stack sets exactly those URLs.
 */
export function createSqsJobQueue(
  config: Pick<Config, 'region' | 'sqsEndpoint'> & { queueUrls?: Partial<Record<QueueName, string>> | undefined; jobsQueueUrl?: string | undefined },
): JobQueue {
  const urls: Partial<Record<QueueName, string>> = { ...(config.jobsQueueUrl ? { [JOBS_QUEUE]: config.jobsQueueUrl } : {}), ...config.queueUrls };
  let send: ReturnType<typeof createSqsSender> | undefined;
  return {
    send: async (job: JobMessage) => {
      const queue = queueOfJob(job);
      const queueUrl = urls[queue];
      if (!queueUrl) {
        throw new Error(`Invalid configuration: ${queueUrlVariables(queueNamed(queue)).queue} is required by a function that enqueues ${job.type} jobs`);
      }
      send ??= createSqsSender({
        region: config.region,
        endpoint: config.sqsEndpoint,
        credentials: config.sqsEndpoint ? LOCAL_SQS_CREDENTIALS : fromEnv(),
        maxAttempts: 4,
      });
      await send(queueUrl, JSON.stringify(job));
    },
  };
}

let containerQueue: JobQueue | undefined;

/** The job queues of this container, built from the container's configuration on first use. */
export function defaultJobQueue(): JobQueue {
  containerQueue ??= createSqsJobQueue(defaultConfig());
  return containerQueue;
}

/**
 * The container's queues, built on the first send: a handler that enqueues only on some requests
 * (a bulk add, not a single voucher) needs no queue configuration for the others.
 */
export const containerJobQueue: JobQueue = { send: (job) => defaultJobQueue().send(job) };
