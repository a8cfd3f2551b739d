import { authenticateLinkKey, authenticateProjectLink } from '../auth/authenticate.js';
import type { Principal } from '../auth/principal.js';
import { loadCampaign } from '../campaigns/campaign.service.js';
import { InvalidCampaignError, InvalidPayloadError, NotFoundError, UnauthorizedError } from '../errors.js';
import type { JobQueue } from '../jobs/job.js';
import type { Runtime } from '../runtime.js';
import { EXPORT_ID, type Export, type ExportedObject, type ExportFilters, exportObjectKey, parseExportOrder, POINTS_EXPIRATION_FIELDS } from './export.js';
import type { ExportFileReader, ExportFiles } from './export-files.js';
import { normalizeFilters, normalizeObjectFilters } from './export-filters.js';
import * as repo from './export.repo.js';
import type { CreateExportBody, CreatePointsExpirationExportBody, ListExportsQuery } from './export.schema.js';
import { EXPORTERS, parseOrder } from './exporters.js';
import { mintDownloadToken, readDownloadToken, verifyDownloadToken } from './download-token.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids' | 'logger'>;

/** How long the presigned S3 URL of a download redirect works: enough to start the transfer. */
export const PRESIGNED_URL_SECONDS = 300;

/**
 * Largest file the download cluster sends in its own reply, measured as the reply carries it.
 * Lambda's synchronous response payload is capped at 6 MB (6,291,456 bytes) for the whole
 * serialized result: status, headers and the body as a JSON string, in which every `"` and line
 * break of the CSV is escaped (`\r\n` takes 4 bytes). 5 MiB of escaped body leaves 1 MiB for the
 * rest (the headers are under 1 KiB). The body is UTF-8 text, never base64 (which would cost a third
 * more). API Gateway's HTTP API allows 10 MB, so Lambda's limit is the one that binds. A larger
 * file is a 302 to a presigned URL.
 */
export const INLINE_DOWNLOAD_MAX_BYTES = 5 * 1024 * 1024;

const BAD_LINK = 'Invalid or expired download token';

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
  createdByAppId: string,
): Promise<Export> {
  const campaign = await loadCampaign(deps, projectId, campaignRef);
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
    voucherId: null,
    // No fields named (absent, or an empty list: the reference sets no minimum) = every field.
    fields: p?.fields?.length ? p.fields : [...POINTS_EXPIRATION_FIELDS],
    ...parseExportOrder(p?.order),
    filters: normalizeFilters(p?.filters),
    createdByAppId,
    downloadSecret: deps.ids.secret(),
    objectKey: exportObjectKey(projectId, id),
    rowCount: null,
    failure: null,
    createdAt: now,
    updatedAt: now,
    finishedAt: null,
  };
  await repo.insertExport(deps, record, 'export-points-expiration');
  await enqueue(deps, record, 'export-points-expiration');
  return record;
}

/** Sends the export's job; if the queue refuses it the export is marked ERROR and the error rethrown (500). */
async function enqueue(deps: Deps & { jobs: JobQueue }, record: Export, type: 'export' | 'export-points-expiration'): Promise<void> {
  try {
    await deps.jobs.send({ type, projectId: record.projectId, exportId: record.id });
  } catch (error) {
    await repo.failExportRecord(deps, record.projectId, record.id, 'The export could not be scheduled', deps.clock.now().toISOString());
    throw error;
  }
}

/**
 * The one campaign of a points_expiration export of POST /v1/exports: its `campaign_id` filter's
 * `$is`, or `$in` of one campaign, under `and` (the buckets are stored per campaign).
 * @throws InvalidPayloadError naming what is missing; NotFoundError / InvalidCampaignError (the campaign).
 */
async function pointsCampaign(deps: Deps, projectId: string, filters: ExportFilters): Promise<string> {
  const c = filters.conditions.campaign_id;
  const ref = c?.$is ?? (c?.$in?.length === 1 ? c.$in[0] : undefined);
  if (ref === undefined || (filters.junction === 'or' && Object.keys(filters.conditions).length > 1)) {
    throw new InvalidPayloadError(
      'A points_expiration export reads one loyalty campaign: give parameters.filters.campaign_id.conditions.$is (or $in with one campaign id), joined with junction "and"',
    );
  }
  const campaign = await loadCampaign(deps, projectId, ref);
  if (campaign.campaignType !== 'LOYALTY_PROGRAM') {
    throw new InvalidCampaignError(`Points can be exported from LOYALTY_PROGRAM campaigns only; ${campaign.id} is a ${campaign.campaignType} campaign`);
  }
  return campaign.id;
}

