import { ManualClock } from '../../../lib/clock.js';
import { voucher as voucherEntity } from '../../../lib/db/entities.js';
import type { Runtime } from '../../../lib/runtime.js';
import { PutCommand, type QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Voucher } from '../../../lib/vouchers/voucher.js';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

export const at = Date.UTC(2026, 6, 2, 9, 0, 0);

/** A fresh project with a client for every operation, the campaign helpers, and a publish call. */
export async function publicationSetup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const headers = keyPairHeaders(pair);
  const api = apiClient({ runtime }, headers);
  const campaigns = campaignApi(runtime, pair);
  const publish = (json: unknown, options: { query?: string; headers?: Record<string, string> } = {}) =>
    api.call('create-publication', { json, query: options.query ?? '', headers: { ...headers, ...options.headers } });
  const list = (query = '') => api.call('list-publications', { query });
  /** A campaign (discount coupons unless `body` says otherwise) with `codes` vouchers of those codes. */
  const campaignWith = async (name: string, codes: string[], body: Record<string, unknown> = {}) => {
    const campaign = await newCampaign(campaigns, { ...campaignBodies.DISCOUNT_COUPONS(name), ...body });
    for (const code of codes) {
      const added = await campaigns.addVoucher(campaign.id as string, { code });
      if (added.status !== 200) throw new Error(`voucher ${code} not added: ${JSON.stringify(added.json)}`);
    }
    return campaign;
  };
  return { runtime, pair, headers, api, campaigns, clock, publish, list, campaignWith, projectId: pair.project_id };
}

/** Writes a voucher straight into the table as the voucher entity lays it out (a generic code, which no endpoint makes yet). */
export async function putVoucher(runtime: Runtime, v: Voucher): Promise<void> {
  await runtime.ddb.send(new PutCommand({ TableName: runtime.tableName, Item: voucherEntity.toItem(v, v.campaignId ?? 'none') }));
}

/** A standalone voucher of no campaign, as a test writes it. */
export function standaloneVoucher(projectId: string, code: string, fields: Partial<Voucher> = {}): Voucher {
  return {
    id: `v_${code.replace(/[^0-9A-Za-z]/g, '')}0000000000000000`,
    code,
    projectId,
    campaignId: null,
    campaignName: null,
    category: null,
    type: 'DISCOUNT_VOUCHER',
    discount: { type: 'AMOUNT', amountOff: 500 },
    gift: null,
    loyaltyCard: null,
    startDate: null,
    expirationDate: null,
    validityTimeframe: null,
    validityDayOfWeek: null,
    validityHours: null,
    active: true,
    additionalInfo: null,
    metadata: {},
    isReferralCode: false,
    createdAt: new Date(at).toISOString(),
    updatedAt: null,
    holderId: null,
    referrerId: null,
    redemptionQuantity: null,
    redeemedQuantity: 0,
    redeemedPoints: 0,
    publishCount: 0,
    ...fields,
  };
}

/** Counts the items the runtime's Queries return, by partition (test-only instrumentation, as the customer list tests do). */
export function countingReads(runtime: Runtime) {
  const returned = new Map<string, number>();
  const queries: string[] = [];
  runtime.ddb.middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      const input = args.input as QueryCommand['input'];
      if (input.KeyConditionExpression !== undefined) {
        const pk = String(input.ExpressionAttributeValues?.[':pk']);
        queries.push(pk);
        const items = ((result.output as { Items?: unknown[] }).Items ?? []).length;
        returned.set(pk, (returned.get(pk) ?? 0) + items);
      }
      return result;
    },
    { step: 'initialize', name: 'countQueryItems' },
  );
  return { queries, items: (suffix: string) => [...returned].filter(([pk]) => pk.endsWith(suffix)).reduce((sum, [, n]) => sum + n, 0) };
}
