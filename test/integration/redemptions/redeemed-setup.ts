import { PutCommand } from '@aws-sdk/lib-dynamodb';
import * as entities from '../../../lib/db/entities.js';
import { commitRedemption } from '../../../lib/redemptions/redemption.repo.js';
import { makeVoucher, planFor } from '../../support/redeem.js';
import { publicationSetup } from '../publications/support.js';

type Json = Record<string, unknown>;

/**
 * A project with two vouchers and three redemptions a second apart: one stacked (R-LIMITED and R-OPEN, with a
 * customer of `customer.source_id` and the campaign `camp_summer`), then R-OPEN alone, then R-LIMITED alone.
 */
export async function redeemedSetup(customer: { source_id: string; metadata?: Json }, orderSourceId?: string) {
  const setup = await publicationSetup();
  const { runtime, api, projectId, clock } = setup;
  const created = await api.call('create-customer', { json: customer });
  const customerId = (created.json as Json).id as string;
  const limited = await makeVoucher(runtime, api, projectId, 'R-LIMITED', { redemption: { quantity: 5 } });
  const open = await makeVoucher(runtime, api, projectId, 'R-OPEN');
  const stacked = planFor(runtime, projectId, [limited, open], {
    customer: { id: customerId, sourceId: customer.source_id },
    ...(orderSourceId ? { orderSourceId } : {}),
  });
  for (const r of stacked.redeemables) r.campaignId = 'camp_summer';
  // A redemption checks its campaign in its own transaction: the campaign it names must exist and be active.
  await runtime.ddb.send(new PutCommand({ TableName: runtime.tableName, Item: { ...entities.campaign.key(projectId, 'camp_summer'), active: true } }));
  await commitRedemption(runtime, stacked);
  clock.advance(1000);
  const second = planFor(runtime, projectId, [open]);
  await commitRedemption(runtime, second);
  clock.advance(1000);
  const third = planFor(runtime, projectId, [limited]);
  await commitRedemption(runtime, third);
  clock.advance(1000);
  return { ...setup, customerId, limited, open, stacked, second, third };
}
