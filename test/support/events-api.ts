import type { IssuedKeyPair } from '../../lib/app-keys/app-key.service.js';
import type { Runtime } from '../../lib/runtime.js';
import { apiClient } from './api-client.js';
import { keyPairHeaders } from './runtime.js';

/** The custom event schema and event endpoints of one runtime, called with one project's key pair. */
export function eventApi(runtime: Runtime, pair: IssuedKeyPair) {
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const auth = keyPairHeaders(pair);
  return {
    createSchema: (json: unknown, headers = auth) => api.call('create-custom-event-schema', { json, headers }),
    listSchemas: (headers = auth) => api.call('list-custom-event-schemas', { headers }),
    getSchema: (ref: string, headers = auth) => api.call('get-custom-event-schema', { params: { schemaId: ref }, headers }),
    /** POST /v1/events, with an Idempotency-Key when `key` is given. */
    trackEvent: (json: unknown, key?: string, headers = auth) =>
      api.call('track-custom-event', { json, headers: key === undefined ? headers : { ...headers, 'idempotency-key': key } }),
  };
}

export type EventApi = ReturnType<typeof eventApi>;

/** A schema body: `properties` maps a name to `type` or `type?` (optional). */
export function schemaBody(name: string, properties: Record<string, string> = {}) {
  return {
    name,
    schema: {
      properties: Object.fromEntries(Object.entries(properties).map(([prop, t]) => [prop, { type: t.replace(/\?$/, ''), optional: t.endsWith('?') }])),
    },
  };
}
