import type { JobRunner } from '../jobs/job-worker.js';
import { runVoucherGeneration } from './bulk-generation.js';

/** The `generate-vouchers` job: a bulk generation, resumed from its checkpoint (lib/vouchers/bulk-generation.ts). */
export const runGenerateVouchersJob: JobRunner<'generate-vouchers'> = async (deps, job) =>
  (await runVoucherGeneration(deps, job.projectId, job.asyncActionId)) !== null;
