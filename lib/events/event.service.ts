import { upsertCustomer } from '../customers/customer.service.js';
import { backoff, MAX_CONFLICT_ATTEMPTS } from '../db/transact.js';
import { ConflictRetryError } from '../errors.js';
import { requireEventSchema, validateEventMetadata } from '../event-schemas/event-schema.service.js';
import { commitOnce, recordedReply, type IdempotencyScope } from '../http/idempotency.js';
import type { Runtime } from '../runtime.js';
import type { CustomEvent, TrackedEvent } from './event.js';
import { putEventItem } from './event.repo.js';
import type { TrackEventBody } from './event.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/**
 * POST /v1/events: checks the event against the project's custom event schema, upserts its
 * customer, and stores it. `referral` and `loyalty` are stored with the event; loyalty earning and
 * referral conversion are not carried out yet. With an Idempotency-Key the event is stored once
 * and every retry gets the first reply.
 * @throws NotFoundError (custom_event_schema: the event is not defined; customer: unknown `customer.id`),
 *   MetadataValidationError, IdempotencyKeyReusedError, ConflictRetryError.
 */
export async function trackCustomEvent(deps: Deps, projectId: string, body: TrackEventBody, idempotency: IdempotencyScope | null): Promise<TrackedEvent> {
  const now = deps.clock.now();
  if (idempotency) {
    const first = await recordedReply<TrackedEvent>(deps, idempotency, now);
    if (first !== undefined) return first;
  }
  const schema = await requireEventSchema(deps, projectId, body.event);
  const metadata = body.metadata ?? {};
  validateEventMetadata(schema, metadata);
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
  for (let attempt = 0; attempt < MAX_CONFLICT_ATTEMPTS; attempt += 1) {
    const outcome = await commitOnce<TrackedEvent>(deps, idempotency, [putEventItem(deps, event)], { event, customer }, now);
    if (outcome.ok) return outcome.reply;
    if ('failed' in outcome) throw new Error(`Event id ${event.id} is already taken`);
    await backoff(attempt);
  }
  throw new ConflictRetryError(`Too many concurrent writes for event ${body.event}`);
}