/**
 * POST /v1/exports: writes the export SCHEDULED with its effective columns (the request's, or the
 * object's default fields), order and filters, then enqueues its `export` job (the worker reads
 * the rows: export-sources.ts).
 * @throws InvalidPayloadError, NotFoundError, InvalidCampaignError (a points_expiration export's campaign).
 */
export async function createExport(deps: Deps & { jobs: JobQueue }, projectId: string, body: CreateExportBody, createdByAppId: string): Promise<Export> {
  const object = body.exported_object;
  const p = (body.parameters ?? {}) as ExportParametersInput & { campaign_id?: string };
  const filters = normalizeObjectFilters(p.filters);
  let campaignId: string | null = null;
  if (object === 'points_expiration') campaignId = await pointsCampaign(deps, projectId, filters);
  if (object === 'voucher' && p.campaign_id !== undefined) campaignId = (await loadCampaign(deps, projectId, p.campaign_id)).id;
  return scheduleExport(deps, projectId, object, p, { campaignId, voucherId: null, echo: body.parameters ?? {} }, createdByAppId);
}

/** The `parameters` of an export request, as its schema parsed them (export.schema.ts). */
export interface ExportParametersInput {
  fields?: string[];
  order?: string;
  filters?: Record<string, unknown>;
}

/**
 * Writes an export of `object` SCHEDULED with its effective columns (the request's, or the
 * object's default fields), order and filters, bounded by `scope` (a campaign, a voucher: not
 * filters, so no junction widens them), then enqueues its `export` job. `scope.echo` is what the
 * reply shows as `parameters`.
 */
export async function scheduleExport(
  deps: Deps & { jobs: JobQueue },
  projectId: string,
  object: ExportedObject,
  p: ExportParametersInput,
  scope: { campaignId: string | null; voucherId: string | null; echo: Record<string, unknown> },
  createdByAppId: string,
): Promise<Export> {
  const spec = EXPORTERS[object];
  const now = deps.clock.now().toISOString();
  const id = deps.ids.id('exp');
  const record: Export = {
    id,
    projectId,
    exportedObject: object,
    channel: 'API',
    status: 'SCHEDULED',
    parameters: scope.echo,
    campaignId: scope.campaignId,
    voucherId: scope.voucherId,
    fields: p.fields?.length ? p.fields : [...spec.defaultFields],
    ...parseOrder(p.order ?? spec.defaultOrder),
    filters: normalizeObjectFilters(p.filters),
    createdByAppId,
    downloadSecret: deps.ids.secret(),
    objectKey: exportObjectKey(projectId, id),
    rowCount: null,
    failure: null,
    createdAt: now,
    updatedAt: now,
    finishedAt: null,
  };
  await repo.insertExport(deps, record, 'export');
  await enqueue(deps, record, 'export');
  return record;
}

/** The download URL of a DONE export, with a token valid for an hour from now; null before. */
function downloadUrlOf(deps: Deps, record: Export, downloadBaseUrl: () => string): string | null {
  if (record.status !== 'DONE') return null;
  const token = mintDownloadToken(record.downloadSecret, record.projectId, record.id, deps.clock.now());
  return `${downloadBaseUrl()}/v1/exports/${encodeURIComponent(record.id)}?token=${encodeURIComponent(token)}`;
}

/**
 * GET /v1/exports: a page of the project's exports by creation (newest first unless
 * `order=created_at`), each DONE one with its download URL, and how many there are.
 */
export async function listExports(
  deps: Deps,
  projectId: string,
  query: ListExportsQuery,
  downloadBaseUrl: () => string,
): Promise<{ items: Array<{ record: Export; url: string | null }>; total: number }> {
  const [page, total] = await Promise.all([
    repo.listExports(deps, projectId, { skip: (query.page - 1) * query.limit, take: query.limit, ascending: query.order === 'created_at' }),
    repo.countExports(deps, projectId),
  ]);
  return { items: page.items.map((record) => ({ record, url: downloadUrlOf(deps, record, downloadBaseUrl) })), total };
}

