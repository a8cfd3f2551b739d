import type { AsyncAction } from '../async-actions/async-action.js';
import { assertGeneratesVouchers } from '../campaigns/campaign.js';
import { loadCampaign } from '../campaigns/campaign.service.js';
import type { JobQueue } from '../jobs/job.js';
import type { Runtime } from '../runtime.js';
import { enqueueVoucherImport } from '../vouchers/voucher-import-job.js';
import { MAX_IMPORT_VOUCHERS } from '../vouchers/voucher-import.schema.js';
import { NO_CAMPAIGN } from '../vouchers/voucher.repo.js';
import { readCsvFile } from './csv-file.js';
import { mapRows } from './csv-values.js';
import type { ImportCsvBody } from './import.schema.js';
import { campaignVoucherRow, standaloneVoucherRow, voucherCodeOf } from './voucher-csv.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'> & { jobs: JobQueue };

/**
 * POST /v1/vouchers/importCSV: the file's rows become an import of standalone vouchers
 * (VOUCHERS.IMPORT_CSV), written by the jobs worker like POST /v1/vouchers/import. A row that does
 * not map (a bad value, a missing code) and a code the job cannot write (taken, repeated) are
 * failures in the action's result; the others are imported.
 * @throws InvalidPayloadError (400) naming the line of a file that is not CSV or has over MAX_IMPORT_VOUCHERS rows; Error (queue unavailable).
 */
export async function importVouchersUsingCsv(deps: Deps, projectId: string, body: ImportCsvBody, requestId: string): Promise<AsyncAction> {
  const { items, failed } = mapRows(readCsvFile(body.file, MAX_IMPORT_VOUCHERS).rows, voucherCodeOf, standaloneVoucherRow);
  return enqueueVoucherImport(
    deps,
    projectId,
    'VOUCHERS.IMPORT_CSV',
    NO_CAMPAIGN,
    items.map((i) => i.item),
    requestId,
    failed,
  );
}

/**
 * POST /v1/campaigns/{campaignId}/importCSV: as importVouchersUsingCsv, into the campaign
 * (CAMPAIGN.VOUCHERS_IMPORT_CSV); the vouchers take the campaign's type, benefit and dates.
 * @throws NotFoundError (campaign), InvalidCampaignError (a campaign without vouchers), InvalidPayloadError (the file), Error (queue).
 */
export async function importVouchersToCampaignUsingCsv(
  deps: Deps,
  projectId: string,
  campaignRef: string,
  body: ImportCsvBody,
  requestId: string,
): Promise<AsyncAction> {
  const campaign = await loadCampaign(deps, projectId, campaignRef);
  assertGeneratesVouchers(campaign);
  const { items, failed } = mapRows(readCsvFile(body.file, MAX_IMPORT_VOUCHERS).rows, voucherCodeOf, campaignVoucherRow);
  return enqueueVoucherImport(
    deps,
    projectId,
    'CAMPAIGN.VOUCHERS_IMPORT_CSV',
    campaign.id,
    items.map((i) => i.item),
    requestId,
    failed,
  );
}
