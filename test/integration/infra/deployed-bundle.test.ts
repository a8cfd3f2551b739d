import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { toApiGatewayEvent } from '../../../infra/local/api-gateway-event.js';
import { bundleEntry, staticExternalImports, writePackage } from '../../../scripts/bundles.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, newCampaign } from '../../support/api.js';
import { loyaltyApi } from '../../support/loyalty-api.js';
import { rewardApi } from '../../support/rewards-api.js';
import { invokeBuiltPackage } from '../../support/built-package.js';
import { engines, keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const run = promisify(execFile);

/**
 * The deployed bundle leaves some modules out (infra/constructs/bundling-settings.ts
 * lambdaExternalModules) on the claim that nothing a request does loads them. Here the bundle runs
 * from a folder with no node_modules anywhere above it, so loading any of them would fail the request.
 */
const folder = mkdtempSync(join(tmpdir(), 'deployed-bundle-'));

afterAll(() => rmSync(folder, { recursive: true, force: true }));

const stackedDoor = 'functions/redemptions/redeem-stacked-discounts.ts';

type Built = Awaited<ReturnType<typeof bundleEntry>>;
const built = new Map<string, Promise<Built>>();
/** The deployed bundle of a handler (with its lazy chunks, for one of LAZY_CHUNK_HANDLERS), built once per file. */
const bundleOf = (handler: string): Promise<Built> => {
  const bundle = built.get(handler) ?? bundleEntry(handler);
  built.set(handler, bundle);
  return bundle;
};

/**
 * Bundles `handler` with the deployed settings, writes its package (index.mjs and its chunks) to a folder of its own,
 * then invokes it once in a fresh Node process on the test engines.
 */
async function invokeBundled(handler: string, event: unknown): Promise<{ statusCode: number; body: string }> {
  const bundle = await bundleOf(handler);
  const file = writePackage(join(folder, handler.replace(/\W+/g, '-')), bundle);
  return invokeBuiltPackage(file, event, { folder, remainingMs: 20_000, env: { TABLE_NAME: engines().tableName, CLUSTER: 'api' } });
}

describe('the deployed bundle of POST /v1/redemptions, run alone', () => {
  it('pays a loyalty card reward without loading any module the bundle leaves out', async () => {
    const runtime = testRuntime();
    const pair = await newProject(runtime);
    const api = apiClient({ runtime }, keyPairHeaders(pair));
    const campaigns = campaignApi(runtime, pair);
    const program = await newCampaign(campaigns, {
      name: 'Bundle club',
      campaign_type: 'LOYALTY_PROGRAM',
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
    });
    expect((await campaigns.addVoucher('Bundle club', { code: 'BUNDLE-CARD' })).status).toBe(200);
    expect((await loyaltyApi(runtime, pair).updateBalance('Bundle club', 'BUNDLE-CARD', { points: 90, expiration_type: 'NON_EXPIRING' })).status).toBe(200);
    const rewards = rewardApi(runtime, pair);
    const reward = await rewards.createReward({ name: 'Pen', type: 'MATERIAL', parameters: { product: { id: 'prod_pen' } } });
    const rewardId = reward.json.id as string;
    expect((await rewards.assign(rewardId, { campaign: program.id, parameters: { loyalty: { points: 40 } } })).status).toBe(200);

    const event = toApiGatewayEvent({
      method: 'POST',
      rawPath: '/v1/redemptions',
      rawQueryString: '',
      headers: { ...keyPairHeaders(pair), 'content-type': 'application/json' },
      body: JSON.stringify({ redeemables: [{ object: 'voucher', id: 'BUNDLE-CARD', reward: { id: rewardId } }] }),
    });
    const reply = await invokeBundled(stackedDoor, event);

    expect(reply.statusCode, reply.body).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ redemptions: [{ result: 'SUCCESS', reward: { id: rewardId } }] });
    const card = await api.call('get-voucher', { params: { code: 'BUNDLE-CARD' } });
    expect(card.json.loyalty_card).toMatchObject({ balance: 50 });
  }, 120_000);
});

