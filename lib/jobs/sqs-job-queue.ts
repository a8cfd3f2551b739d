import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { JOBS_QUEUE, type QueueName, queueNamed, queueUrlVariables } from '../api/resources.js';
import type { Config } from '../config.js';
import { defaultConfig } from '../runtime.js';
import { type JobMessage, type JobQueue, queueOfJob } from './job.js';

/**
 * The job queues over SQS: each message goes on its kind's queue (`jobKinds` in job.ts). Only the
 * handlers that enqueue import this module, so no other bundle carries the SQS client.
 * `queueUrls`: each queue's URL (`jobsQueueUrl` is the jobs queue's, when `queueUrls` lacks it).
 * `client`: one the caller owns (and destroys), instead of a new one.
 * A send to a queue with no URL throws, naming the variable that is missing: a function enqueues
 * only the kinds its route row's `sendsTo` names, and the stack sets exactly those URLs.
 */
export function createSqsJobQueue(
  config: Pick<Config, 'region' | 'sqsEndpoint'> & { queueUrls?: Partial<Record<QueueName, string>> | undefined; jobsQueueUrl?: string | undefined },
  client?: SQSClient,
): JobQueue {
  const urls: Partial<Record<QueueName, string>> = { ...(config.jobsQueueUrl ? { [JOBS_QUEUE]: config.jobsQueueUrl } : {}), ...config.queueUrls };
  let sqs = client;
  return {
    send: async (job: JobMessage) => {
      const queue = queueOfJob(job);
      const queueUrl = urls[queue];
      if (!queueUrl) {
        throw new Error(`Invalid configuration: ${queueUrlVariables(queueNamed(queue)).queue} is required by a function that enqueues ${job.type} jobs`);
      }
      sqs ??= new SQSClient({
        region: config.region,
        ...(config.sqsEndpoint ? { endpoint: config.sqsEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
        maxAttempts: 4,
      });
      await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(job) }));
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
