import { describe, expect, it } from 'vitest';
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
    // The same bound holds for the plain `campaign` filter, which used to answer short.
    const campaign = z.parse(listRedemptionsQuery, { campaign: 'camp_summer' });
    await expect(listRedemptions(runtime, projectId, campaign, 3)).rejects.toMatchObject({ details: expect.stringContaining('campaign:') });
  });
});
