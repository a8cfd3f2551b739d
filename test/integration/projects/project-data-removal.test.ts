import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHandler as makeWorker } from '../../../functions/workers/jobs-worker.js';
import { lambdaContext } from '../../../infra/local/api-gateway-event.js';
import { systemClock } from '../../../lib/clock.js';
import { openJob } from '../../../lib/db/entities.js';
import { closeDeadLetteredJob, deadLetterReason } from '../../../lib/jobs/dead-letter.js';
import type { JobMessage } from '../../../lib/jobs/job.js';
import { openJobKey } from '../../../lib/jobs/open-job.repo.js';
import { resumeOpenJobs } from '../../../lib/jobs/resume-open-jobs.js';
import { getTombstone } from '../../../lib/projects/project-data-removal.js';
import type { Runtime } from '../../../lib/runtime.js';
import { apiClient } from '../../support/api-client.js';
import { RecordingJobQueue } from '../../support/api.js';
import { createOwnTable, type OwnTable } from '../../support/hostile/route-harness.js';
import { managementHeaders, newManagementKey } from '../../support/runtime.js';
import { sqsRecord } from '../../support/sqs-record.js';
import { stoppingAfterTransactions } from '../../support/job-workers.js';

/**
 * DELETE /management/v1/projects/{projectId} removes the project's data with the
 * `remove-project-data` job (lib/projects/project-data-removal.ts): every item of the project's
 * partitions goes, another project's stay, and a run stopped between chunks resumes exactly.
 * On a table of its own, so a Scan sees only this file's items and the reconcile only its markers.
 */

let table: OwnTable;
let runtime: Runtime;

beforeAll(async () => {
  table = await createOwnTable('project-removal');
  runtime = table.runtime({ clock: systemClock });
});

afterAll(async () => {
  await table.drop();
});

type Json = Record<string, unknown>;

async function work(jobs: JobMessage[], options: { stop?: AbortSignal; ddb?: DynamoDBDocumentClient; receives?: number } = {}) {
  const worker = makeWorker({ runtime: { ...runtime, ddb: options.ddb ?? runtime.ddb }, ...(options.stop ? { stop: options.stop } : {}) });
  const records: SQSRecord[] = jobs.map((job) => sqsRecord(JSON.stringify(job), options.receives ?? 1));
  return worker({ Records: records }, lambdaContext('jobs-worker'));
}

/** A project made through the Management API with a few customers and `seeded` more items put directly (volume). */
async function projectWithData(seeded: number) {
  const jobs = new RecordingJobQueue();
  const management = apiClient({ runtime, jobs }, managementHeaders(await newManagementKey(runtime)));
  const created = (await management.call('create-project', { json: { name: 'P', case_sensitive_codes: true, timezone: 'UTC', currency: 'USD' } })).json;
  const projectId = created.id as string;
  const key = created.server_side_key as Json;
  const api = apiClient({ runtime, jobs }, { 'x-app-id': key.app_id as string, 'x-app-token': key.app_token as string });
  for (const n of [1, 2, 3]) expect((await api.call('create-customer', { json: { source_id: `c${n}`, email: `c${n}@shop.example` } })).status).toBe(200);
  for (let i = 0; i < seeded; i += 25) {
    const puts = Array.from({ length: Math.min(25, seeded - i) }, (_, k) => ({
      PutRequest: { Item: { PK: `P#${projectId}#SEEDED#${i + k}`, SK: 'SEEDED', entity: 'seeded', v: 1, projectId } },
    }));
    await runtime.ddb.send(new BatchWriteCommand({ RequestItems: { [runtime.tableName]: puts } }));
  }
  return { projectId, management, jobs };
}

const deleted = async (p: Awaited<ReturnType<typeof projectWithData>>) => {
  expect((await p.management.call('delete-project', { params: { projectId: p.projectId } })).status).toBe(204);
  expect(p.jobs.sent).toEqual([{ type: 'remove-project-data', projectId: p.projectId }]);
  return p.jobs.sent.splice(0) as JobMessage[];
};

