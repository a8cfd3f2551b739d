import { InvalidCampaignError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { Campaign } from './campaign.js';
import { loadCampaign } from './campaign.service.js';

/**
 * A campaign whose cards keep transactions (GIFT_VOUCHERS, LOYALTY_PROGRAM), by id or name: the
 * campaigns GET /v1/campaigns/{campaignId}/transactions and its export answer for.
 * @throws NotFoundError, InvalidCampaignError (a campaign of another type).
 */
export async function transactionsCampaign(deps: Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>, projectId: string, ref: string): Promise<Campaign> {
  const campaign = await loadCampaign(deps, projectId, ref);
  if (campaign.campaignType !== 'GIFT_VOUCHERS' && campaign.campaignType !== 'LOYALTY_PROGRAM') {
    throw new InvalidCampaignError(
      `Transactions are kept for GIFT_VOUCHERS and LOYALTY_PROGRAM campaigns only; ${campaign.id} is a ${campaign.campaignType} campaign`,
    );
  }
  return campaign;
}
