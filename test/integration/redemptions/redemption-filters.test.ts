import { BatchWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, onTestFinished } from 'vitest';
import * as entities from '../../../lib/db/entities.js';
import type { Redemption } from '../../../lib/redemptions/redemption.js';
import { getRedemptions } from '../../../lib/redemptions/redemption.repo.js';
import { backfillRedemptionCampaigns } from '../../../lib/redemptions/redemption-campaign-backfill.js';
import { createOwnTable } from '../../support/hostile/route-harness.js';
import { testRuntime } from '../../support/runtime.js';
import * as z from '../../../lib/zod.js';
import { listRedemptionsQuery } from '../../../lib/redemptions/redemption.schema.js';
import { listRedemptions } from '../../../lib/redemptions/redemption.service.js';
import { redeemedSetup } from './redeemed-setup.js';

type Json = Record<string, unknown>;
const ids = (reply: { json: unknown }) => new Set(((reply.json as Json).redemptions as Json[]).map((r) => r.id));

/**
 * Seven entries a second apart: a stacked redemption (parent + R-LIMITED and R-OPEN children, with a
 * customer and a campaign), then R-OPEN alone, then R-LIMITED alone (each a parent + child).
 */
async function redeemed() {
  const setup = await redeemedSetup({ source_id: 'filter-buyer', metadata: { tier: 'gold' } });
  const child = (plan: typeof setup.stacked, i = 0) => plan.redeemables[i]?.redemptionId as string;
  const list = (query: string) => setup.api.call('list-redemptions', { query });
  return { ...setup, list, child };
}

