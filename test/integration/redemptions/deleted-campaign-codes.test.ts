import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import * as entities from '../../../lib/db/entities.js';
import type { Runtime } from '../../../lib/runtime.js';
import { apiClient } from '../../support/api-client.js';
import { campaignBodies, RecordingJobQueue } from '../../support/api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

/**
 * Issue 41 item 3: a code of a deleted (or disabled) campaign is refused from the moment the
 * delete's reply is sent, though the job that removes the campaign's vouchers runs later. The
 * deletion job is never delivered here, so the vouchers stay stored throughout.
 */

/** Wraps each TransactWriteItems the runtime sends (a redemption's commit, a campaign's delete): `send` sends it. */
type Wrap = (command: TransactWriteCommand, send: () => Promise<unknown>) => Promise<unknown>;

function wrapped(runtime: Runtime, wrap: Wrap): Runtime {
  const send = runtime.ddb.send.bind(runtime.ddb) as (command: unknown, ...rest: unknown[]) => Promise<unknown>;
  const ddb = Object.assign(Object.create(runtime.ddb) as object, {
    send: (command: unknown, ...rest: unknown[]) =>
      command instanceof TransactWriteCommand ? wrap(command, () => send(command, ...rest)) : send(command, ...rest),
  });
  return { ...runtime, ddb: ddb as Runtime['ddb'] };
}

/** A Wrap that runs `before` (once, when set) ahead of the next transaction. */
function once(): { wrap: Wrap; set: (f: () => Promise<{ status: number }>, status: number) => void; pending: () => boolean } {
  let before: (() => Promise<void>) | null = null;
  return {
    wrap: async (_command, send) => {
      const run = before;
      before = null;
      if (run) await run();
      return send();
    },
    set: (f, status) => {
      before = async () => expect((await f()).status).toBe(status);
    },
    pending: () => before !== null,
  };
}

async function setup(wrap?: Wrap) {
  const runtime = testRuntime();
  const pair = await newProject(runtime);
  const headers = keyPairHeaders(pair);
  const jobs = new RecordingJobQueue();
  const api = apiClient({ runtime, jobs }, headers);
  const redeemer = wrap ? apiClient({ runtime: wrapped(runtime, wrap), jobs }, headers) : api;
  const made = await api.call('create-campaign', { json: campaignBodies.DISCOUNT_COUPONS(`Doomed ${Math.random()}`) });
  expect(made.status).toBe(200);
  const campaignId = made.json.id as string;
  for (const code of ['GENERIC', 'OTHER']) {
    expect((await api.call('add-voucher-with-specific-code-to-campaign', { params: { campaignId, code }, json: {} })).status).toBe(200);
  }
  const order = { amount: 1000 };
  const redeemStacked = (code: string) => redeemer.call('redeem-stacked-discounts', { json: { redeemables: [{ object: 'voucher', id: code }], order } });
  const redeemOne = (code: string) => redeemer.call('redeem-voucher', { params: { code }, json: { order } });
  const validate = (code: string) => api.call('validate-stacked-discounts', { json: { redeemables: [{ object: 'voucher', id: code }], order } });
  const del = (force: boolean) => api.call('delete-campaign', { params: { campaignId }, ...(force ? { query: 'force=true' } : {}) });
  return { runtime, p: pair.project_id, headers, api, jobs, campaignId, redeemStacked, redeemOne, validate, del };
}

const refusedAsGone = (reply: { status: number; json: Record<string, unknown> }) => expect([reply.status, reply.json.key]).toEqual([404, 'resource_not_found']);

