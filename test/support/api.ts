import { lambdaContext } from '../../infra/local/api-gateway-event.js';
import { toSqsRecord } from '../../infra/local/sqs-poller.js';
import type { IssuedKeyPair } from '../../lib/app-keys/app-key.service.js';
import type { JobMessage, JobQueue } from '../../lib/jobs/job.js';
import type { Runtime } from '../../lib/runtime.js';
import { apiClient } from './api-client.js';
import { makeJobWorkers } from './job-workers.js';
import { keyPairHeaders } from './runtime.js';

export { callRoute } from './api-client.js';

/** A jobs queue that keeps what it is given (nothing runs it): for tests that deliver jobs by hand. */
export class RecordingJobQueue implements JobQueue {
  readonly sent: JobMessage[] = [];
  async send(job: JobMessage): Promise<void> {
    this.sent.push(job);
  }

  /** Hands every job recorded so far to the real job workers (each to the worker of its queue), once each, as one SQS batch. */
  async deliver(runtime: Runtime): Promise<void> {
    const jobs = this.sent.splice(0);
    if (jobs.length === 0) return;
    const Records = jobs.map((job, i) =>
      toSqsRecord(
        { MessageId: `job-${i}`, ReceiptHandle: `r-${i}`, Body: JSON.stringify(job), Attributes: { ApproximateReceiveCount: '1' } },
        'arn:aws:sqs:local:000000000000:jobs',
      ),
    );
    const result = await makeJobWorkers({ runtime })({ Records }, lambdaContext('jobs-worker'));
    if (result.batchItemFailures.length > 0) throw new Error(`worker failed ${result.batchItemFailures.length} job(s)`);
  }
}

/**
 * The campaign and voucher endpoints of one runtime, called with one project's key pair (or other
 * headers). Bulk generation enqueues on `jobs` (default: a queue that only records).
 */
export function campaignApi(runtime: Runtime, pair: IssuedKeyPair, jobs: JobQueue = new RecordingJobQueue()) {
  const api = apiClient({ runtime, jobs }, keyPairHeaders(pair));
  const auth = keyPairHeaders(pair);
  return {
    createCampaign: (json: unknown, headers = auth) => api.call('create-campaign', { json, headers }),
    listCampaigns: (query = '', headers = auth) => api.call('list-campaigns', { query, headers }),
    getCampaign: (ref: string, headers = auth) => api.call('get-campaign', { params: { campaignId: ref }, headers }),
    addVoucher: (ref: string, json: unknown = {}, query = '', headers = auth) =>
      api.call('add-vouchers-to-campaign', { params: { campaignId: ref }, json, query, headers }),
    getVoucher: (code: string, headers = auth) => api.call('get-voucher', { params: { code }, headers }),
    deleteVoucher: (code: string, query = '', headers = auth) => api.call('delete-voucher', { params: { code }, query, headers }),
    listBinEntries: (query = '', headers = auth) => api.call('list-bin-entries', { query, headers }),
    getAsyncAction: (id: string, headers = auth) => api.call('get-async-action', { params: { asyncActionId: id }, headers }),
  };
}

export type CampaignApi = ReturnType<typeof campaignApi>;

/** A valid creation body for each campaign type. */
export const campaignBodies = {
  DISCOUNT_COUPONS: (name: string) => ({
    name,
    campaign_type: 'DISCOUNT_COUPONS',
    voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } },
  }),
  GIFT_VOUCHERS: (name: string) => ({
    name,
    campaign_type: 'GIFT_VOUCHERS',
    voucher: { type: 'GIFT_VOUCHER', gift: { amount: 5000, effect: 'APPLY_TO_ORDER' } },
  }),
  LOYALTY_PROGRAM: (name: string) => ({
    name,
    campaign_type: 'LOYALTY_PROGRAM',
    voucher: {
      type: 'LOYALTY_CARD',
      loyalty_card: { points: 100, expiration_rules: { period_type: 'MONTH', period_value: 3, rounding_type: 'END_OF_YEAR' } },
    },
  }),
  REFERRAL_PROGRAM: (name: string) => ({
    name,
    campaign_type: 'REFERRAL_PROGRAM',
    referral_program: { conversion_event_type: 'redemption' },
    voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 500 } },
  }),
  PROMOTION: (name: string) => ({
    name,
    campaign_type: 'PROMOTION',
    promotion: {
      tiers: [
        { name: 'Tier A', banner: '10% off', action: { discount: { type: 'PERCENT', percent_off: 10 } } },
        { name: 'Tier B', action: { discount: { type: 'AMOUNT', amount_off: 3000, effect: 'APPLY_TO_ORDER' } }, metadata: { level: 'B' } },
      ],
    },
  }),
} as const;

/** Creates a discount campaign (optionally with a voucher template code_config) and returns its id. */
export async function newCampaign(
  api: CampaignApi,
  body: Record<string, unknown> = campaignBodies.DISCOUNT_COUPONS('Campaign'),
): Promise<Record<string, unknown>> {
  const reply = await api.createCampaign(body);
  if (reply.status !== 200) throw new Error(`campaign not created: ${JSON.stringify(reply.json)}`);
  return reply.json;
}
