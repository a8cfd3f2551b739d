import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { InvalidJsonError, InvalidPayloadError, InvalidQueryParamsError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors.js';
import { FORBIDDEN_KEY, ForbiddenKeyError, parseJsonText, RefusedJsonError } from './json-text.js';
import { ILL_FORMED_VALUE, isWellFormed, showLoneSurrogates } from './unicode.js';
import type { RouteDef } from '../api/route.js';

/** Largest request body accepted (API Gateway's own limit is 10 MB; no endpoint needs more than this). */
export const MAX_BODY_BYTES = 1024 * 1024;

export const JSON_TYPE = 'application/json';
export const FORM_TYPE = 'application/x-www-form-urlencoded';
export const MULTIPART_TYPE = 'multipart/form-data';

/** Case-insensitive header lookup (API Gateway lower-cases HTTP API headers; other callers may not). */
export function headerOf(event: APIGatewayProxyEventV2, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(event.headers ?? {})) if (k.toLowerCase() === wanted) return v;
  return undefined;
}

export const mediaType = (contentType: string | undefined): string | undefined => contentType?.split(';')[0]?.trim().toLowerCase() || undefined;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The body's bytes, refused (413) beyond MAX_BODY_BYTES. A base64 body (API Gateway encodes every
 * body that is not text, multipart ones among them) is measured before it is decoded, so an
 * oversized one is never copied.
 */
export function bodyBytes(event: APIGatewayProxyEventV2): Buffer {
  if (event.body === undefined || event.body === null) return Buffer.alloc(0);
  if (event.isBase64Encoded && Math.floor((event.body.length * 3) / 4) - 2 > MAX_BODY_BYTES) throw new PayloadTooLargeError(MAX_BODY_BYTES);
  const buffer = event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
  if (buffer.byteLength > MAX_BODY_BYTES) throw new PayloadTooLargeError(MAX_BODY_BYTES);
  return buffer;
}

/** Bytes as text, or null when they are not UTF-8 (decoding would silently turn them into U+FFFD). */
export function utf8(buffer: Buffer): string | null {
  try {
    return strictUtf8.decode(buffer);
  } catch {
    return null;
  }
}

/** The body's text, or null when its bytes are not UTF-8. */
const rawBody = (event: APIGatewayProxyEventV2): string | null => utf8(bodyBytes(event));

const NOT_UTF8 = 'The body is not valid UTF-8';

/** Turns `a=1&a=2` (or a `__proto__` name, see json-text.ts) into an error rather than silently picking or dropping a value. */
function uniqueParams(params: URLSearchParams, shown: (name: string) => string, refuse: (details: string) => never): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of params) {
    if (name === FORBIDDEN_KEY) refuse(`${shown(name)}: ${new ForbiddenKeyError().message}`);
    if (Object.hasOwn(out, name)) refuse(`${shown(name)} is given more than once`);
    out[name] = value;
  }
  return out;
}

/**
 * Decodes the body as the route declares. An empty body is `{}`; anything else must be UTF-8
 * (400 `invalid_json`, or `invalid_payload` for a form), carry the route's media type (415
 * otherwise), parse (400 `invalid_json`) and fit MAX_BODY_BYTES (413). A
 * JSON body that parses but nests deeper than MAX_JSON_DEPTH, has a `__proto__` key or a string
 * that is not well-formed Unicode is refused before anything walks it (400 `invalid_payload`).
 */
export function parseBody(event: APIGatewayProxyEventV2, kind: RouteDef['body']): unknown {
  if (kind === 'multipart') {
    if (!multipartReader) throw new Error('A multipart route must import lib/http/multipart-body.js');
    return multipartReader(event);
  }
  const text = rawBody(event);
  if (kind === 'none') return {};
  if (text === null) throw kind === 'json' ? new InvalidJsonError(NOT_UTF8) : new InvalidPayloadError(NOT_UTF8);
  if (text.trim() === '') return {};
  const type = mediaType(headerOf(event, 'content-type'));
  if (kind === 'json') {
    if (type !== JSON_TYPE && !type?.endsWith('+json')) throw new UnsupportedMediaTypeError(JSON_TYPE, type);
    try {
      return parseJsonText(text);
    } catch (error) {
      if (error instanceof RefusedJsonError) throw new InvalidPayloadError(error.message, error);
      throw new InvalidJsonError(error instanceof SyntaxError ? error.message : 'Malformed JSON body', error);
    }
  }
  if (type !== FORM_TYPE) throw new UnsupportedMediaTypeError(FORM_TYPE, type);
  return uniqueParams(
    new URLSearchParams(text),
    (name) => `Parameter ${name}`,
    (details) => {
      throw new InvalidPayloadError(details);
    },
  );
}

/**
 * Reads a `multipart/form-data` body; set by lib/http/multipart-body.ts, which only the multipart routes' handlers
 * import, so every other handler's bundle carries no multipart code.
 */
let multipartReader: ((event: APIGatewayProxyEventV2) => Record<string, string>) | null = null;

export function useMultipartReader(reader: (event: APIGatewayProxyEventV2) => Record<string, string>): void {
  multipartReader = reader;
}

/** Query parameters from the raw query string, so repeated parameters are seen and refused. */
export function parseQuery(event: APIGatewayProxyEventV2): Record<string, string> {
  return uniqueParams(
    new URLSearchParams(event.rawQueryString ?? ''),
    (name) => `Property .${name}`,
    (details) => {
      throw new InvalidQueryParamsError(details);
    },
  );
}

/**
 * Path parameters as API Gateway decoded them. A value that is not well-formed Unicode is refused
 * like one in a body: it could only be looked up or echoed as a string no strict reader accepts.
 * @throws InvalidPayloadError (400, the key every path parameter problem gets) naming the parameter.
 */
export function parseParams(event: APIGatewayProxyEventV2): Record<string, string | undefined> {
  const params = event.pathParameters ?? {};
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && !isWellFormed(value)) throw new InvalidPayloadError(`Property .${showLoneSurrogates(name)} ${ILL_FORMED_VALUE}`);
  }
  return params;
}
