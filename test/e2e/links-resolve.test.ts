import { setTimeout as sleep } from 'node:timers/promises';
import { VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProject, type IssuedKeyPair } from '../../lib/app-keys/app-key.service.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { collectUrls, type FoundUrl } from '../support/reply-urls.js';
import { testRuntime } from '../support/runtime.js';

/**
 * Every `url` (and `*_url`) the service puts in a reply leads somewhere that answers. Representative
 * flows run over plain HTTP against the whole local runtime; each JSON reply's links are collected,
 * then followed as a client would: paths on the API cluster with the key pair (they are the API's
 * own reads), asset images with no credentials (they are public), the export's download link with
 * no credentials (it is signed), never following a redirect by itself. A followed JSON reply's own
 * links are followed too, until nothing new turns up. Every reply is checked against
 * docs/openapi.json by the server wrapper.
 */
let runtime: OwnLocalRuntime;
let pair: IssuedKeyPair;
let api: string;
let download: string;

beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('links-resolve');
  api = runtime.local.apiUrl;
  download = runtime.local.downloadUrl;
  pair = await createProject(testRuntime(), 'links project');
});

afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

const keyPair = (): Record<string, string> => ({ 'X-App-Id': pair.app_id, 'X-App-Token': pair.app_token });

interface Reply {
  status: number;
  headers: Headers;
  json: Record<string, unknown>;
}

/** Every link seen in a reply of this file, with the request whose reply held it. */
const seen: (FoundUrl & { from: string })[] = [];

