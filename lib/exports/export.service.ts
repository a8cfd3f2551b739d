import { getCampaign } from '../campaigns/campaign.service.js';
import { InvalidCampaignError, NotFoundError, UnauthorizedError } from '../errors.js';
import type { JobQueue } from '../jobs/job.js';
import type { Runtime } from '../runtime.js';
import { EXPORT_ID, type Export, exportObjectKey, parseExportOrder, POINTS_EXPIRATION_FIELDS } from './export.js';
import type { ExportFileLinks } from './export-files.js';
import { normalizeFilters } from './export-filters.js';
import * as repo from './export.repo.js';
import type { CreatePointsExpirationExportBody } from './export.schema.js';
import { mintDownloadToken, readDownloadToken, verifyDownloadToken } from './download-token.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids' | 'logger'>;

/** How long the presigned S3 URL of a download redirect works: enough to start the transfer. */
export const PRESIGNED_URL_SECONDS = 300;

/**
 * POST /v1/loyalties/{campaignId}/points-expiration/export: writes the export SCHEDULED, then
 * enqueues its job. If the queue refuses the job the export is marked ERROR and the error is
 * rethrown (500): no export stays SCHEDULED with no job behind it.
 * @throws NotFoundError (campaign), InvalidCampaignError (not a loyalty program).
 */
export async function createPointsExpirationExport(
  deps: Deps & { jobs: JobQueue },
  projectId: string,
  campaignRef: string,
  body: CreatePointsExpirationExportBody,
): Promise<Export> {
  const campaign = await getCampaign(deps, projectId, campaignRef);
  if (campaign.campaignType !== 'LOYALTY_PROGRAM') {
    throw new InvalidCampaignError(`Points can be exported from LOYALTY_PROGRAM campaigns only; ${campaign.id} is a ${campaign.campaignType} campaign`);
  }
  const now = deps.clock.now().toISOString();
  const id = deps.ids.id('exp');
  const p = body.parameters;
  const record: Export = {
    id,
    projectId,
    exportedObject: 'points_expiration',
    channel: 'API',
    status: 'SCHEDULED',
    parameters: p ?? {},
    campaignId: campaign.id,
    fields: p?.fields ?? [...POINTS_EXPIRATION_FIELDS],
    ...parseExportOrder(p?.order),
    filters: normalizeFilters(p?.filters),
    downloadSecret: deps.ids.secret(),
    objectKey: exportObjectKey(projectId, id),
    rowCount: null,
    failure: null,
    createdAt: now,
    updatedAt: now,
    finishedAt: null,
  };
  await repo.insertExport(deps, record);
  try {
    await deps.jobs.send({ type: 'export-points-expiration', projectId, exportId: id });
  } catch (error) {
    await repo.failExportRecord(deps, projectId, id, 'The export could not be scheduled', deps.clock.now().toISOString());
    throw error;
  }
  return record;
}

/**
 * GET /v1/exports/{exportId}: the export and, once DONE, its download URL on this region's
 * download cluster with a token valid for an hour from now.
 * @throws NotFoundError when the project has no such export.
 */
export async function getExport(
  deps: Deps,
  projectId: string,
  exportId: string,
  downloadBaseUrl: () => string,
): Promise<{ record: Export; url: string | null }> {
  const record = EXPORT_ID.test(exportId) ? await repo.getExport(deps, projectId, exportId) : null;
  if (!record) throw new NotFoundError('export', exportId);
  if (record.status !== 'DONE') return { record, url: null };
  const token = mintDownloadToken(record.downloadSecret, projectId, record.id, deps.clock.now());
  return { record, url: `${downloadBaseUrl()}/v1/exports/${encodeURIComponent(record.id)}?token=${encodeURIComponent(token)}` };
}

/**
 * The download cluster: checks the token (its project, its signature by this export's secret,
 * its expiry) and returns a short-lived presigned URL of the file. Every failure is the same
 * 401, so a caller cannot tell an unknown export from a bad token.
 * @throws UnauthorizedError.
 */
export async function downloadExport(deps: Deps & { files: ExportFileLinks }, exportId: string, token: string): Promise<string> {
  const claims = readDownloadToken(token);
  if (!claims || !EXPORT_ID.test(exportId)) throw new UnauthorizedError('Invalid or expired download token');
  const now = deps.clock.now();
  const record = await repo.getExport(deps, claims.projectId, exportId);
  if (record?.status !== 'DONE' || !verifyDownloadToken(claims, record.downloadSecret, exportId, now)) {
    throw new UnauthorizedError('Invalid or expired download token');
  }
  return deps.files.presignGet(record.objectKey, PRESIGNED_URL_SECONDS, now);
}
