import { describe, expect, it } from 'vitest';
import { EXPORT_JOBS_QUEUE, JOBS_QUEUE, queueNamed, resources, WEBHOOKS_QUEUE } from '../../../lib/api/resources.js';
import { createPointsExpirationExportRoute, routes } from '../../../lib/api/routes.js';
import { consumedQueueName, workers } from '../../../lib/api/workers.js';
import { jobClosers } from '../../../lib/jobs/job-closers.js';
import { jobMessageSchema } from '../../../lib/jobs/job-message.schema.js';
import { jobKinds, queueOfJob, subjectOf } from '../../../lib/jobs/job.js';
import { jobMessageOf } from '../../../lib/jobs/open-job.js';

const kinds = Object.keys(jobKinds) as (keyof typeof jobKinds)[];

describe('the job kinds table', () => {
  it('has a row for every message type of the schema, and a closer for each', () => {
    const schemaTypes = jobMessageSchema._zod.def.options.map((o) => String(o._zod.def.shape.type._zod.def.values[0])).sort();
    expect(kinds.slice().sort()).toEqual(schemaTypes);
    expect(Object.keys(jobClosers).sort()).toEqual(schemaTypes);
  });

  it('puts bulk generation on the jobs queue and the export on the export jobs queue', () => {
    expect(queueOfJob({ type: 'generate-vouchers' })).toBe(JOBS_QUEUE);
    expect(queueOfJob({ type: 'export-points-expiration' })).toBe(EXPORT_JOBS_QUEUE);
  });

  it('gives every kind a queue of resources.queues, consumed by exactly one worker, and its dead-letter queue by exactly one', () => {
    for (const type of kinds) {
      const queue = queueNamed(jobKinds[type].queue);
      expect(
        workers.filter((w) => consumedQueueName(w) === queue.name).map((w) => w.name),
        type,
      ).toHaveLength(1);
      expect(
        workers.filter((w) => consumedQueueName(w) === queue.deadLetter).map((w) => w.name),
        type,
      ).toHaveLength(1);
    }
    // No queue without a job kind (but the webhooks queue, which carries deliveries, not jobs): an unused queue pair would be infrastructure nobody sends to.
    expect(resources.queues.filter((q) => q.name !== WEBHOOKS_QUEUE && !kinds.some((t) => jobKinds[t].queue === q.name))).toEqual([]);
  });

  it('names the export jobs queue, not the jobs queue, on the route that schedules exports; generation routes keep the jobs queue', () => {
    expect(createPointsExpirationExportRoute.needs.sendsTo).toEqual([EXPORT_JOBS_QUEUE]);
    for (const route of routes.filter((r) => r.needs.sendsTo.includes(JOBS_QUEUE))) expect(route.operationId).not.toMatch(/export/);
  });

  it("builds each kind's message from an open-job marker through the row's subject field, and logs it under its log field", () => {
    for (const type of kinds) {
      const subjectId = jobKinds[type].subject === 'exportId' ? 'exp_1' : 'aa_1';
      const message = jobMessageOf({
        type,
        projectId: 'p1',
        subjectId,
        createdAt: '2026-01-01T00:00:00.000Z',
      });
      expect(jobMessageSchema.parse(message)).toEqual(message);
      expect(Object.values(subjectOf(message))).toEqual([subjectId]);
      expect(Object.keys(subjectOf(message))).toEqual([jobKinds[type].logField]);
    }
  });
});
