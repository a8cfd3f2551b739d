import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { VoucherCampaign } from '../../../lib/campaigns/campaign.js';
import { ManualClock } from '../../../lib/clock.js';
import { randomIds } from '../../../lib/ids.js';
import { resolveCodeConfig } from '../../../lib/vouchers/code-generator.js';
import { addVoucherWithCode, generateVouchers } from '../../../lib/vouchers/voucher-generation.js';

const campaign: VoucherCampaign = {
  id: 'camp_1',
  projectId: 'proj_1',
  name: 'C',
  description: null,
  campaignType: 'DISCOUNT_COUPONS',
  type: 'AUTO_UPDATE',
  voucher: {
    type: 'DISCOUNT_VOUCHER',
    discount: { type: 'PERCENT', percentOff: 10 },
    gift: null,
    loyaltyCard: null,
    redemptionQuantity: null,
    codeConfig: resolveCodeConfig({ pattern: 'U-####' }),
    isReferralCode: false,
  },
  referralProgram: null,
  promotionTiers: null,
  autoJoin: false,
  joinOnce: false,
  useVoucherMetadataSchema: false,
  activityDurationAfterPublishing: null,
  vouchersCount: 0,
  active: true,
  metadata: {},
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  creationStatus: 'DONE',
  vouchersGenerationStatus: 'DONE',
  protected: false,
  category: null,
  startDate: null,
  expirationDate: null,
  validityTimeframe: null,
  validityDayOfWeek: null,
  validityHours: null,
};

/** A fake table client answering each transaction with the next scripted outcome (undefined = success). */
function scripted(...outcomes: (string[] | undefined)[]) {
  const seen: number[] = [];
  const ddb = {
    send: async (command: TransactWriteCommand) => {
      const items = command.input.TransactItems ?? [];
      seen.push(items.length);
      const codes = outcomes[seen.length - 1];
      if (codes) throw new TransactionCanceledException({ message: 'x', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });
      return {};
    },
  } as unknown as DynamoDBDocumentClient;
  return { deps: { ddb, tableName: 't', clock: new ManualClock(0), ids: randomIds }, seen };
}

describe('generateVouchers', () => {
  it('retries a transaction that lost a race on the campaign counter, writing the same vouchers', async () => {
    const { deps, seen } = scripted(['None', 'None', 'TransactionConflict']);
    const made = await generateVouchers(deps, campaign, 1, { category: null });
    expect(made).toHaveLength(1);
    expect(seen).toEqual([4, 4]);
  });

  it('replaces only the codes found taken and keeps the rest of the batch', async () => {
    const { deps, seen } = scripted(['None', 'None', 'ConditionalCheckFailed', 'None', 'None']);
    const made = await generateVouchers(deps, campaign, 2, { category: null });
    expect(made).toHaveLength(2);
    expect(new Set(made.map((v) => v.code)).size).toBe(2);
    expect(seen).toEqual([6, 6]);
  });

  it('splits large requests into transactions of at most 100 items', async () => {
    const { deps, seen } = scripted();
    const made = await generateVouchers(deps, campaign, 100, { category: null });
    expect(made).toHaveLength(100);
    expect(seen).toEqual([98, 98, 10]);
  });
});

describe('addVoucherWithCode', () => {
  it('retries a conflict and then reports a taken code as a duplicate', async () => {
    const { deps } = scripted(['None', 'None', 'TransactionConflict'], ['ConditionalCheckFailed', 'None', 'None']);
    await expect(addVoucherWithCode(deps, campaign, 'TAKEN', { category: null })).rejects.toMatchObject({ status: 409, key: 'duplicate_found' });
  });
});
