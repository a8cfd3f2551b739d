import type { JobRunner } from '../jobs/job-worker.js';
import { runExport, runPointsExpirationExport } from './points-expiration-export.js';

/**
 * The `export-points-expiration` job: writes the export's CSV file to `deps.files` (the worker
 * passes the export bucket).
 * @throws Error when the worker was given no file store.
 */
export const runPointsExpirationExportJob: JobRunner<'export-points-expiration'> = async (deps, job) => {
  const { files } = deps;
  if (!files) throw new Error('An export job needs the export file store (Ports.files)');
  return (await runPointsExpirationExport({ ...deps, files }, job.projectId, job.exportId)) !== null;
};

/** The `export` job (POST /v1/exports, any exported object): the same runner. */
export const runExportJob: JobRunner<'export'> = async (deps, job) => {
  const { files } = deps;
  if (!files) throw new Error('An export job needs the export file store (Ports.files)');
  return (await runExport({ ...deps, files }, job.projectId, job.exportId)) !== null;
};
