import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { makeHandler as makeExportJobsWorker } from '../../functions/workers/export-jobs-worker.js';
import { makeHandler as makeJobsWorker } from '../../functions/workers/jobs-worker.js';
import { EXPORT_JOBS_QUEUE, JOBS_QUEUE, type QueueName } from '../../lib/api/resources.js';
import type { Ports } from '../../lib/http/endpoint.js';
import { jobKinds } from '../../lib/jobs/job.js';
import { parseJobBody } from '../../lib/jobs/job-message.schema.js';

/** The queue a record's message would have been sent to (by its `type`); a message of no known kind goes to the jobs queue. */
export function queueOfRecord(record: SQSRecord): QueueName {
  const body = parseJobBody(record.body);
  const type = typeof body === 'object' && body !== null && 'type' in body ? String(body.type) : '';
  return type in jobKinds ? jobKinds[type as keyof typeof jobKinds].queue : JOBS_QUEUE;
}

/**
 * Every job worker behind one handler, for tests that deliver jobs by hand: each record goes to
 * the worker of its kind's queue (as the enqueue side and the event sources route them in AWS),
 * one invocation per queue, and their batch failures are merged.
 */
export function makeJobWorkers(ports: Ports = {}): (event: SQSEvent, context: Context) => Promise<SQSBatchResponse> {
  const workers = { [JOBS_QUEUE]: makeJobsWorker(ports), [EXPORT_JOBS_QUEUE]: makeExportJobsWorker(ports) } as const;
  return async (event, context) => {
    const failures: SQSBatchResponse['batchItemFailures'] = [];
    for (const queue of [JOBS_QUEUE, EXPORT_JOBS_QUEUE] as const) {
      const Records = event.Records.filter((r) => queueOfRecord(r) === queue);
      if (Records.length > 0) failures.push(...(await workers[queue]({ Records }, context)).batchItemFailures);
    }
    return { batchItemFailures: failures };
  };
}

/**
 * `ddb`, aborting `controller` once its `after`-th TransactWriteItems has committed: a job stopped
 * (Ctrl-C, or a crash) between two of its checkpointed chunks.
 */
export function stoppingAfterTransactions(ddb: DynamoDBDocumentClient, controller: AbortController, after: number): DynamoDBDocumentClient {
  let count = 0;
  return new Proxy(ddb, {
    get(target, prop, receiver) {
      if (prop !== 'send') return Reflect.get(target, prop, receiver) as unknown;
      return async (command: { constructor: { name: string } }) => {
        const result = await (target.send as (c: unknown) => Promise<unknown>)(command);
        if (command.constructor.name === 'TransactWriteCommand' && ++count === after) controller.abort();
        return result;
      };
    },
  });
}
