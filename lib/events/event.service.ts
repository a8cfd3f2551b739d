import { upsertCustomer } from '../customers/customer.service.js';
import { RETRY, retryOnConflict, type TransactItem } from '../db/transact.js';
import { NotFoundError } from '../errors.js';
import { requireEventSchema, validateEventMetadata } from '../custom-event-schemas/event-schema.service.js';
import type { IdempotencyScope } from '../idempotency/idempotency-scope.js';
import { commitOnce, type Committed, recordedReply } from '../idempotency/idempotency.service.js';
import { planEarning } from '../loyalties/loyalty-earning.js';
import { MAX_BUCKET_WRITES, prepareCardChange } from '../loyalties/loyalty.service.js';
import type { PointsBucket } from '../loyalties/points-bucket.js';
import { RefereeRewardIssuer } from '../referrals/referee-reward-issuer.js';
import { conversionItems, planReferral } from '../referrals/referral.service.js';
import type { Runtime } from '../runtime.js';
import type { CustomEvent, TrackedEvent } from './event.js';
import { putEventItem } from './event.repo.js';
import type { TrackEventBody } from './event.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/**
 * POST /v1/events: checks the event against the project's custom event schema, upserts its
 * customer, and stores it. With `loyalty.code`, the card's program's earning rules for the event add
 * their points (new buckets) in the same transaction as the event, so they are added exactly once
 * per stored event; with an Idempotency-Key the event (and its points) is stored once and every
 * retry gets the first reply. With `referral.code`, a referral code of a REFERRAL_PROGRAM converting
 * on this event, the event's customer converts the code for its referrer: recorded in the same
 * transaction, once per (campaign, code, referred customer) however many events or retries come,
 * and the program's referee reward goes to the event's customer in that transaction too (their
 * card or gift voucher in the parent campaign, published to them if they hold none).
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
): Promise<Committed<TrackedEvent>> {
  const now = deps.clock.now();
  if (idempotency) {
    const first = await recordedReply<TrackedEvent>(deps, idempotency, now);
    if (first !== undefined) return { value: first, replayed: true };
  }
  const schema = await requireEventSchema(deps, projectId, body.event);
  const metadata = body.metadata ?? {};
  validateEventMetadata(schema, metadata);
  const earning = body.loyalty ? await planEarning(deps, projectId, body.event, body.loyalty.code, metadata, now) : null;
  const referral = body.referral ? await planReferral(deps, projectId, body.event, body.referral, body.customer) : null;
  const customer = await upsertCustomer(deps, projectId, body.customer);
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
  return retryOnConflict(`Too many concurrent writes for event ${body.event}`, async () => {
    const items = [putEventItem(deps, event)];
    const conversionAt = items.length;
    if (referral) items.push(...(await conversionItems(deps, referral, event)));
    const converting = items.length > conversionAt;
    // Points for one card go in one change: a referee reward may land on the card the event earns on.
    const cardChanges = new Map<string, PointsBucket[]>();
    if (earning) cardChanges.set(earning.code, [...earning.buckets]);
    const rewardAt = items.length;
    let rewardItems = 0;
    if (converting && rewards && referral) {
      const writes = await rewards.writes(event.customerId, referral.referrerId);
      if (writes.kind === 'points') cardChanges.set(writes.code, [...(cardChanges.get(writes.code) ?? []), writes.bucket]);
      else rewardItems = items.push(...writes.items) - rewardAt;
    }
    const prepared = await prepareCardChanges(deps, projectId, cardChanges, now);
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

/**
 * The items of the points changes of up to two cards (the event's loyalty card, the referee's
 * reward card), sharing one transaction's bucket budget; null when a card's buckets must be read again.
 */
async function prepareCardChanges(deps: Deps, projectId: string, changes: Map<string, PointsBucket[]>, now: Date): Promise<TransactItem[] | null> {
  const budget = Math.floor(MAX_BUCKET_WRITES / Math.max(changes.size, 1));
  const items: TransactItem[] = [];
  for (const [code, buckets] of changes) {
    const prepared = await prepareCardChange(deps, projectId, code, { kind: 'add', buckets }, now, budget);
    if (!prepared) return null;
    items.push(...prepared.items);
  }
  return items;
}
