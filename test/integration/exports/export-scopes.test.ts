import { describe, expect, it } from 'vitest';
import { makeHandler as makeGetExport } from '../../../functions/exports/get-export.js';
import { makeHandler as makeCreateExport } from '../../../functions/exports/create-points-expiration-export.js';
import { makeHandler as makeTokenHandler } from '../../../functions/oauth/generate-oauth-token.js';
import { createPointsExpirationExportRoute, getExportRoute } from '../../../lib/api/routes.js';
import type { IssuedKeyPair } from '../../../lib/app-keys/app-key.service.js';
import { setKeyPermissions } from '../../../lib/app-keys/app-key.service.js';
import { ManualClock } from '../../../lib/clock.js';
import type { Runtime } from '../../../lib/runtime.js';
import { callRoute, campaignApi, campaignBodies, newCampaign, RecordingJobQueue } from '../../support/api.js';
import { call } from '../../support/invoke.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

async function token(runtime: Runtime, pair: IssuedKeyPair, scope: string): Promise<Record<string, string>> {
  const reply = await call(makeTokenHandler({ runtime }), {
    path: '/v1/oauth/token',
    headers: keyPairHeaders(pair),
    form: { grant_type: 'client_credentials', scope },
  });
  expect(reply.status).toBe(200);
  return { authorization: `Bearer ${reply.json.access_token as string}` };
}

async function setup() {
  const runtime = testRuntime({ clock: new ManualClock(Date.UTC(2026, 4, 1)) });
  const pair = await newProject(runtime);
  const campaign = await newCampaign(campaignApi(runtime, pair), campaignBodies.LOYALTY_PROGRAM('Club'));
  const jobs = new RecordingJobQueue();
  const create = makeCreateExport({ runtime, jobs });
  const get = makeGetExport({ runtime, downloadBaseUrl: () => 'http://download.test' });
  const campaignId = campaign.id as string;
  return {
    runtime,
    pair,
    jobs,
    createExport: (headers: Record<string, string>) =>
      callRoute(create, createPointsExpirationExportRoute, { path: `/v1/loyalties/${campaignId}/points-expiration/export`, json: {}, headers }),
    getExport: (id: string, headers: Record<string, string>) => callRoute(get, getExportRoute, { path: `/v1/exports/${id}`, headers }),
  };
}

describe('scopes of the export endpoints', () => {
  it('answers 403 missing_required_permission to a campaigns-only token on create and on get, and enqueues nothing', async () => {
    const { runtime, pair, jobs, createExport, getExport } = await setup();
    const campaignsOnly = await token(runtime, pair, 'campaigns');
    const denied = await createExport(campaignsOnly);
    expect(denied.status).toBe(403);
    expect(denied.json).toMatchObject({ code: 403, key: 'missing_required_permission' });
    expect(jobs.sent).toEqual([]);

    const id = (await createExport(keyPairHeaders(pair))).json.id as string;
    const deniedGet = await getExport(id, campaignsOnly);
    expect(deniedGet.status).toBe(403);
    expect(deniedGet.json).toMatchObject({ code: 403, key: 'missing_required_permission' });
  });

  it('lets an exports token or a loyalties token create an export, and an exports token read it', async () => {
    const { runtime, pair, jobs, createExport, getExport } = await setup();
    const exportsToken = await token(runtime, pair, 'exports');
    const loyaltiesToken = await token(runtime, pair, 'loyalties');
    const byExports = await createExport(exportsToken);
    expect(byExports.status).toBe(200);
    expect(byExports.json).toMatchObject({ object: 'export', status: 'SCHEDULED' });
    const byLoyalties = await createExport(loyaltiesToken);
    expect(byLoyalties.status).toBe(200);
    expect(jobs.sent).toHaveLength(2);

    const got = await getExport(byLoyalties.json.id as string, exportsToken);
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({ id: byLoyalties.json.id, status: 'SCHEDULED' });
    // Reading is the exports resource only (the route table): loyalties does not cover it.
    expect((await getExport(byExports.json.id as string, loyaltiesToken)).json.key).toBe('missing_required_permission');
    expect((await getExport(byExports.json.id as string, await token(runtime, pair, 'api'))).status).toBe(200);
  });

  it('applies the same scopes to a key pair limited by its permissions', async () => {
    const { runtime, pair, createExport, getExport } = await setup();
    const id = (await createExport(keyPairHeaders(pair))).json.id as string;
    await setKeyPermissions(runtime, pair.app_id, ['campaigns']);
    expect((await createExport(keyPairHeaders(pair))).json.key).toBe('missing_required_permission');
    expect((await getExport(id, keyPairHeaders(pair))).json.key).toBe('missing_required_permission');
    await setKeyPermissions(runtime, pair.app_id, ['exports']);
    expect((await createExport(keyPairHeaders(pair))).status).toBe(200);
    expect((await getExport(id, keyPairHeaders(pair))).status).toBe(200);
  });
});
