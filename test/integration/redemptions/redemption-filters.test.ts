import { describe, expect, it } from 'vitest';
import * as z from '../../../lib/zod.js';
import { commitRedemption } from '../../../lib/redemptions/redemption.repo.js';
import { listRedemptionsQuery } from '../../../lib/redemptions/redemption.schema.js';
import { listRedemptions } from '../../../lib/redemptions/redemption.service.js';
import { makeVoucher, planFor } from '../../support/redeem.js';
import { publicationSetup } from '../publications/support.js';

type Json = Record<string, unknown>;
const ids = (reply: { json: unknown }) => new Set(((reply.json as Json).redemptions as Json[]).map((r) => r.id));

/**
 * Seven entries a second apart: a stacked redemption (parent + R-LIMITED and R-OPEN children, with a
 * customer and a campaign), then R-OPEN alone, then R-LIMITED alone (each a parent + child).
 */
async function redeemed() {
  const setup = await publicationSetup();
  const { runtime, api, projectId, clock } = setup;
  const customer = await api.call('create-customer', { json: { source_id: 'filter-buyer', metadata: { tier: 'gold' } } });
  const customerId = (customer.json as Json).id as string;
  const limited = await makeVoucher(runtime, api, projectId, 'R-LIMITED', { redemption: { quantity: 5 } });
  const open = await makeVoucher(runtime, api, projectId, 'R-OPEN');
  const stacked = planFor(runtime, projectId, [limited, open], { customer: { id: customerId, sourceId: 'filter-buyer' } });
  for (const r of stacked.redeemables) r.campaignId = 'camp_summer';
  await commitRedemption(runtime, stacked);
  clock.advance(1000);
  const second = planFor(runtime, projectId, [open]);
  await commitRedemption(runtime, second);
  clock.advance(1000);
  const third = planFor(runtime, projectId, [limited]);
  await commitRedemption(runtime, third);
  clock.advance(1000);
  const child = (plan: typeof stacked, i = 0) => plan.redeemables[i]?.redemptionId as string;
  const list = (query: string) => api.call('list-redemptions', { query });
  return { ...setup, list, customerId, limited, open, stacked, second, third, child };
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
    const last = await list('limit=2&page=3&filters[voucher_code][conditions][$is_not]=R-OPEN');
    expect(ids(last)).toEqual(new Set([stacked.parentRedemptionId]));
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
    expect((await listRedemptions(runtime, projectId, query, 7)).redemptions.map((r) => r.id)).toEqual([child(stacked, 1)]);
    // The same bound holds for the plain `campaign` filter, which used to answer short.
    const campaign = z.parse(listRedemptionsQuery, { campaign: 'camp_summer' });
    await expect(listRedemptions(runtime, projectId, campaign, 3)).rejects.toMatchObject({ details: expect.stringContaining('campaign:') });
  });
});
