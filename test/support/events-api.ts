import { makeHandler as makeCreateSchema } from '../../functions/custom-event-schemas/create-custom-event-schema.js';
import { makeHandler as makeGetSchema } from '../../functions/custom-event-schemas/get-custom-event-schema.js';
import { makeHandler as makeListSchemas } from '../../functions/custom-event-schemas/list-custom-event-schemas.js';
import { makeHandler as makeTrackEvent } from '../../functions/events/track-custom-event.js';
import { createCustomEventSchemaRoute, getCustomEventSchemaRoute, listCustomEventSchemasRoute, trackCustomEventRoute } from '../../lib/api/routes.js';
import type { IssuedKeyPair } from '../../lib/app-keys/app-key.service.js';
import type { Runtime } from '../../lib/runtime.js';
import { callRoute } from './api.js';
import { keyPairHeaders } from './runtime.js';

const enc = encodeURIComponent;

/** The custom event schema and event endpoints of one runtime, called with one project's key pair. */
export function eventApi(runtime: Runtime, pair: IssuedKeyPair) {
  const handlers = {
    createSchema: makeCreateSchema({ runtime }),
    listSchemas: makeListSchemas({ runtime }),
    getSchema: makeGetSchema({ runtime }),
    trackEvent: makeTrackEvent({ runtime }),
  };
  const auth = keyPairHeaders(pair);
  return {
    handlers,
    createSchema: (json: unknown, headers = auth) =>
      callRoute(handlers.createSchema, createCustomEventSchemaRoute, { path: '/v1/custom-event-schemas', json, headers }),
    listSchemas: (headers = auth) => callRoute(handlers.listSchemas, listCustomEventSchemasRoute, { path: '/v1/custom-event-schemas', headers }),
    getSchema: (ref: string, headers = auth) =>
      callRoute(handlers.getSchema, getCustomEventSchemaRoute, { path: `/v1/custom-event-schemas/${enc(ref)}`, headers }),
    /** POST /v1/events, with an Idempotency-Key when `key` is given. */
    trackEvent: (json: unknown, key?: string, headers = auth) =>
      callRoute(handlers.trackEvent, trackCustomEventRoute, {
        path: '/v1/events',
        json,
        headers: key === undefined ? headers : { ...headers, 'idempotency-key': key },
      }),
  };
}

export type EventApi = ReturnType<typeof eventApi>;

/** A schema body: `properties` maps a name to `type` or `type?` (optional). */
export function schemaBody(name: string, properties: Record<string, string> = {}) {
  return {
    name,
    schema: {
      properties: Object.fromEntries(
        Object.entries(properties).map(([prop, t]) => [prop, { type: t.replace(/\?$/, ''), optional: t.endsWith('?') }]),
      ),
    },
  };
}