describe('a code of a deleted campaign (issue 41 item 3)', () => {
  for (const force of [false, true]) {
    it(`is refused on both redemption routes and invalid in a validation once DELETE${force ? '?force=true' : ''} has answered`, async () => {
      const { runtime, p, redeemStacked, redeemOne, validate, del, jobs } = await setup();
      expect((await redeemStacked('GENERIC')).status).toBe(200);
      expect((await del(force)).status).toBe(202);
      // The vouchers are still stored: their removal job has not run.
      expect(await entities.voucher.get(runtime, entities.voucher.key(p, 'GENERIC'))).not.toBeNull();
      expect(jobs.sent).toHaveLength(1);
      refusedAsGone(await redeemStacked('GENERIC'));
      refusedAsGone(await redeemOne('GENERIC'));
      refusedAsGone(await redeemOne('OTHER'));
      const validation = await validate('OTHER');
      expect(validation.json).toMatchObject({ valid: false, inapplicable_redeemables: [{ id: 'OTHER', result: { error: { key: 'resource_not_found' } } }] });
    });
  }

  it('is refused when the campaign is deleted after the redemption was validated, before its commit (the commit checks the campaign)', async () => {
    for (const force of [false, true]) {
      const hook = once();
      const ctx = await setup(hook.wrap);
      hook.set(() => ctx.del(force), 202);
      refusedAsGone(await ctx.redeemStacked('GENERIC'));
      expect(hook.pending()).toBe(false);
      refusedAsGone(await ctx.redeemOne('OTHER'));
      expect((await ctx.api.call('list-redemptions')).json.redemptions).toHaveLength(0);
    }
  });

  it('is refused as campaign_not_active when the campaign is disabled between validation and commit', async () => {
    const hook = once();
    const ctx = await setup(hook.wrap);
    hook.set(() => ctx.api.call('disable-campaign', { params: { campaignId: ctx.campaignId } }), 200);
    const reply = await ctx.redeemOne('GENERIC');
    expect([reply.status, reply.json.key]).toEqual([400, 'campaign_not_active']);
    expect(hook.pending()).toBe(false);
    expect((await ctx.api.call('list-redemptions')).json.redemptions).toHaveLength(0);
  });

  it('of parallel redemptions fired with the delete, none that commits starts after the delete committed; none started after its reply succeeds', async () => {
    const N = 12;
    const commits: { kind: 'redeem' | 'delete'; start: number; end: number; ok: boolean }[] = [];
    const ctx = await setup();
    const campaignKey = entities.campaign.key(ctx.p, ctx.campaignId);
    // Every TransactWriteItems of the project is timed: the delete's (it deletes the campaign item) and each redemption's.
    const timed = wrapped(ctx.runtime, async (command, send) => {
      // The delete's transaction deletes the campaign item; each redemption's checks it.
      const items = command.input.TransactItems ?? [];
      const onCampaign = (k?: Record<string, unknown>) => k?.PK === campaignKey.PK && k?.SK === campaignKey.SK;
      const kind = items.some((i) => onCampaign(i.Delete?.Key)) ? 'delete' : items.some((i) => onCampaign(i.ConditionCheck?.Key)) ? 'redeem' : null;
      const start = performance.now();
      let ok = false;
      try {
        const out = await send();
        ok = true;
        return out;
      } finally {
        if (kind) commits.push({ kind, start, end: performance.now(), ok });
      }
    });
    const client = apiClient({ runtime: timed, jobs: new RecordingJobQueue() }, ctx.headers);
    const redeem = () => client.call('redeem-stacked-discounts', { json: { redeemables: [{ object: 'voucher', id: 'GENERIC' }], order: { amount: 1000 } } });
    const [deleted, ...racing] = await Promise.all([
      client.call('delete-campaign', { params: { campaignId: ctx.campaignId } }),
      ...Array.from({ length: N }, redeem),
    ]);
    expect(deleted?.status).toBe(202);
    for (const r of racing) expect([200, 404]).toContain(r.status);
    const del = commits.find((c) => c.kind === 'delete' && c.ok);
    expect(del).toBeDefined();
    // A redemption's transaction that began after the delete's had committed could not succeed.
    for (const c of commits.filter((x) => x.kind === 'redeem' && x.ok)) expect(c.start).toBeLessThan((del as { end: number }).end);
    const stored = (await ctx.api.call('list-redemptions', { query: 'limit=100' })).json.redemptions as unknown[];
    // Each stacked redemption is stored as a parent and its child.
    expect(stored.length).toBe(2 * racing.filter((r) => r.status === 200).length);
    // Started after the delete's reply: all refused.
    const after = await Promise.all(Array.from({ length: N }, redeem));
    for (const r of after) refusedAsGone(r);
    expect((await ctx.api.call('list-redemptions', { query: 'limit=100' })).json.redemptions).toHaveLength(stored.length);
  });
});
