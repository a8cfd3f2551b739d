import type { AsyncAction } from '../async-actions/async-action.js';
import { assertGeneratesVouchers } from '../campaigns/campaign.js';
import { loadCampaign } from '../campaigns/campaign.service.js';
import type { JobQueue } from '../jobs/job.js';
import type { Runtime } from '../runtime.js';
import { enqueueVoucherImport } from './voucher-import-job.js';
import type { ImportVouchersBody } from './voucher-import.schema.js';
import { NO_CAMPAIGN } from './voucher.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'> & { jobs: JobQueue };

/**
 * POST /v1/campaigns/{campaignId}/import: an async action (CAMPAIGN.VOUCHERS_IMPORT) that adds the
 * listed vouchers to the campaign; each code that cannot be written (taken, invalid, of another
 * type) is reported in its result.
 * @throws NotFoundError (campaign), InvalidCampaignError (a campaign without vouchers), Error (queue unavailable).
 */
export async function importVouchersToCampaign(
  deps: Deps,
  projectId: string,
  campaignRef: string,
  body: ImportVouchersBody,
  requestId: string,
): Promise<AsyncAction> {
  const campaign = await loadCampaign(deps, projectId, campaignRef);
  assertGeneratesVouchers(campaign);
  return enqueueVoucherImport(deps, projectId, 'CAMPAIGN.VOUCHERS_IMPORT', campaign.id, body, requestId);
}

/**
 * POST /v1/vouchers/import: an async action (VOUCHERS.IMPORT) that creates the listed standalone vouchers.
 * @throws Error (queue unavailable).
 */
export function importVouchers(deps: Deps, projectId: string, body: ImportVouchersBody, requestId: string): Promise<AsyncAction> {
  return enqueueVoucherImport(deps, projectId, 'VOUCHERS.IMPORT', NO_CAMPAIGN, body, requestId);
}