async function send(method: string, path: string, json?: unknown): Promise<Reply> {
  const res = await fetch(`${api}${path}`, {
    method,
    headers: { ...keyPair(), ...(json === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
    redirect: 'manual',
  });
  const text = await res.text();
  const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
  for (const found of collectUrls(body)) seen.push({ ...found, from: `${method} ${path}` });
  return { status: res.status, headers: res.headers, json: body };
}

async function ok(method: string, path: string, json?: unknown): Promise<Record<string, unknown>> {
  const reply = await send(method, path, json);
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.json)}`).toBeLessThan(300);
  return reply.json;
}

type Followed = { url: string; status: number; contentType: string; body: Buffer; location: string | null };

/**
 * Fetches a link as a client would: the API's own paths with the key pair, anything else (asset
 * images, signed download links, presigned file URLs) with no credentials; no redirect is followed.
 */
async function follow(url: string): Promise<Followed> {
  const target = new URL(url, api);
  const needsKeyPair = target.origin === new URL(api).origin && !target.pathname.startsWith('/v1/assets/');
  const res = await fetch(target, { headers: needsKeyPair ? keyPair() : {}, redirect: 'manual' });
  return {
    url: target.href,
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    body: Buffer.from(await res.arrayBuffer()),
    location: res.headers.get('location'),
  };
}

/** Every link followAll took from `seen`. */
const followedLinks: (FoundUrl & { from: string })[] = [];

/** Follows every link seen so far (and the links of the JSON replies it reaches); returns what each answered. */
async function followAll(): Promise<Map<string, Followed>> {
  const answers = new Map<string, Followed>();
  const queue = seen.splice(0);
  followedLinks.push(...queue);
  while (queue.length > 0) {
    const link = queue.shift() as FoundUrl & { from: string };
    if (answers.has(link.url)) continue;
    let answer = await follow(link.url);
    if (answer.status === 302 && answer.location) answer = await follow(answer.location);
    answers.set(link.url, answer);
    expect(
      answer.status,
      `${link.path} of ${link.from}: ${link.url} answered ${answer.status} ${answer.body.toString('utf8').slice(0, 300)}`,
    ).toBeGreaterThanOrEqual(200);
    expect(answer.status, `${link.path} of ${link.from}: ${link.url}`).toBeLessThan(300);
    if (answer.contentType.startsWith('application/json')) {
      for (const found of collectUrls(JSON.parse(answer.body.toString('utf8')))) queue.push({ ...found, from: link.url });
    }
  }
  return answers;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function exportWhenDone(id: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 300; i += 1) {
    const got = await ok('GET', `/v1/exports/${id}`);
    if (got.status === 'DONE' || got.status === 'ERROR') return got;
    await sleep(100);
  }
  throw new Error(`export ${id} did not finish`);
}

describe('links in replies', () => {
  it('follows every url of the campaign, voucher, publication, list, bin and export replies to a 2xx', async () => {
    // A code that needs escaping in a path and in a query.
    const code = 'LINKS+&1';
    const campaign = await ok('POST', '/v1/campaigns', {
      name: 'Links coupons',
      campaign_type: 'DISCOUNT_COUPONS',
      type: 'STATIC',
      vouchers_count: 2,
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 500 } },
    });
    const campaignId = String(campaign.id);
    const added = await ok('POST', `/v1/campaigns/${campaignId}/vouchers`, { code });
    expect(added).toMatchObject({ code, object: 'voucher' });
    await ok('POST', `/v1/campaigns/${campaignId}/vouchers`, { code: 'LINKS-BIN' });
    const path = `/v1/vouchers/${encodeURIComponent(code)}`;
    await ok('GET', path);
    await ok('PUT', path, { metadata: { via: 'links' } });
    await ok('POST', `${path}/disable`);
    await ok('POST', `${path}/enable`);
    const published = await ok('POST', '/v1/publications', { voucher: code, customer: { source_id: 'links-ann' } });
    expect(published).toMatchObject({ voucher: { code } });
    await ok('POST', '/v1/publications', { campaign: { name: 'Links coupons' }, customer: { source_id: 'links-bob' } });
    await ok('GET', '/v1/publications');
    await ok('GET', `/v1/campaigns/${campaignId}`);
    await ok('GET', '/v1/campaigns');
    await ok('GET', '/v1/customers');
    // A deleted voucher's own links end with it: they are followed while it exists.
    const beforeDelete = await followAll();
    await ok('DELETE', '/v1/vouchers/LINKS-BIN');
    await ok('GET', '/v1/trash-bin');

    const gifts = await ok('POST', '/v1/campaigns', {
      name: 'Links gift cards',
      campaign_type: 'GIFT_VOUCHERS',
      type: 'STATIC',
      voucher: { type: 'GIFT_VOUCHER', gift: { amount: 1000 } },
    });
    await ok('POST', `/v1/campaigns/${String(gifts.id)}/vouchers`, { code: 'LINKS-GIFT' });
    await ok('POST', '/v1/vouchers/LINKS-GIFT/balance', { amount: 250 });
    await ok('GET', '/v1/vouchers/LINKS-GIFT/transactions');

    const club = await ok('POST', '/v1/campaigns', {
      name: 'Links club',
      campaign_type: 'LOYALTY_PROGRAM',
      type: 'AUTO_UPDATE',
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
    });
    await ok('POST', `/v1/campaigns/${String(club.id)}/vouchers`, { code: 'LINKS-CARD' });
    await ok('POST', `/v1/loyalties/${String(club.id)}/members/LINKS-CARD/balance`, { points: 40 });
    const scheduled = await ok('POST', `/v1/loyalties/${String(club.id)}/points-expiration/export`, {});
    const done = await exportWhenDone(String(scheduled.id));
    expect(done).toMatchObject({ status: 'DONE', result: { url: expect.any(String) } });

    const answers = new Map([...beforeDelete, ...(await followAll())]);
    expect(answers.size).toBeGreaterThanOrEqual(8);
    const links = [...followedLinks];
    // The links the flows above must have produced: each kind the service writes.
    const paths = new Set(links.map((l) => l.path.replace(/\[\d+\]/g, '[]')));
    for (const expected of ['$.redemption.url', '$.publish.url', '$.assets.qr.url', '$.assets.barcode.url', '$.voucher.publish.url', '$.result.url']) {
      expect(paths, expected).toContain(expected);
    }
    // Only the service's own hosts: paths on the API cluster, or absolute links to the download cluster.
    for (const link of links) {
      const isPath = link.url.startsWith('/v1/');
      const isDownload = link.url.startsWith(`${download}/v1/`);
      expect(isPath || isDownload, `${link.path} of ${link.from}: ${link.url}`).toBe(true);
    }

    // What the links lead to: the voucher's own redemptions and publications, its images, the file.
    const voucher = added as { redemption: { url: string }; publish: { url: string }; assets: { qr: { url: string }; barcode: { url: string } } };
    const redemptions = JSON.parse(answers.get(voucher.redemption.url)?.body.toString('utf8') ?? '{}');
    expect(redemptions).toMatchObject({ object: 'list', data_ref: 'redemption_entries', redemption_entries: [], url: voucher.redemption.url });
    const publications = JSON.parse(answers.get(voucher.publish.url)?.body.toString('utf8') ?? '{}');
    expect(publications).toMatchObject({ object: 'list', total: 1, publications: [{ id: published.id, voucher: { code } }] });
    for (const image of [voucher.assets.qr.url, voucher.assets.barcode.url]) {
      const got = answers.get(image);
      expect(got?.contentType).toBe('image/png');
      expect(got?.body.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    }
    const file = answers.get(String((done.result as { url: string }).url));
    expect(file?.contentType).toContain('text/csv');
  }, 60_000);

  it('serves the asset images without credentials: PNG by default, SVG on request, larger with size, cacheable; a made-up id is 404', async () => {
    const campaign = await ok('POST', '/v1/campaigns', {
      name: 'Links images',
      campaign_type: 'DISCOUNT_COUPONS',
      type: 'STATIC',
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } },
    });
    const voucher = (await ok('POST', `/v1/campaigns/${String(campaign.id)}/vouchers`, { code: 'LINKS-IMG' })) as {
      assets: { qr: { id: string; url: string }; barcode: { id: string; url: string } };
    };
    seen.splice(0);
    const qr = await follow(voucher.assets.qr.url);
    expect(qr.status).toBe(200);
    const small = await follow(`${voucher.assets.qr.url}?size=10`);
    const large = await follow(`${voucher.assets.qr.url}?size=100`);
    // PNG width: bytes 16–19 of the IHDR chunk.
    expect(large.body.readUInt32BE(16)).toBe(small.body.readUInt32BE(16) * 10);
    const svg = await follow(`${voucher.assets.barcode.url}?format=svg`);
    expect(svg.status).toBe(200);
    expect(svg.contentType).toBe('image/svg+xml');
    expect(svg.body.toString('utf8')).toMatch(/^<svg /);
    const res = await fetch(new URL(voucher.assets.qr.url, api));
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400, immutable');

    // Another type's id, an id this service never wrote, a bad option.
    const crossed = await follow(`/v1/assets/qr/${voucher.assets.barcode.id}`);
    expect(crossed.status).toBe(404);
    const madeUp = await follow('/v1/assets/barcode/not-an-asset');
    expect(madeUp.status).toBe(404);
    expect(JSON.parse(madeUp.body.toString('utf8'))).toMatchObject({ code: 404, key: 'not_found', resource_type: 'asset' });
    const badSize = await follow(`${voucher.assets.qr.url}?size=101`);
    expect(badSize.status).toBe(400);
  });

  it("answers a voucher's redemption list for its code or id, 404 for an unknown code", async () => {
    const campaign = await ok('POST', '/v1/campaigns', {
      name: 'Links redemptions',
      campaign_type: 'DISCOUNT_COUPONS',
      type: 'STATIC',
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 }, redemption: { quantity: 3 } },
    });
    const voucher = await ok('POST', `/v1/campaigns/${String(campaign.id)}/vouchers`, { code: 'LINKS-RED' });
    const byCode = await ok('GET', '/v1/vouchers/LINKS-RED/redemption');
    expect(byCode).toEqual({
      quantity: 3,
      redeemed_quantity: 0,
      object: 'list',
      url: '/v1/vouchers/LINKS-RED/redemption',
      data_ref: 'redemption_entries',
      total: 0,
      redemption_entries: [],
    });
    expect(await ok('GET', `/v1/vouchers/${String(voucher.id)}/redemption`)).toEqual(byCode);
    // The official SDK's call for it.
    const client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: api });
    expect(await client.redemptions.getForVoucher('LINKS-RED')).toEqual(byCode);
    const unknown = await send('GET', '/v1/vouchers/NO-SUCH-CODE/redemption');
    expect(unknown.status).toBe(404);
    seen.splice(0);
  });
});