/**
 * DELETE /v1/exports/{exportId}: removes the export's file, then the export. Its download links stop
 * working with the item (a link is verified against the export's own secret, now gone). The file
 * goes first so that a failure between the two leaves an export a retried DELETE still finds and
 * finishes (deleting a missing file succeeds), never an orphaned file. An export still running is
 * deleted too: its worker, finding it gone when it finishes, deletes the file it wrote.
 * @throws NotFoundError when the project has no such export.
 */
export async function deleteExport(deps: Deps & { files: Pick<ExportFiles, 'delete'> }, projectId: string, exportId: string): Promise<void> {
  const record = EXPORT_ID.test(exportId) ? await repo.getExport(deps, projectId, exportId) : null;
  if (!record) throw new NotFoundError('export', exportId);
  await deps.files.delete(record.objectKey);
  if (!(await repo.deleteExportRecord(deps, projectId, exportId))) throw new NotFoundError('export', exportId);
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
  return { record, url: downloadUrlOf(deps, record, downloadBaseUrl) };
}

/**
 * The download cluster's signed link (`token` of `result.url`), presented in place of credentials:
 * its project, its signature by this export's secret and its expiry, then the key that created the
 * export as if it presented itself (active, IP allow-list). An export stored before its creator was
 * recorded is downloadable by link only from an address every key of its project admits. Every
 * failure of the link itself is the same 401, so a caller cannot tell an unknown export from a bad token.
 * @throws UnauthorizedError, ForbiddenError (the key's IP allow-list).
 */
export async function verifyDownloadLink(
  deps: Deps & Pick<Runtime, 'appKeyCache'>,
  exportId: string,
  token: string,
  sourceIp: string | undefined,
): Promise<Principal> {
  const claims = readDownloadToken(token);
  if (!claims || !EXPORT_ID.test(exportId)) throw new UnauthorizedError(BAD_LINK);
  const record = await repo.getExport(deps, claims.projectId, exportId);
  if (record?.status !== 'DONE' || !verifyDownloadToken(claims, record.downloadSecret, exportId, deps.clock.now())) {
    throw new UnauthorizedError(BAD_LINK);
  }
  return record.createdByAppId
    ? authenticateLinkKey(deps, claims.projectId, record.createdByAppId, sourceIp)
    : authenticateProjectLink(deps, claims.projectId, sourceIp);
}

/** A download: the file itself, or where to fetch it when it is too large for a reply. */
export type ExportDownload = { kind: 'file'; text: string; fileName: string } | { kind: 'redirect'; location: string };

/**
 * GET /v1/exports/{exportId} on the download cluster, for a caller of `projectId` (credentials or a
 * verified link): the CSV when the reply can carry it (`inlineMaxBytes`, see INLINE_DOWNLOAD_MAX_BYTES),
 * else a presigned URL of it valid for PRESIGNED_URL_SECONDS.
 * @throws NotFoundError when the project has no such export, or it has no file yet (not DONE).
 */
export async function downloadExport(
  deps: Deps & { files: ExportFileReader },
  projectId: string,
  exportId: string,
  inlineMaxBytes: number = INLINE_DOWNLOAD_MAX_BYTES,
): Promise<ExportDownload> {
  const record = EXPORT_ID.test(exportId) ? await repo.getExport(deps, projectId, exportId) : null;
  if (!record) throw new NotFoundError('export', exportId);
  if (record.status !== 'DONE') {
    throw new NotFoundError('export', exportId, `Export ${exportId} has no file yet: its status is ${record.status}, and its file exists once it is DONE`);
  }
  if (record.fileErasedAt) {
    throw new NotFoundError('export', exportId, `Export ${exportId} has no file any more: a customer's permanent deletion deleted it`);
  }
  const bytes = await deps.files.readUpTo(record.objectKey, inlineMaxBytes);
  // The bucket's lifecycle rule removes files the export item outlives: the file is gone, not the server broken.
  if (bytes === 'missing') throw new NotFoundError('export', exportId, `Export ${exportId} has no file any more: export files are kept for a limited time`);
  if (bytes) {
    const text = bytes.toString('utf8');
    // What the reply carries is the JSON-escaped text, so that is what must fit.
    if (Buffer.byteLength(JSON.stringify(text)) <= inlineMaxBytes) return { kind: 'file', text, fileName: `${record.id}.csv` };
  }
  return { kind: 'redirect', location: await deps.files.presignGet(record.objectKey, PRESIGNED_URL_SECONDS, deps.clock.now()) };
}
