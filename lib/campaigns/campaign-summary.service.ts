import type { Runtime } from '../runtime.js';
import type { Campaign } from './campaign.js';
import { loadCampaign } from './campaign.service.js';
import { type CampaignSummaryTotals, summaryDay } from './campaign-summary.js';
import { readCampaignSummary } from './campaign-summary.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/**
 * `get-campaign-summary`: the campaign (by id or name) and its counters summed over the UTC days of
 * `start_date` … `end_date` (both included; an instant stands for its day; either open).
 * @throws NotFoundError when the project has no such campaign.
 */
export async function getCampaignSummary(
  deps: Deps,
  projectId: string,
  idOrName: string,
  range: { start_date?: string; end_date?: string },
): Promise<{ campaign: Campaign; totals: CampaignSummaryTotals }> {
  const campaign = await loadCampaign(deps, projectId, idOrName);
  const totals = await readCampaignSummary(deps, projectId, campaign.id, {
    ...(range.start_date !== undefined ? { startDay: summaryDay(range.start_date) } : {}),
    ...(range.end_date !== undefined ? { endDay: summaryDay(range.end_date) } : {}),
  });
  return { campaign, totals };
}
