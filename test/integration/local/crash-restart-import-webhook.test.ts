import { afterAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../../lib/db/client.js';
import { listCampaignVoucherCodes } from '../../../lib/vouchers/voucher.repo.js';
import { campaignBodies } from '../../support/api.js';
import { apiOf, apiWithHeaders, devKeyOf, killRuntime, runtimeOf, startRuntime, stopAllRuntimes, tempDataDir, waitFor } from '../../support/spawned-runtime.js';
import { startReceiver } from '../../support/webhook-harness.js';

/**
 * Issues 38 and 40: `npm start` killed with SIGKILL (kill -9) while a CSV import is part-way and a
 * webhook delivery is in flight (the receiver holds the request), then started again on the same
 * data folder: the import resumes to the exact count, and the event is delivered again with the
 * same id (at least once). The simulated crashes of the import job (a transaction that never
 * answers) are in test/integration/imports; this is the real process dying.
 */

const ROWS = 1000;
const management = { id: 'M-crash-test', token: 'crash-test-management-token-0123456789' };

afterAll(stopAllRuntimes);

describe.skipIf(process.platform !== 'linux')('the local runtime killed mid-import and mid-delivery, started again on the same data folder', () => {
  it('finishes the CSV import with every row exactly once, and delivers the held event again with the same id', async () => {
    const receiver = await startReceiver();
    receiver.answer.hold = true;
    try {
      const dataDir = tempDataDir('crash-import-');
      const env = { DEV_MANAGEMENT_ID: management.id, DEV_MANAGEMENT_TOKEN: management.token };
      const first = startRuntime(dataDir, env);
      const runtime1 = await runtimeOf(dataDir, first);
      const key = devKeyOf(dataDir);
      const api1 = apiOf(runtime1, key);
      const mgmt1 = apiWithHeaders(runtime1.apiUrl, { 'X-Management-Id': management.id, 'X-Management-Token': management.token });

      await mgmt1('POST', `/management/v1/projects/${key.project_id}/webhooks`, { target_url: receiver.url, events: ['customer.created'] });
      await api1('POST', '/v1/customers', { source_id: 'crash-ann', name: 'Ann' });
      // The delivery is in flight: the receiver has the request and holds its answer.
      await waitFor(() => (receiver.received.length >= 1 ? true : undefined), 'the first delivery attempt', 60_000);

      const campaign = await api1('POST', '/v1/campaigns', campaignBodies.DISCOUNT_COUPONS('Imported'));
      const campaignId = campaign.id as string;
      const codes = Array.from({ length: ROWS }, (_, i) => `IMP-${String(i).padStart(5, '0')}`);
      const form = new FormData();
      form.append('file', new Blob([['Code', ...codes].join('\r\n')], { type: 'text/csv' }), 'codes.csv');
      const res = await fetch(`${runtime1.apiUrl}/v1/campaigns/${campaignId}/importCSV`, {
        method: 'POST',
        headers: { 'X-App-Id': key.app_id, 'X-App-Token': key.app_token },
        body: form,
      });
      expect(res.status).toBe(200); // the reference's status for this import (POST /v1/vouchers/importCSV answers 202)
      const actionId = ((await res.json()) as { async_action_id: string }).async_action_id;

      // Killed once some rows are written and others are not.
      let seen = 0;
      await waitFor(
        async () => {
          seen = (await api1('GET', `/v1/campaigns/${campaignId}`)).vouchers_count as number;
          return seen > 0 && seen < ROWS ? true : undefined;
        },
        () => `the import part-way (last count ${seen})`,
        120_000,
        10,
      );
      await killRuntime(first, dataDir);
      const heldId = JSON.parse(receiver.received[0]?.body ?? '{}').id as string;
      expect(heldId).toMatch(/\S/);

      receiver.answer.hold = false;
      const second = startRuntime(dataDir, env);
      const runtime2 = await runtimeOf(dataDir, second);
      const api2 = apiOf(runtime2, key);
      const action = await waitFor(
        async () => {
          const a = await api2('GET', `/v1/async-actions/${actionId}`);
          return a.status === 'DONE' || a.status === 'FAILED' ? a : undefined;
        },
        'the import to end',
        180_000,
        250,
      );
      expect(action).toMatchObject({ status: 'DONE', progress: 100, result: { done_count: ROWS } });
      expect((await api2('GET', `/v1/campaigns/${campaignId}`)).vouchers_count).toBe(ROWS);
      const ddb = createDocumentClient({ region: runtime2.region, endpoint: runtime2.dynamoEndpoint });
      const stored = await listCampaignVoucherCodes({ ddb, tableName: runtime2.tableName }, key.project_id, campaignId);
      ddb.destroy();
      expect([...stored].sort()).toEqual(codes);

      // The outbox's checkpoint was never moved past the unsettled delivery: the restarted poller sends the event again.
      await waitFor(() => (receiver.received.length >= 2 ? true : undefined), 'the delivery after the restart', 120_000);
      const again = JSON.parse(receiver.received[1]?.body ?? '{}') as { id?: string; type?: string };
      expect(again).toMatchObject({ id: heldId, type: 'customer.created' });
      expect(receiver.received[1]?.headers['x-voucherify-event-id']).toBe(heldId);
      console.info(`crash-restart import/webhook: killed at ${seen} of ${ROWS} rows; event ${heldId} delivered ${receiver.received.length} times`);

      process.kill(-second.pid, 'SIGINT');
      expect((await second.exited).code).toBe(0);
    } finally {
      await receiver.close();
    }
  }, 420_000);
});