/** The project's items other than its tombstone and its removal's open-job marker (the job's subject and bookkeeping). */
const leftovers = async (projectId: string) =>
  (await table.snapshot(projectId)).filter((i) => !i.includes('"SK":"PROJECT_DELETED"') && !i.includes('"entity":"open_job"'));

describe("removing a deleted project's data", () => {
  it('removes every item of the project, counts them, ends DONE with its marker gone, and leaves another project untouched', async () => {
    const doomed = await projectWithData(620);
    const other = await projectWithData(40);
    const otherBefore = await table.snapshot(other.projectId);
    const jobs = await deleted(doomed);
    // What the delete left (its keys and project item went with the 204): the job's to remove.
    const before = (await leftovers(doomed.projectId)).length;
    expect(before).toBeGreaterThan(620);
    expect(await openJob.get(runtime, openJobKey(doomed.projectId, doomed.projectId))).not.toBeNull();
    await work(jobs);
    expect(await leftovers(doomed.projectId)).toEqual([]);
    expect(await getTombstone(runtime, doomed.projectId)).toMatchObject({ status: 'DONE', counts: { removed: before } });
    expect(await openJob.get(runtime, openJobKey(doomed.projectId, doomed.projectId))).toBeNull();
    expect(await table.snapshot(other.projectId)).toEqual(otherBefore);
  });

  it('stopped between chunks it stays IN_PROGRESS at its checkpoint; the start-up reconcile resumes it and it removes and counts each item once', async () => {
    const doomed = await projectWithData(700);
    const [job] = await deleted(doomed);
    const before = (await leftovers(doomed.projectId)).length;
    const stop = new AbortController();
    // The last delivery: a failure would mark the removal FAILED, a stop must not.
    const reply = await work([job as JobMessage], { stop: stop.signal, ddb: stoppingAfterTransactions(runtime.ddb, stop, 3), receives: 3 });
    expect(reply.batchItemFailures).toHaveLength(1);
    const stopped = await getTombstone(runtime, doomed.projectId);
    expect(stopped?.status).toBe('IN_PROGRESS');
    const removed = stopped?.counts?.removed ?? 0;
    expect(removed).toBeGreaterThan(0);
    expect(removed).toBeLessThan(before);
    expect(await leftovers(doomed.projectId)).toHaveLength(before - removed);

    const queue = new RecordingJobQueue();
    await resumeOpenJobs(runtime, queue);
    const resumed = queue.sent.filter((j) => j.type === 'remove-project-data' && j.projectId === doomed.projectId);
    expect(resumed).toEqual([{ type: 'remove-project-data', projectId: doomed.projectId }]);
    // Two deliveries of the resumed job at once: still each item removed and counted once.
    await Promise.all([work(resumed), work(resumed)]);
    expect(await getTombstone(runtime, doomed.projectId)).toMatchObject({ status: 'DONE', counts: { removed: before } });
    expect(await leftovers(doomed.projectId)).toEqual([]);
  });

  it('a dead-lettered removal ends FAILED with the reason, and deleting the project again answers 404 without reopening it', async () => {
    const doomed = await projectWithData(5);
    const [job] = await deleted(doomed);
    expect(await closeDeadLetteredJob(runtime, sqsRecord(JSON.stringify(job), 3), 3)).toBe('closed');
    expect(await getTombstone(runtime, doomed.projectId)).toMatchObject({ status: 'FAILED', failure: deadLetterReason(3) });
    expect(await openJob.get(runtime, openJobKey(doomed.projectId, doomed.projectId))).toBeNull();
    expect((await doomed.management.call('delete-project', { params: { projectId: doomed.projectId } })).status).toBe(404);
    expect(doomed.jobs.sent).toEqual([]);
  });
});
