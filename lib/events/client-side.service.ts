import { ForbiddenError } from '../errors.js';
import type { IdempotencyScope } from '../idempotency/idempotency-scope.js';
import type { Committed } from '../idempotency/idempotency.service.js';
import { clientSwitchOn } from '../projects/client-switch.js';
import type { Runtime } from '../runtime.js';
import type { TrackedEvent } from './event.js';
import type { TrackEventBody } from './event.schema.js';
import { trackCustomEvent } from './event.service.js';

/**
 * POST /client/v1/events: the server's event tracking (same bodies in the reference). Points move
 * only when the project has client-side loyalty events on (client_loyalty_events_enabled): then the
 * event earns as on the server; off, the event is recorded (and may convert a referral) but earns
 * nothing, and naming a card is refused rather than silently earning nothing.
 * @throws ForbiddenError for `loyalty` while the switch is off; otherwise as trackCustomEvent.
 */
export async function trackCustomEventClientSide(
  deps: Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>,
  projectId: string,
  body: TrackEventBody,
  idempotency: IdempotencyScope | null,
): Promise<Committed<TrackedEvent>> {
  const loyaltyOn = await clientSwitchOn(deps, projectId, 'clientLoyaltyEventsEnabled');
  if (!loyaltyOn && body.loyalty) {
    throw new ForbiddenError(
      'Loyalty events from the client side are switched off for this project (client_loyalty_events_enabled); send the event without loyalty, or from the server',
    );
  }
  return trackCustomEvent(deps, projectId, body, idempotency, { earnOnHeldCards: loyaltyOn });
}
