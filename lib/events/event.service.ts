import { upsertCustomer } from '../customers/customer.service.js';
import { MAX_TRANSACTION_ITEMS, RETRY, retryOnConflict, type TransactItem } from '../db/transact.js';
import { NotFoundError } from '../errors.js';
import { requireEventSchema, validateEventMetadata } from '../custom-event-schemas/event-schema.service.js';
import type { IdempotencyScope } from '../idempotency/idempotency-scope.js';
import { commitOnce, type Committed, recordedReply } from '../idempotency/idempotency.service.js';
import { type Earning, planEarning, planHeldEarnings } from '../loyalties/loyalty-earning.js';
import { type CardTransaction, type CardTransactionDetails, runningCounters } from '../loyalties/card-transaction.js';
import { putCardTransactionItem } from '../loyalties/card-transaction.repo.js';
import { prepareCardChange } from '../loyalties/loyalty.service.js';
import type { PointsBucket } from '../loyalties/points-bucket.js';
import { RefereeRewardIssuer } from '../referrals/referee-reward-issuer.js';
import { withGrantedReward } from '../referrals/referral.repo.js';
import { conversionItems, planReferral } from '../referrals/referral.service.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from '../vouchers/voucher.js';
import type { CustomEvent, TrackedEvent } from './event.js';
import { putEventItem } from './event.repo.js';
import type { TrackEventBody } from './event.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/**
 * POST /v1/events: checks the event against the project's custom event schema, upserts its
 * customer, and stores it. Without `loyalty.code`, every card the customer holds in a program with
 * a rule for the event earns, as `order.paid` finds its card (unless `earnOnHeldCards` is false: a
 * client-side event of a project whose loyalty events are off). With `loyalty.code`, the card's program's earning rules for the event add
 * their points (new buckets, and one POINTS_ACCRUAL card transaction per rule) in the same
 * transaction as the event, so they are added exactly once per stored event; with an
 * Idempotency-Key the event (and its points) is stored once and every retry gets the first reply. With `referral.code`, a referral code of a REFERRAL_PROGRAM converting
 * on this event, the event's customer converts the code for its referrer: recorded in the same
 * transaction, once per (campaign, code, referred customer) however many events or retries come,
 * and the program's referee reward goes to the event's customer in that transaction too (their
 * card or gift voucher in the parent campaign, published to them if they hold none; a card's points
 * with their POINTS_ACCRUAL transaction).
 * @throws NotFoundError (custom_event_schema: the event is not defined; customer: unknown `customer.id`;
 *   voucher: `loyalty.code` is no loyalty card or `referral.code` is unknown; campaign; customer: unknown referrer),
 *   MetadataValidationError, InvalidVoucherError, InvalidCampaignError, BadRequestError, ReferrerNotPermittedError (see planReferral),
 *   CodeSpaceExhaustedError (no code left to publish the referee's reward voucher), IdempotencyKeyReusedError, ConflictRetryError.
 */
export async function trackCustomEvent(
  deps: Deps,
  projectId: string,
  body: TrackEventBody,
  idempotency: IdempotencyScope | null,
  options: { earnOnHeldCards?: boolean } = {},
): Promise<Committed<TrackedEvent>> {
  const now = deps.clock.now();
  if (idempotency) {
    const first = await recordedReply<TrackedEvent>(deps, idempotency, now);
    if (first !== undefined) return { value: first, replayed: true };
  }
  const schema = await requireEventSchema(deps, projectId, body.event);
  const metadata = body.metadata ?? {};
  validateEventMetadata(schema, metadata);
  const named = body.loyalty ? await planEarning(deps, projectId, body.event, body.loyalty.code, metadata, now) : null;
  const referral = body.referral ? await planReferral(deps, projectId, body.event, body.referral, body.customer) : null;
  const customer = await upsertCustomer(deps, projectId, body.customer);
  // Naming a card restricts the event to it; otherwise every program's card the customer holds earns.
  const earnings: Earning[] = body.loyalty
    ? named
      ? [named]
      : []
    : options.earnOnHeldCards === false
      ? []
      : await planHeldEarnings(deps, projectId, body.event, customer.id, metadata, now);
  const event: CustomEvent = {
    id: deps.ids.id('evcus'),
    projectId,
    type: body.event,
    customerId: customer.id,
    metadata,
    referral: body.referral ? { code: body.referral.code, referrerId: body.referral.referrer_id ?? null } : null,
    loyalty: body.loyalty ? { code: body.loyalty.code } : null,
    idempotencyKey: idempotency?.key ?? null,
    createdAt: now.toISOString(),
  };
  const rewards = referral?.reward ? new RefereeRewardIssuer(deps, referral.reward, now) : null;
  const accrualDetails: CardTransactionDetails = {
    event: { id: event.id, type: CUSTOM_EVENT_TYPE },
    customEvent: { id: event.id, type: event.type },
    eventSchema: { id: schema.id, name: schema.name },
  };
  return retryOnConflict(`Too many concurrent writes for event ${body.event}`, async () => {
    const items = [putEventItem(deps, event)];
    const conversionAt = items.length;
    if (referral) items.push(...(await conversionItems(deps, referral, event)));
    const converting = items.length > conversionAt;
    // Points for one card go in one change: a referee reward may land on the card the event earns on.
    const cardChanges = new Map<string, CardChange>();
    for (const earning of earnings) {
      cardChanges.set(earning.code, {
        buckets: earning.accruals.map((a) => a.bucket),
        records: earning.accruals.map((a) => ({
          id: a.transactionId,
          points: a.bucket.points,
          details: { ...accrualDetails, earningRule: { id: a.rule.id, source: { banner: a.rule.banner ?? '' } } },
        })),
      });
    }
    const rewardAt = items.length;
    let rewardItems = 0;
    const extra: TransactItem[] = [];
    if (converting && rewards && referral) {
      const writes = await rewards.writes(event.customerId, referral.referrerId);
      // The conversion records what it granted, in the same transaction: the record of `customer.rewarded`.
      const { type, amount, parent } = rewards.reward;
      items[conversionAt] = withGrantedReward(items[conversionAt] as TransactItem, {
        type,
        amount,
        campaignId: parent.id,
        voucherId: writes.voucher.id,
        code: writes.voucher.code,
      });
      if (writes.kind === 'points') {
        const change = cardChanges.get(writes.code) ?? { buckets: [], records: [] };
        change.buckets.push(writes.bucket);
        change.records.push({ id: rewards.transactionId, points: writes.bucket.points, details: accrualDetails });
        cardChanges.set(writes.code, change);
      } else {
        rewardItems = items.push(...writes.items) - rewardAt;
        const card = writes.newCard?.loyaltyCard;
        if (writes.newCard && card) {
          const record = accrualOf(writes.newCard, { id: rewards.transactionId, points: card.points, details: accrualDetails }, event.createdAt);
          extra.push(putCardTransactionItem(deps, { ...record, total: card.points, balance: card.balance }));
        }
      }
    }
    items.push(...extra);
    const prepared = await prepareCardChanges(deps, projectId, cardChanges, items.length, event.createdAt, now);
    if (!prepared) return RETRY;
    items.push(...prepared);
    const outcome = await commitOnce<TrackedEvent>(deps, idempotency, items, { event, customer }, now);
    if (outcome.ok) return { value: outcome.reply, replayed: outcome.replayed };
    if ('failed' in outcome && outcome.failed.includes(0)) throw new Error(`Event id ${event.id} is already taken`);
    // The referral code was deleted (or re-created) since it was read.
    if (referral && converting && 'failed' in outcome && outcome.failed.includes(conversionAt + 1)) throw new NotFoundError('voucher', referral.code);
    if (rewards && 'failed' in outcome) rewards.failed(outcome.failed.filter((i) => i >= rewardAt && i < rewardAt + rewardItems).map((i) => i - rewardAt));
    // A card changed since it was read (or a race was lost): re-read and re-plan.
    return RETRY;
  });
}

/** `details.event.type` of a change a custom event caused. */
const CUSTOM_EVENT_TYPE = 'customer.custom_event';

/** A POINTS_ACCRUAL of one card not yet placed in the card's counters. */
interface PendingAccrual {
  id: string;
  points: number;
  details: CardTransactionDetails;
}

/** The points one card gains from one event: its new buckets and one transaction per rule (or reward). */
interface CardChange {
  buckets: PointsBucket[];
  records: PendingAccrual[];
}

function accrualOf(card: Voucher, a: PendingAccrual, at: string): Omit<CardTransaction, 'total' | 'balance'> {
  return {
    id: a.id,
    projectId: card.projectId,
    campaignId: card.campaignId,
    voucherId: card.id,
    type: 'POINTS_ACCRUAL',
    source: null,
    sourceId: null,
    reason: null,
    points: a.points,
    details: a.details,
    createdAt: at,
  };
}

/**
 * The items of the points changes of the event's cards (its loyalty cards, the referee's
 * reward card), each with its POINTS_ACCRUAL transactions, sharing what is left of one transaction
 * after the `used` items, one card item and one transaction item per accrual, and the idempotency
 * record (docs/architecture.md "The 100-item budget of a points change"). Null when a card's
 * buckets must be read again.
 */
async function prepareCardChanges(
  deps: Deps,
  projectId: string,
  changes: Map<string, CardChange>,
  used: number,
  at: string,
  now: Date,
): Promise<TransactItem[] | null> {
  const records = [...changes.values()].reduce((n, c) => n + c.records.length, 0);
  const left = MAX_TRANSACTION_ITEMS - used - changes.size - records - 1;
  const budget = Math.floor(left / Math.max(changes.size, 1));
  const items: TransactItem[] = [];
  for (const [code, change] of changes) {
    const prepared = await prepareCardChange(deps, projectId, code, { kind: 'add', buckets: change.buckets }, now, budget);
    if (!prepared) return null;
    items.push(...prepared.items);
    // The card's tier may have changed an earned bucket's points: each record states what its bucket got.
    const planned = prepared.change.kind === 'add' ? prepared.change.buckets : change.buckets;
    change.records.forEach((r, i) => {
      r.points = planned[i]?.points ?? r.points;
    });
    const { card } = prepared.plan;
    // Transactions of one commit share their time and are listed by id: the counters after each follow that order.
    change.records.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const counters = runningCounters(
      change.records.map((r) => r.points),
      { total: card.points, balance: card.balance },
    );
    change.records.forEach((r, i) => {
      const after = counters[i] ?? { total: card.points, balance: card.balance };
      items.push(putCardTransactionItem(deps, { ...accrualOf(prepared.voucher, r, at), ...after }));
    });
  }
  return items;
}