describe('GET /v1/redemptions filters[…]', () => {
  it('serves $is from an index and every other operator on the entries read; no filter is ignored', async () => {
    const { list, customerId, limited, stacked, second, third, child } = await redeemed();
    const all = [
      stacked.parentRedemptionId,
      child(stacked),
      child(stacked, 1),
      second.parentRedemptionId,
      child(second),
      third.parentRedemptionId,
      child(third),
    ];
    expect(ids(await list('limit=100'))).toEqual(new Set(all));

    // The issue's own example: every entry but R-OPEN's (parents carry no voucher code).
    const notOpen = await list('limit=100&filters[voucher_code][conditions][$is_not]=R-OPEN');
    expect(notOpen.status).toBe(200);
    expect(ids(notOpen)).toEqual(new Set([stacked.parentRedemptionId, child(stacked), second.parentRedemptionId, third.parentRedemptionId, child(third)]));
    expect(notOpen.json).toMatchObject({ total: 5, has_more: false });

    expect(ids(await list('filters[voucher_code][conditions][$is]=R-OPEN'))).toEqual(new Set([child(stacked, 1), child(second)]));
    expect(ids(await list('filters[voucher_code][conditions][$in][0]=R-OPEN'))).toEqual(new Set([child(stacked, 1), child(second)]));
    expect(ids(await list('filters[voucher_code][conditions][$is]=NO-SUCH'))).toEqual(new Set());
    expect(ids(await list('filters[voucher_code][conditions][$in][0]=R-OPEN&filters[voucher_code][conditions][$in][1]=R-LIMITED'))).toEqual(
      new Set([child(stacked), child(stacked, 1), child(second), child(third)]),
    );
    expect(ids(await list('filters[voucher_code][conditions][$starts_with]=R-LIM'))).toEqual(new Set([child(stacked), child(third)]));
    expect(ids(await list(`filters[customer_id][conditions][$is]=${customerId}`))).toEqual(
      new Set([stacked.parentRedemptionId, child(stacked), child(stacked, 1)]),
    );
    expect(ids(await list('filters[customer_id][conditions][$is_unknown]='))).toEqual(
      new Set([second.parentRedemptionId, child(second), third.parentRedemptionId, child(third)]),
    );
    expect(ids(await list(`filters[related_object_id][conditions][$is]=${limited.id}&filters[object][conditions][$is]=redemption`))).toEqual(
      new Set([child(stacked), child(third)]),
    );
    expect(ids(await list('filters[related_object_parent_id][conditions][$is]=camp_summer'))).toEqual(new Set([child(stacked), child(stacked, 1)]));
    expect(ids(await list(`filters[parent_redemption_id][conditions][$is]=${second.parentRedemptionId}`))).toEqual(new Set([child(second)]));
    expect(ids(await list('filters[result][conditions][$is]=FAILURE'))).toEqual(new Set());
    expect(ids(await list('filters[failure_code][conditions][$has_value]='))).toEqual(new Set());
    expect(ids(await list('filters[user_login][conditions][$is]=someone@example.com'))).toEqual(new Set());
    expect(ids(await list('limit=100&filters[object][conditions][$not_in][0]=redemption_rollback'))).toEqual(new Set(all));

    // Fields combine by the junction: `and` by default (and written out), `or` on request.
    const both = `filters[voucher_code][conditions][$is]=R-OPEN&filters[customer_id][conditions][$is]=${customerId}`;
    expect(ids(await list(both))).toEqual(new Set([child(stacked, 1)]));
    expect(ids(await list(`filters[junction]=and&${both}`))).toEqual(new Set([child(stacked, 1)]));
    expect(ids(await list(`filters[junction]=OR&${both}&limit=100`))).toEqual(
      new Set([stacked.parentRedemptionId, child(stacked), child(stacked, 1), child(second)]),
    );
    // Plain parameters narrow the filters further.
    expect(ids(await list('voucher=R-LIMITED&filters[customer_id][conditions][$is_unknown]='))).toEqual(new Set([child(third)]));

    // Pages of a filtered list.
    const first = await list('limit=2&filters[voucher_code][conditions][$is_not]=R-OPEN');
    expect(ids(first)).toEqual(new Set([third.parentRedemptionId, child(third)]));
    expect(first.json).toMatchObject({ has_more: true });
    // The stacked parent and its R-LIMITED child share one creation time: pages 2 and 3 split them by their random ids.
    const middle = await list('limit=2&page=2&filters[voucher_code][conditions][$is_not]=R-OPEN');
    const last = await list('limit=2&page=3&filters[voucher_code][conditions][$is_not]=R-OPEN');
    expect(ids(last).size).toBe(1);
    expect(new Set([...ids(middle), ...ids(last)])).toEqual(new Set([second.parentRedemptionId, stacked.parentRedemptionId, child(stacked)]));
    expect(last.json).toMatchObject({ has_more: false });
  });

  it('refuses unknown fields and operators by name, and a page its bound cannot fill', async () => {
    const { list, runtime, projectId, stacked, child } = await redeemed();
    const unknownField = await list('filters[voucher][conditions][$is]=R-OPEN');
    expect(unknownField.status).toBe(400);
    expect(unknownField.json).toMatchObject({ key: 'invalid_query_params' });
    expect(JSON.stringify(unknownField.json)).toContain('filters.voucher');
    expect(JSON.stringify(unknownField.json)).toContain('is not a filter of redemptions');
    const unknownOperator = await list('filters[voucher_code][conditions][$after]=R-OPEN');
    expect(unknownOperator.status).toBe(400);
    expect(JSON.stringify(unknownOperator.json)).toContain('$after');
    const noOperator = await list('filters[voucher_code][conditions]=');
    expect(noOperator.status).toBe(400);
    expect((await list('filters[junction]=xor&filters[voucher_code][conditions][$is]=R-OPEN')).status).toBe(400);

    // The stacked entries are the oldest: 3 entries read from the newest do not reach them.
    const query = z.parse(listRedemptionsQuery, { limit: '1', 'filters[parent_redemption_id][conditions][$is]': stacked.parentRedemptionId });
    await expect(listRedemptions(runtime, projectId, query, 3)).rejects.toMatchObject({
      key: 'invalid_query_params',
      details: expect.stringContaining('filters[parent_redemption_id] ($is): applied to the redemptions read, and the 3 read (at most 3) do not fill page 1'),
    });
    // Its two children share one creation time, so which of them comes first rests on their random ids.
    const firstOfParent = (await listRedemptions(runtime, projectId, query, 7)).redemptions.map((r) => r.id);
    expect(firstOfParent).toHaveLength(1);
    expect([child(stacked, 0), child(stacked, 1)]).toContain(firstOfParent[0]);
    // The plain `campaign` filter reads the campaign's own index (issue 41 item 6): no bound applies.
    const campaign = z.parse(listRedemptionsQuery, { campaign: 'camp_summer' });
    expect(new Set((await listRedemptions(runtime, projectId, campaign, 3)).redemptions.map((r) => r.id))).toEqual(
      new Set([child(stacked), child(stacked, 1)]),
    );
  });

  it("reads a campaign's redemptions from its index, however many other redemptions the project has (issue 41 item 6)", async () => {
    const { list, runtime, projectId, stacked, child, third } = await redeemed();
    // 2,100 newer redemptions of another campaign, seeded as stored items: the project's list would read them all first.
    const template = (await getRedemptions(runtime, projectId, [child(third)]))[0] as Redemption;
    const others = Array.from({ length: 2_100 }, (_, i) => ({
      ...template,
      id: `r_other_${i}`,
      campaignId: 'camp_other',
      date: `2099-01-01T00:00:${String(i % 60).padStart(2, '0')}.000Z`,
    }));
    for (let i = 0; i < others.length; i += 25) {
      await runtime.ddb.send(
        new BatchWriteCommand({
          RequestItems: { [runtime.tableName]: others.slice(i, i + 25).map((r) => ({ PutRequest: { Item: entities.redemption.toItem(r) } })) },
        }),
      );
    }
    for (const query of ['campaign=camp_summer', 'filters[related_object_parent_id][conditions][$is]=camp_summer']) {
      const page = await list(`limit=10&${query}`);
      expect(page.status).toBe(200);
      expect(ids(page)).toEqual(new Set([child(stacked), child(stacked, 1)]));
      expect(page.json).toMatchObject({ total: 2, has_more: false });
    }
    // By name: the campaign the name belongs to now.
    await runtime.ddb.send(
      new PutCommand({ TableName: runtime.tableName, Item: entities.campaignName.toItem({ campaignId: 'camp_summer' }, projectId, 'Summer') }),
    );
    expect(ids(await list('campaign=Summer'))).toEqual(new Set([child(stacked), child(stacked, 1)]));
    expect((await list('limit=100&campaign=camp_other')).json).toMatchObject({ has_more: true });
  });

  it('lists a redemption written before the campaign index once `backfill redemption-campaigns` gave it its entry', async () => {
    const table = await createOwnTable('redemption-campaign-backfill');
    onTestFinished(() => table.drop());
    const runtime = testRuntime({ tableName: table.tableName });
    const projectId = 'proj_backfill';
    const stored = (id: string, campaignId: string | null) =>
      ({
        id,
        projectId,
        object: 'redemption',
        date: '2026-01-01T00:00:00.000Z',
        campaignId,
        customerId: null,
        relatedObjectId: 'v_1',
      }) as unknown as Redemption;
    // As redemptions were written before: no GSI4 attributes; one of them names no campaign.
    for (const r of [stored('r_old', 'camp_a'), stored('r_parent', null)]) {
      const { GSI4PK: _pk, GSI4SK: _sk, ...item } = entities.redemption.toItem(r) as Record<string, unknown>;
      await runtime.ddb.send(new PutCommand({ TableName: runtime.tableName, Item: item }));
    }
    const byCampaign = z.parse(listRedemptionsQuery, { campaign: 'camp_a' });
    expect((await listRedemptions(runtime, projectId, byCampaign)).redemptions).toEqual([]);
    expect(await backfillRedemptionCampaigns(runtime, projectId)).toEqual({ found: 1, updated: 1, gone: 0 });
    expect((await listRedemptions(runtime, projectId, byCampaign)).redemptions.map((r) => r.id)).toEqual(['r_old']);
    expect(await backfillRedemptionCampaigns(runtime, projectId)).toEqual({ found: 0, updated: 0, gone: 0 });
  });
});
