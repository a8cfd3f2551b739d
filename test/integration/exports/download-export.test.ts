import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppKey, deleteAppKey, type IssuedKeyPair, setKeyIpAllowList, setKeyPermissions, setKeyStatus } from '../../../lib/app-keys/app-key.service.js';
import { ManualClock, systemClock } from '../../../lib/clock.js';
import { exportRecord } from '../../../lib/db/entities.js';
import { exportObjectKey } from '../../../lib/exports/export.js';
import { INLINE_DOWNLOAD_MAX_BYTES } from '../../../lib/exports/export.service.js';
import type { ExportFiles } from '../../../lib/exports/export-files.js';
import { runPointsExpirationExport } from '../../../lib/exports/points-expiration-export.js';
import { createS3ExportFiles } from '../../../lib/exports/s3-export-files.js';
import { createS3Presigner } from '../../../lib/exports/s3-presigner.js';
import type { PointsBucket } from '../../../lib/loyalties/points-bucket.js';
import { bucketItem } from '../../../lib/loyalties/points-bucket.repo.js';
import type { Runtime } from '../../../lib/runtime.js';
import { apiClient } from '../../support/api-client.js';
import { campaignBodies, RecordingJobQueue } from '../../support/api.js';
import type { Reply } from '../../support/invoke.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../../support/local-runtime.js';
import { engines, keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const DOWNLOAD_BASE = 'http://download.test';
const INSIDE = '203.0.113.7';
const OUTSIDE = '198.51.100.1';

let s3: S3Client;
let files: ExportFiles;

beforeAll(() => {
  const e = engines();
  s3 = new S3Client({ region: e.region, endpoint: e.s3Endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  files = createS3ExportFiles({ region: e.region, bucketName: e.bucketName, s3Endpoint: e.s3Endpoint });
});

afterAll(() => {
  s3.destroy();
});

/** Every operation on `runtime`, the download route's reply bound lowered to `inlineBytes` when given. */
function client(runtime: Runtime, inlineBytes?: number) {
  const e = engines();
  return apiClient({
    runtime,
    jobs: new RecordingJobQueue(),
    links: createS3Presigner({ region: e.region, bucketName: e.bucketName, s3Endpoint: e.s3Endpoint }),
    downloadBaseUrl: () => DOWNLOAD_BASE,
    ...(inlineBytes !== undefined ? { inlineDownloadMaxBytes: inlineBytes } : {}),
  });
}
type Client = ReturnType<typeof client>;

/** The bytes of an export file as stored (the truth a download must reproduce). */
async function stored(projectId: string, exportId: string): Promise<string> {
  const got = await s3.send(new GetObjectCommand({ Bucket: engines().bucketName, Key: exportObjectKey(projectId, exportId) }));
  return (await got.Body?.transformToString('utf8')) ?? '';
}

async function seedBuckets(runtime: Runtime, projectId: string, campaignId: string, count: number): Promise<void> {
  const buckets: PointsBucket[] = Array.from({ length: count }, (_, i) => ({
    id: `lopb_${String(i).padStart(6, '0')}`,
    projectId,
    campaignId,
    voucherId: `v_card${i % 7}`,
    points: 10 + i,
    status: 'ACTIVE',
    expiresAt: i % 5 === 0 ? null : `2030-0${1 + (i % 9)}-15`,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  }));
  for (let i = 0; i < buckets.length; i += 25) {
    const items = buckets.slice(i, i + 25).map((b) => ({ PutRequest: { Item: bucketItem(b) } }));
    await runtime.ddb.send(new BatchWriteCommand({ RequestItems: { [runtime.tableName]: items as never } }));
  }
}

interface MadeExport {
  id: string;
  url: URL;
  token: string;
  csv: string;
}

/** A DONE export of `rows` buckets, created with `headers` (whose key is then its creator) and run by the real worker code. */
async function doneExport(runtime: Runtime, api: Client, pair: IssuedKeyPair, headers: Record<string, string>, rows = 30): Promise<MadeExport> {
  const campaign = await api.call('create-campaign', { json: campaignBodies.LOYALTY_PROGRAM(`Club ${Math.random()}`), headers: keyPairHeaders(pair) });
  expect(campaign.status).toBe(200);
  await seedBuckets(runtime, pair.project_id, campaign.json.id as string, rows);
  const created = await api.call('create-points-expiration-export', { params: { campaignId: campaign.json.id as string }, json: {}, headers });
  expect(created.status).toBe(200);
  const id = created.json.id as string;
  expect((await runPointsExpirationExport({ ...runtime, files }, pair.project_id, id))?.status).toBe('DONE');
  const got = await api.call('get-export', { params: { exportId: id }, headers: keyPairHeaders(pair) });
  const url = new URL((got.json.result as { url: string }).url);
  return { id, url, token: url.searchParams.get('token') ?? '', csv: await stored(pair.project_id, id) };
}

const download = (api: Client, id: string, options: { token?: string; headers?: Record<string, string>; sourceIp?: string } = {}): Promise<Reply> =>
  api.call('download-export', {
    params: { exportId: id },
    query: options.token === undefined ? '' : `token=${encodeURIComponent(options.token)}`,
    headers: options.headers ?? {},
    ...(options.sourceIp ? { sourceIp: options.sourceIp } : {}),
  });

async function bearer(api: Client, pair: IssuedKeyPair, scope: string): Promise<Record<string, string>> {
  const reply = await api.call('generate-oauth-token', { form: { grant_type: 'client_credentials', scope }, headers: keyPairHeaders(pair) });
  expect(reply.status).toBe(200);
  return { authorization: `Bearer ${reply.json.access_token as string}` };
}

const errorOf = (reply: Reply) => ({
  status: reply.status,
  code: reply.json.code,
  key: reply.json.key,
  message: reply.json.message,
  details: reply.json.details,
});

describe('download-export: the file in the reply, or a redirect above the bound', () => {
  it('serves a small file as 200 text/csv with exactly its bytes, to the signed link, the key pair and a bearer token with exports or api', async () => {
    const runtime = testRuntime({ clock: systemClock });
    const api = client(runtime);
    const pair = await newProject(runtime);
    const made = await doneExport(runtime, api, pair, keyPairHeaders(pair));
    expect(made.csv.split('\r\n')).toHaveLength(32);
    const ways: Array<[string, Parameters<typeof download>[2]]> = [
      ['link', { token: made.token }],
      ['key pair', { headers: keyPairHeaders(pair) }],
      ['exports token', { headers: await bearer(api, pair, 'exports') }],
      ['api token', { headers: await bearer(api, pair, 'api') }],
      // Credentials decide when both are sent; the link is then not looked at.
      ['key pair and a bad link', { headers: keyPairHeaders(pair), token: 'nonsense' }],
    ];
    for (const [way, options] of ways) {
      const reply = await download(api, made.id, options);
      expect(reply.status, way).toBe(200);
      expect(reply.headers['Content-Type'], way).toBe('text/csv; charset=utf-8');
      expect(reply.headers['Content-Disposition'], way).toBe(`attachment; filename="${made.id}.csv"`);
      expect(reply.headers.Location, way).toBeUndefined();
      expect(reply.text, way).toBe(made.csv);
    }
    expect(INLINE_DOWNLOAD_MAX_BYTES).toBe(5 * 1024 * 1024);
  });

  it('answers 404 with the error object, not a 500, when the file is gone and the export item is not (the bucket lifecycle rule)', async () => {
    const runtime = testRuntime({ clock: systemClock });
    const api = client(runtime);
    const pair = await newProject(runtime);
    const made = await doneExport(runtime, api, pair, keyPairHeaders(pair));
    await s3.send(new DeleteObjectCommand({ Bucket: engines().bucketName, Key: exportObjectKey(pair.project_id, made.id) }));
    for (const options of [{ token: made.token }, { headers: keyPairHeaders(pair) }]) {
      const reply = await download(api, made.id, options);
      expect(errorOf(reply)).toEqual({
        status: 404,
        code: 404,
        key: 'not_found',
        message: 'Resource not found',
        details: `Export ${made.id} has no file any more: export files are kept for a limited time`,
      });
    }
  });

  it('redirects a file above the bound with 302 to a presigned URL valid 5 minutes that serves the same bytes, and measures the bound on the escaped reply', async () => {
    const runtime = testRuntime({ clock: systemClock });
    const pair = await newProject(runtime);
    const made = await doneExport(runtime, client(runtime), pair, keyPairHeaders(pair));
    const bytes = Buffer.byteLength(made.csv);
    const escaped = Buffer.byteLength(JSON.stringify(made.csv));
    expect(escaped).toBeGreaterThan(bytes + 60);

    for (const bound of [100, bytes, escaped - 1]) {
      const reply = await download(client(runtime, bound), made.id, { token: made.token });
      expect(reply.status, String(bound)).toBe(302);
      expect(reply.text).toBe('');
      const location = reply.headers.Location ?? '';
      expect(location.startsWith(engines().s3Endpoint)).toBe(true);
      expect(location).toContain('X-Amz-Signature=');
      expect(location).toContain('X-Amz-Expires=300');
      const file = await fetch(location, { redirect: 'manual' });
      expect(file.status).toBe(200);
      expect(await file.text()).toBe(made.csv);
    }
    // A raw size under the bound is not enough: what the reply carries is the JSON-escaped text.
    const exact = await download(client(runtime, escaped), made.id, { headers: keyPairHeaders(pair) });
    expect(exact.status).toBe(200);
    expect(exact.text).toBe(made.csv);
  });

  it('answers as the API cluster does: 401 for a wrong key pair or token, 403 for a token without exports, 404 for another project or an unfinished export', async () => {
    const runtime = testRuntime({ clock: systemClock });
    const api = client(runtime);
    const pair = await newProject(runtime);
    const made = await doneExport(runtime, api, pair, keyPairHeaders(pair));
    const stranger = await newProject(runtime);

    const wrongPair = await download(api, made.id, { headers: { ...keyPairHeaders(pair), 'x-app-token': 'wrong' } });
    expect(errorOf(wrongPair)).toMatchObject({ status: 401, key: 'unauthorized' });
    const wrongToken = await download(api, made.id, { headers: { authorization: 'Bearer not-a-token' } });
    expect(errorOf(wrongToken)).toMatchObject({ status: 401, key: 'unauthorized' });
    const missing = await download(api, made.id);
    expect(errorOf(missing)).toMatchObject({ status: 401, key: 'unauthorized', details: expect.stringContaining('token query parameter') });

    const campaignsOnly = await bearer(api, pair, 'campaigns');
    const noScope = await download(api, made.id, { headers: campaignsOnly });
    expect(errorOf(noScope)).toEqual(errorOf(await api.call('get-export', { params: { exportId: made.id }, headers: campaignsOnly })));
    expect(errorOf(noScope)).toMatchObject({ status: 403, key: 'missing_required_permission' });
    // A key pair whose permissions lack exports is refused the same way.
    const limited = await createAppKey(runtime, pair.project_id);
    await setKeyPermissions(runtime, limited.app_id, ['campaigns']);
    expect(errorOf(await download(api, made.id, { headers: keyPairHeaders(limited) }))).toMatchObject({ status: 403, key: 'missing_required_permission' });

    for (const headers of [keyPairHeaders(stranger), await bearer(api, stranger, 'exports')]) {
      const foreign = await download(api, made.id, { headers });
      expect(errorOf(foreign)).toEqual(errorOf(await api.call('get-export', { params: { exportId: made.id }, headers })));
      expect(foreign.json).toMatchObject({ code: 404, key: 'not_found', resource_type: 'export', resource_id: made.id });
      expect(foreign.text).not.toContain('lopb_');
    }
    // Another project's link token for this export's id is no link at all.
    const theirs = await doneExport(runtime, api, stranger, keyPairHeaders(stranger));
    expect((await download(api, made.id, { token: theirs.token })).status).toBe(401);

    const campaign = await api.call('create-campaign', { json: campaignBodies.LOYALTY_PROGRAM('Unfinished'), headers: keyPairHeaders(pair) });
    const scheduled = await api.call('create-points-expiration-export', {
      params: { campaignId: campaign.json.id as string },
      json: {},
      headers: keyPairHeaders(pair),
    });
    const early = await download(api, scheduled.json.id as string, { headers: keyPairHeaders(pair) });
    expect(early.json).toMatchObject({ code: 404, key: 'not_found', details: expect.stringContaining('SCHEDULED') });
  });
});

describe("download-export follows the key's IP allow-list", () => {
  it("refuses the link outside the allow-list of the key that created the export, with the API cluster's 403, whichever key fetched the link", async () => {
    const runtime = testRuntime({ clock: systemClock });
    const api = client(runtime);
    const pair = await newProject(runtime);
    const other = await createAppKey(runtime, pair.project_id, { name: 'unrestricted' });
    const made = await doneExport(runtime, api, pair, keyPairHeaders(pair));
    await setKeyIpAllowList(runtime, pair.app_id, ['203.0.113.0/24']);
    // The unrestricted key fetches a fresh link: the creator's list still applies to it.
    const fresh = await api.call('get-export', { params: { exportId: made.id }, headers: keyPairHeaders(other) });
    const freshToken = new URL((fresh.json.result as { url: string }).url).searchParams.get('token') ?? '';

    for (const token of [made.token, freshToken]) {
      const outside = await download(api, made.id, { token, sourceIp: OUTSIDE });
      const apiCluster = await api.call('get-export', { params: { exportId: made.id }, headers: keyPairHeaders(pair), sourceIp: OUTSIDE });
      expect(errorOf(outside)).toEqual(errorOf(apiCluster));
      expect(outside.json).toMatchObject({ code: 403, key: 'forbidden', details: `Requests with this application key are not allowed from ${OUTSIDE}` });
      const inside = await download(api, made.id, { token, sourceIp: INSIDE });
      expect(inside.status).toBe(200);
      expect(inside.text).toBe(made.csv);
    }
  });

  it('applies the allow-list of the key that presents itself (key pair or its bearer token), not the creator’s', async () => {
    const runtime = testRuntime({ clock: systemClock });
    const api = client(runtime);
    const pair = await newProject(runtime);
    const restricted = await createAppKey(runtime, pair.project_id, { name: 'office' });
    const made = await doneExport(runtime, api, pair, keyPairHeaders(pair));
    const restrictedToken = await bearer(api, restricted, 'exports');
    await setKeyIpAllowList(runtime, restricted.app_id, ['203.0.113.0/24']);
    for (const headers of [keyPairHeaders(restricted), restrictedToken]) {
      const outside = await download(api, made.id, { headers, sourceIp: OUTSIDE });
      expect(errorOf(outside)).toEqual(errorOf(await api.call('get-export', { params: { exportId: made.id }, headers, sourceIp: OUTSIDE })));
      expect(outside.status).toBe(403);
      expect((await download(api, made.id, { headers, sourceIp: INSIDE })).status).toBe(200);
    }
    // The creator is unrestricted: its own key pair downloads from anywhere, whatever the others' lists.
    await setKeyIpAllowList(runtime, pair.app_id, null);
    expect((await download(api, made.id, { headers: keyPairHeaders(pair), sourceIp: OUTSIDE })).status).toBe(200);
  });

  it('records the creating key of a bearer-token export, and refuses its link once that key is blocked or deleted', async () => {
    const runtime = testRuntime({ clock: systemClock });
    const api = client(runtime);
    // A bearer request keeps its key in the runtime's cache for up to 30 s; each check after a key change starts a fresh container.
    const fresh = () => client(testRuntime({ clock: systemClock }));
    const pair = await newProject(runtime);
    const creator = await createAppKey(runtime, pair.project_id, { name: 'exporter' });
    const made = await doneExport(runtime, api, pair, await bearer(api, creator, 'api'));
    const item = await exportRecord.get(runtime, exportRecord.key(pair.project_id, made.id));
    expect(item?.createdByAppId).toBe(creator.app_id);

    await setKeyIpAllowList(runtime, creator.app_id, ['203.0.113.0/24']);
    expect((await download(fresh(), made.id, { token: made.token, sourceIp: OUTSIDE })).status).toBe(403);
    await setKeyStatus(runtime, creator.app_id, 'BLOCKED');
    expect(errorOf(await download(fresh(), made.id, { token: made.token, sourceIp: INSIDE }))).toMatchObject({ status: 401, key: 'unauthorized' });
    await setKeyStatus(runtime, creator.app_id, 'ACTIVE');
    expect((await download(fresh(), made.id, { token: made.token, sourceIp: INSIDE })).status).toBe(200);
    await deleteAppKey(runtime, creator.app_id);
    const gone = await download(fresh(), made.id, { token: made.token, sourceIp: INSIDE });
    expect(errorOf(gone)).toMatchObject({ status: 401, key: 'unauthorized', details: 'The application key that created this export no longer exists' });
    // The project's other keys still download it with their own credentials.
    expect((await download(fresh(), made.id, { headers: keyPairHeaders(pair), sourceIp: OUTSIDE })).status).toBe(200);
  });

  it('honours the link of an export stored without its creator only from an address every key of the project admits', async () => {
    const runtime = testRuntime({ clock: systemClock });
    const api = client(runtime);
    const pair = await newProject(runtime);
    const second = await createAppKey(runtime, pair.project_id, { name: 'second' });
    const made = await doneExport(runtime, api, pair, keyPairHeaders(pair));
    // The item as code before this change wrote it: no createdByAppId.
    await runtime.ddb.send(
      new UpdateCommand({ TableName: runtime.tableName, Key: exportRecord.key(pair.project_id, made.id), UpdateExpression: 'REMOVE createdByAppId' }),
    );
    expect((await exportRecord.get(runtime, exportRecord.key(pair.project_id, made.id)))?.createdByAppId).toBeNull();

    expect((await download(api, made.id, { token: made.token, sourceIp: OUTSIDE })).status).toBe(200);
    await setKeyIpAllowList(runtime, second.app_id, ['203.0.113.0/24', '198.18.0.0/15']);
    const outside = await download(api, made.id, { token: made.token, sourceIp: OUTSIDE });
    expect(outside.json).toMatchObject({ code: 403, key: 'forbidden', details: `Requests with this application key are not allowed from ${OUTSIDE}` });
    expect((await download(api, made.id, { token: made.token, sourceIp: INSIDE })).status).toBe(200);
    await setKeyIpAllowList(runtime, pair.app_id, ['198.18.0.0/15']);
    expect((await download(api, made.id, { token: made.token, sourceIp: INSIDE })).status).toBe(403);
    expect((await download(api, made.id, { token: made.token, sourceIp: '198.18.0.9' })).status).toBe(200);
  });
});

describe("download-export counts against the project's rate limit", () => {
  it('counts every download (link, key pair, token) with the X-Rate-Limit headers and refuses the one over the limit with the API cluster’s 429', async () => {
    const clock = new ManualClock(Date.UTC(2026, 9, 1, 12, 0, 10));
    const base = testRuntime({ clock });
    const pair = await newProject(base);
    const setupApi = client(base);
    const made = await doneExport(base, setupApi, pair, keyPairHeaders(pair));
    const tokenHeaders = await bearer(setupApi, pair, 'exports');

    const limited: Runtime = { ...testRuntime({ clock }), rateLimit: { limit: 3, windowSeconds: 60 } };
    const api = client(limited);
    const served = [
      await download(api, made.id, { token: made.token }),
      await download(api, made.id, { headers: keyPairHeaders(pair) }),
      await download(api, made.id, { headers: tokenHeaders }),
    ];
    expect(served.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(served.map((r) => r.headers['X-Rate-Limit-Remaining'])).toEqual(['2', '1', '0']);
    expect(served[0]?.headers['X-Rate-Limit-Limit']).toBe('3');

    const over = await download(api, made.id, { token: made.token });
    expect(over.status).toBe(429);
    expect(over.text).not.toContain('lopb_');
    const apiOver = await api.call('get-export', { params: { exportId: made.id }, headers: keyPairHeaders(pair) });
    expect(errorOf(over)).toEqual(errorOf(apiOver));
    expect(over.json).toMatchObject({ code: 429, key: 'too_many_requests', message: 'Too many requests' });
    expect(over.headers).toMatchObject({
      'Retry-After': '50',
      'X-Rate-Limit-Remaining': '0',
      'X-Rate-Limit-Retry': String(Math.floor(clock.now().getTime() / 1000) + 50),
    });
    expect((await download(api, made.id, { headers: keyPairHeaders(pair) })).status).toBe(429);

    // The budget is the project's: a download in the next window is served again.
    clock.advance(60_000);
    expect((await download(api, made.id, { token: made.token })).status).toBe(200);
  });
});

describe('download-export over HTTP to a client that does not follow redirects', () => {
  let own: OwnLocalRuntime;
  let pair: IssuedKeyPair;

  beforeAll(async () => {
    own = await startLocalWithOwnQueue('downloads');
    pair = await newProject(testRuntime(), 'http downloads');
  });

  afterAll(async () => {
    await own?.stop();
  });

  async function httpExport(): Promise<MadeExport> {
    const { apiUrl } = own.local;
    const headers = { ...keyPairHeaders(pair), 'content-type': 'application/json' };
    const post = (path: string, body: unknown) => fetch(`${apiUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }).then((r) => r.json());
    const campaign = (await post('/v1/campaigns', campaignBodies.LOYALTY_PROGRAM(`HTTP club ${Math.random()}`))) as { id: string };
    await seedBuckets(testRuntime(), pair.project_id, campaign.id, 12);
    const created = (await post(`/v1/loyalties/${campaign.id}/points-expiration/export`, {})) as { id: string };
    for (let i = 0; i < 300; i += 1) {
      const got = (await fetch(`${apiUrl}/v1/exports/${created.id}`, { headers: keyPairHeaders(pair) }).then((r) => r.json())) as {
        status: string;
        result: { url: string } | null;
      };
      if (got.status === 'DONE' && got.result) {
        const url = new URL(got.result.url);
        return { id: created.id, url, token: url.searchParams.get('token') ?? '', csv: await stored(pair.project_id, created.id) };
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`export ${created.id} did not finish`);
  }

  it('answers a small file with 200 text/csv and its exact bytes, to result.url and to the key pair', async () => {
    const made = await httpExport();
    expect(made.url.origin).toBe(own.local.downloadUrl);
    const byLink = await fetch(made.url, { redirect: 'manual' });
    expect(byLink.status).toBe(200);
    expect(byLink.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(byLink.headers.get('location')).toBeNull();
    expect(await byLink.text()).toBe(made.csv);
    const byPair = await fetch(`${own.local.downloadUrl}/v1/exports/${made.id}`, { headers: keyPairHeaders(pair), redirect: 'manual' });
    expect(byPair.status).toBe(200);
    expect(await byPair.text()).toBe(made.csv);
    expect(own.contractViolations).toEqual([]);
  });

  it('answers a file above 5 MiB with a 302 whose Location serves the whole file', async () => {
    const made = await httpExport();
    // The same export, its file grown past the bound (as a big project's export would be).
    const line = `${'lopb_0123456789,'.repeat(6)}ACTIVE\r\n`;
    const big = made.csv + line.repeat(Math.ceil((INLINE_DOWNLOAD_MAX_BYTES + 200_000) / line.length));
    await s3.send(new PutObjectCommand({ Bucket: engines().bucketName, Key: exportObjectKey(pair.project_id, made.id), Body: big, ContentType: 'text/csv' }));
    const redirect = await fetch(made.url, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const location = redirect.headers.get('location') ?? '';
    expect(location).toContain('X-Amz-Signature=');
    const file = await fetch(location, { redirect: 'manual' });
    expect(file.status).toBe(200);
    const text = await file.text();
    expect(text.length).toBe(big.length);
    expect(text === big).toBe(true);
    expect(own.contractViolations).toEqual([]);
  });
});