describe('the lazy chunks of POST /v1/redemptions (LAZY_CHUNK_HANDLERS), from the built files', () => {
  it('keeps order earning and the reward path in lazy chunks beside index.mjs, which imports them by relative URL', async () => {
    const bundle = await bundleOf(stackedDoor);
    const lazy = bundle.chunks.filter((c) => c.lazy).map((c) => c.file);
    expect(lazy).toEqual(expect.arrayContaining([expect.stringMatching(/^order-earning\.lazy-\w+\.mjs$/), expect.stringMatching(/^reward\.lazy-\w+\.mjs$/)]));
    const entry = new TextDecoder().decode(bundle.js);
    for (const file of lazy.filter((f) => f.includes('.lazy-'))) expect(entry).toContain(`import("./${file}")`);
    for (const chunk of bundle.chunks) expect(staticExternalImports(chunk.js, bundle.external), chunk.file).toEqual([]);
  }, 120_000);

  it('loads without its lazy chunks (cold start reads only the entry and its static chunks)', async () => {
    const bundle = await bundleOf(stackedDoor);
    const file = writePackage(join(folder, 'cold-only'), { js: bundle.js, chunks: bundle.chunks.filter((c) => !c.lazy) });
    const script = `const m = await import(${JSON.stringify(`file://${file}`)}); process.stdout.write(typeof m.handler);`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: folder,
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? '', AWS_REGION: 'us-east-1', TABLE_NAME: 'x', CLUSTER: 'api', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    });
    expect(stdout).toBe('function');
  }, 120_000);

  it('earns by the order.paid rules when a redemption leaves its order PAID (the order earning chunk)', async () => {
    const runtime = testRuntime();
    const pair = await newProject(runtime);
    const api = apiClient({ runtime }, keyPairHeaders(pair));
    const campaigns = campaignApi(runtime, pair);
    await newCampaign(campaigns, {
      name: 'Earning club',
      campaign_type: 'LOYALTY_PROGRAM',
      type: 'AUTO_UPDATE',
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
    });
    const rule = { event: 'order.paid', loyalty: { type: 'PROPORTIONAL', calculation_type: 'ORDER_AMOUNT', order: { amount: { every: 1000, points: 1 } } } };
    expect((await loyaltyApi(runtime, pair).createEarningRules('Earning club', [rule])).status).toBe(200);
    const member = await api.call('add-member', { params: { campaignId: 'Earning club' }, json: { customer: { source_id: 'bundle-ann' } } });
    expect(member.status).toBe(200);
    expect(
      (await api.call('create-voucher', { params: { code: 'BUNDLE-TEN' }, json: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } } }))
        .status,
    ).toBe(200);

    const event = toApiGatewayEvent({
      method: 'POST',
      rawPath: '/v1/redemptions',
      rawQueryString: '',
      headers: { ...keyPairHeaders(pair), 'content-type': 'application/json' },
      body: JSON.stringify({
        redeemables: [{ object: 'voucher', id: 'BUNDLE-TEN' }],
        customer: { source_id: 'bundle-ann' },
        order: { source_id: 'bundle-order', status: 'PAID', items: [{ product_id: 'shoe', quantity: 1, price: 4_000 }] },
      }),
    });
    const reply = await invokeBundled(stackedDoor, event);

    expect(reply.statusCode, reply.body).toBe(200);
    const card = await api.call('get-member', { params: { memberId: (member.json as { code: string }).code } });
    expect((card.json as { loyalty_card: { balance: number } }).loyalty_card.balance).toBe(4);
  }, 120_000);
});

describe('the deployed bundle of a function that calls S3', () => {
  const worker = 'functions/workers/export-jobs-worker.ts';
  /** Static imports of left-out modules in any file of the package (the entry and its chunks, lazy ones too). */
  const staticExternals = (b: Built): string[] => [b.js, ...b.chunks.map((c) => c.js)].flatMap((js) => staticExternalImports(js, b.external));

  it('keeps the S3 client’s event-stream serde, which that client imports statically', async () => {
    const withS3 = await bundleEntry(worker, undefined, { usesS3: true });
    expect(staticExternals(withS3)).toEqual([]);
    // Bundled as a function that does not call S3, the module would be left out and imported where the client loads.
    const withoutS3 = await bundleEntry(worker, undefined, { usesS3: false });
    expect(staticExternals(withoutS3)).toEqual(['@smithy/core/event-streams']);
  });

  it('loads in a fresh Node process with no node_modules anywhere above it', async () => {
    const bundle = await bundleEntry(worker, undefined, { usesS3: true });
    const file = writePackage(join(folder, 'export-jobs-worker'), bundle);
    const script = `const m = await import(${JSON.stringify(`file://${file}`)}); process.stdout.write(typeof m.handler);`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: folder,
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? '', AWS_REGION: 'us-east-1', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    });
    expect(stdout).toBe('function');
  });
});
