import type { MediaType, RouteDef, SuccessReply } from '../api/route.js';
import { type Committed, REPLAYED_HEADER } from '../idempotency/idempotency.service.js';
import type { ReplyName, replySchemas } from '../openapi/reply-schemas.js';
import type * as z from '../zod.js';

/** What a handler's domain call turns into; the envelope adds the common headers. */
export interface HttpReply<Status extends number = number, Body = unknown> {
  statusCode: Status;
  body?: Body;
  /** A body sent as it is, not as JSON (its Content-Type goes in `headers`). */
  text?: string;
  /** A binary body (its Content-Type goes in `headers`): sent base64-encoded, which API Gateway decodes. */
  bytes?: Uint8Array;
  headers?: Record<string, string>;
}

/** The body a reply component describes (lib/openapi/reply-schemas.ts). */
type ComponentBody<N extends ReplyName> = z.input<(typeof replySchemas)[N]>;
type BodyOf<B> = B extends ReplyName ? ComponentBody<B> : B extends { arrayOf: infer N extends ReplyName } ? ComponentBody<N>[] : undefined;
type ReplyOfSuccess<S> = S extends SuccessReply
  ? S extends { text: MediaType | readonly MediaType[] }
    ? HttpReply<S['status'], undefined> & ({ text: string } | { bytes: Uint8Array })
    : HttpReply<S['status'], BodyOf<S['body']>>
  : never;

/**
 * The replies a route may answer with: one of its row's success statuses, with that status's body.
 * A row typed only as `RouteDef` (a test fixture) says nothing precise, so any reply goes.
 */
export type ReplyOf<R extends RouteDef> = number extends R['success']['length'] ? HttpReply : ReplyOfSuccess<R['success'][number]>;

export const ok = <B>(body: B): HttpReply<200, B> => ({ statusCode: 200, body });
export const accepted = <B>(body: B): HttpReply<202, B> => ({ statusCode: 202, body });
export const noContent = (): HttpReply<204, undefined> => ({ statusCode: 204 });
/** 302 to `location` (e.g. a presigned file URL): the client fetches the body from there. */
export const redirect = (location: string): HttpReply<302, undefined> => ({ statusCode: 302, headers: { Location: location } });

/** 200 with a CSV file as the body, offered for saving under `fileName`. */
export const csvFile = (text: string, fileName: string): HttpReply<200, undefined> & { text: string } => ({
  statusCode: 200,
  text,
  headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${fileName.replace(/["\\\r\n]/g, '_')}"` },
});

/**
 * 200 with an image (or another file a client embeds) that never changes for its URL: shared
 * caches may keep it, unlike the API's other replies (`no-store`).
 */
export const immutableFile = (
  file: { text: string; contentType: string } | { bytes: Uint8Array; contentType: string },
): HttpReply<200, undefined> & ({ text: string } | { bytes: Uint8Array }) => ({
  statusCode: 200,
  ...('text' in file ? { text: file.text } : { bytes: file.bytes }),
  headers: { 'Content-Type': file.contentType, 'Cache-Control': 'public, max-age=86400, immutable' },
});

/** 200 with `map(value)`, marked `Idempotent-Replayed: true` (as the generic path marks it) when replayed. */
export const okCommitted = <T, B>(committed: Committed<T>, map: (value: T) => B): HttpReply<200, B> => ({
  statusCode: 200,
  body: map(committed.value),
  ...(committed.replayed ? { headers: { [REPLAYED_HEADER]: 'true' } } : {}),
});
