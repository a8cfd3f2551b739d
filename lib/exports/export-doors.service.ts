import type { Campaign } from '../campaigns/campaign.js';
import { loadCampaign } from '../campaigns/campaign.service.js';
import { transactionsCampaign } from '../campaigns/transactions-campaign.js';
import { NotFoundError } from '../errors.js';
import type { JobQueue } from '../jobs/job.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from '../vouchers/voucher.js';
import { loadVoucher } from '../vouchers/voucher.service.js';
import type { Export } from './export.js';
import type { CreateOrderExportBody, ExportTransactionsBody, ExportVoucherTransactionsBody } from './export.schema.js';
import { scheduleExport } from './export.service.js';

/**
 * The specific export doors of the reference (issue 38): each is POST /v1/exports of one object
 * with its scope taken from the path. The scope is stored apart from the request's filters
 * (`Export.campaignId`, `Export.voucherId`), so a `junction: "or"` cannot widen it; the reply's
 * `parameters.filters` names it as Voucherify's replies do (`voucher_id` / `campaign_id` `$in`).
 */

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids' | 'logger'> & { jobs: JobQueue };

/** A filter echo naming one value, as the reference's replies show a door's scope. */
const pin = (id: string) => ({ conditions: { $in: [id] } });

/** POST /v1/orders/export: an `order` export (an empty body: id, source_id, status, newest first). */
export function createOrderExport(deps: Deps, projectId: string, body: CreateOrderExportBody, createdByAppId: string): Promise<Export> {
  const p = body.parameters ?? {};
  return scheduleExport(deps, projectId, 'order', p, { campaignId: null, voucherId: null, echo: p }, createdByAppId);
}

/** A voucher_transactions export bounded by a campaign and/or a voucher. */
function transactionsExport(
  deps: Deps,
  projectId: string,
  scope: { campaignId: string | null; voucherId: string | null },
  parameters: ExportTransactionsBody['parameters'],
  createdByAppId: string,
): Promise<Export> {
  const p = parameters ?? {};
  const scopeFilters =
    scope.voucherId !== null ? { voucher_id: pin(scope.voucherId) } : scope.campaignId !== null ? { campaign_id: pin(scope.campaignId) } : {};
  const echo = { ...p, filters: { ...p.filters, ...scopeFilters } };
  return scheduleExport(deps, projectId, 'voucher_transactions', p, { ...scope, echo }, createdByAppId);
}

/**
 * POST /v1/vouchers/{code}/transactions/export: the voucher's transactions (a gift card's credit
 * changes, a loyalty card's point changes; none for other vouchers: a header-only file).
 * @throws NotFoundError (voucher).
 */
export async function exportVoucherTransactions(
  deps: Deps,
  projectId: string,
  codeOrId: string,
  body: ExportVoucherTransactionsBody,
  createdByAppId: string,
): Promise<Export> {
  const voucher = await loadVoucher(deps, projectId, codeOrId);
  return transactionsExport(deps, projectId, { campaignId: null, voucherId: voucher.id }, body.parameters, createdByAppId);
}

/**
 * POST /v1/campaigns/{campaignId}/transactions/export: the transactions of every card of a gift
 * card or loyalty campaign.
 * @throws NotFoundError (campaign), InvalidCampaignError (a campaign of another type).
 */
export async function exportCampaignTransactions(
  deps: Deps,
  projectId: string,
  campaignRef: string,
  body: ExportTransactionsBody,
  createdByAppId: string,
): Promise<Export> {
  const campaign = await transactionsCampaign(deps, projectId, campaignRef);
  return transactionsExport(deps, projectId, { campaignId: campaign.id, voucherId: null }, body.parameters, createdByAppId);
}

/** A loyalty program by id or name. @throws NotFoundError when there is none, or the campaign is another type (as the loyalty reads answer). */
async function loyaltyCampaign(deps: Deps, projectId: string, ref: string): Promise<Campaign> {
  const campaign = await loadCampaign(deps, projectId, ref);
  if (campaign.campaignType !== 'LOYALTY_PROGRAM') throw new NotFoundError('campaign', ref);
  return campaign;
}

/**
 * POST /v1/loyalties/{campaignId}/transactions/export: the transactions of every card of a loyalty program.
 * @throws NotFoundError (campaign; a campaign that is no loyalty program).
 */
export async function exportLoyaltyCampaignTransactions(
  deps: Deps,
  projectId: string,
  campaignRef: string,
  body: ExportTransactionsBody,
  createdByAppId: string,
): Promise<Export> {
  const campaign = await loyaltyCampaign(deps, projectId, campaignRef);
  return transactionsExport(deps, projectId, { campaignId: campaign.id, voucherId: null }, body.parameters, createdByAppId);
}

/**
 * POST /v1/loyalties/members/{memberId}/transactions/export and
 * POST /v1/loyalties/{campaignId}/members/{memberId}/transactions/export: one loyalty card's
 * transactions (of that program, when one is named).
 * @throws NotFoundError (campaign; voucher: no loyalty card, or a card of another program).
 */
export async function exportLoyaltyCardTransactions(
  deps: Deps,
  projectId: string,
  campaignRef: string | null,
  memberId: string,
  body: ExportTransactionsBody,
  createdByAppId: string,
): Promise<Export> {
  const [campaign, card] = await Promise.all([
    campaignRef === null ? null : loyaltyCampaign(deps, projectId, campaignRef),
    loadVoucher(deps, projectId, memberId).catch((error: unknown): Voucher | null => {
      if (error instanceof NotFoundError) return null;
      throw error;
    }),
  ]);
  if (!card?.loyaltyCard || !card.campaignId || (campaign && card.campaignId !== campaign.id)) throw new NotFoundError('voucher', memberId);
  return transactionsExport(deps, projectId, { campaignId: card.campaignId, voucherId: card.id }, body.parameters, createdByAppId);
}
