// Kept apart from referee-reward.ts: campaign creation needs only the checks, and this module
// brings voucher publication and loyalty planning into a bundle.
import type { TransactItem } from '../db/transact.js';
import { CodeSpaceExhaustedError, NotFoundError } from '../errors.js';
import { expiryOf, todayOf } from '../loyalties/expiration.js';
import { planChange } from '../loyalties/loyalty-card.js';
import { newBucket, type PointsBucket } from '../loyalties/points-bucket.js';
import { bucketItem } from '../loyalties/points-bucket.repo.js';
import type { Runtime } from '../runtime.js';
import { CodeSampler } from '../vouchers/code-generator.js';
import type { Voucher } from '../vouchers/voucher.js';
import { newVoucher } from '../vouchers/voucher-generation.js';
import { getHeldVoucher, putHeldVoucherItem } from '../vouchers/voucher-holder.repo.js';
import { countVouchersItem, creditGiftItem, voucherPutItems } from '../vouchers/voucher.repo.js';
import type { RefereeReward } from './referee-reward.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/**
 * What one commit attempt writes for the reward: points for a card the referee holds (a bucket
 * the caller adds to that card's points change, with any earning of the same event), or
 * complete transaction items (credits on a held gift voucher; a new voucher published to them).
 */
export type RewardWrites = { voucher: Pick<Voucher, 'id' | 'code'> } & (
  | { kind: 'points'; code: string; bucket: PointsBucket }
  | { kind: 'items'; items: TransactItem[] /** A loyalty card published with the points: the caller records its POINTS_ACCRUAL. */; newCard?: Voucher }
);

/** Positions in a publication's items (see RefereeRewardIssuer.writes). */
const NEW_VOUCHER = 0;
const PARENT_COUNTER = 2;

/**
 * Carries out one event's referee reward, attempt after attempt of its commit. The bucket id is
 * fixed once, so however often the commit is retried the points land once; a publication draws
 * its code from the parent's `code_config` and draws another only when the last one was taken.
 */
export class RefereeRewardIssuer {
  private readonly bucketId: string;
  /** The id of the card transaction recording the points (a loyalty card reward), fixed across attempts. */
  readonly transactionId: string;
  private readonly sampler: CodeSampler;
  private candidate: string | null = null;

  constructor(
    private readonly deps: Deps & Pick<Runtime, 'clock' | 'ids'>,
    readonly reward: RefereeReward,
    private readonly now: Date,
  ) {
    this.bucketId = deps.ids.id('lopb');
    this.transactionId = deps.ids.id('vtx');
    this.sampler = new CodeSampler(reward.parent.voucher.codeConfig, 1);
  }

  /**
   * The writes giving the reward to `refereeId`. A voucher the referee holds in the parent
   * (found by the holder item) gets the points or credits; without one, a new voucher of the
   * parent is published to them: the voucher, its id pointer, `vouchersCount + 1` and the holder
   * item (whose condition makes a concurrent second publication fail), plus its points bucket.
   * @throws CodeSpaceExhaustedError when the parent's code pattern has no free code left.
   */
  async writes(refereeId: string, referrerId: string): Promise<RewardWrites> {
    const { parent, type, amount } = this.reward;
    const held = await getHeldVoucher(this.deps, parent.projectId, refereeId, parent.id);
    const at = this.now.toISOString();
    if (held.voucher) {
      const { id, code } = held.voucher;
      if (type === 'LOYALTY_CARD') return { voucher: { id, code }, kind: 'points', code, bucket: this.bucketFor(held.voucher) };
      return { voucher: { id, code }, kind: 'items', items: [creditGiftItem(this.deps, held.voucher, amount, at)] };
    }
    const voucher: Voucher = { ...newVoucher(this.deps, parent, this.code(), { category: null }), holderId: refereeId, referrerId, publishCount: 1 };
    const extra: TransactItem[] = [];
    if (type === 'LOYALTY_CARD' && voucher.loyaltyCard) {
      const bucket = this.bucketFor(voucher);
      voucher.loyaltyCard = planChange({ card: voucher.loyaltyCard, buckets: [] }, { kind: 'add', buckets: [bucket] }, todayOf(this.now)).card;
      extra.push({ Put: { TableName: this.deps.tableName, Item: bucketItem(bucket), ConditionExpression: 'attribute_not_exists(PK)' } });
    } else if (voucher.gift) {
      voucher.gift = { ...voucher.gift, amount: voucher.gift.amount + amount, balance: voucher.gift.balance + amount };
    }
    return {
      voucher: { id: voucher.id, code: voucher.code },
      kind: 'items',
      items: [
        ...voucherPutItems(this.deps, parent.id, voucher),
        countVouchersItem(this.deps, parent.projectId, parent.id, 1),
        putHeldVoucherItem(this.deps, voucher, held.staleVoucherId),
        ...extra,
      ],
      ...(type === 'LOYALTY_CARD' ? { newCard: voucher } : {}),
    };
  }

  /**
   * After a failed commit, given the positions (within this issuer's items) whose condition
   * failed: a taken code is replaced on the next attempt; anything else is a race to re-read.
   * @throws NotFoundError (campaign) when the parent campaign is gone.
   */
  failed(positions: number[]): void {
    if (positions.includes(PARENT_COUNTER)) throw new NotFoundError('campaign', this.reward.parent.id);
    if (positions.includes(NEW_VOUCHER)) this.candidate = null;
  }

  private code(): string {
    if (this.candidate === null) this.candidate = this.sampler.next();
    if (this.candidate === null) {
      throw new CodeSpaceExhaustedError(`No free code left in campaign ${this.reward.parent.name} to publish a referee reward`);
    }
    return this.candidate;
  }

  private bucketFor(card: Voucher): PointsBucket {
    const rules = this.reward.parent.voucher.loyaltyCard?.expirationRules;
    const at = this.now.toISOString();
    return { ...newBucket(this.deps, card, this.reward.amount, expiryOf(rules, this.now), at), id: this.bucketId };
  }
}
