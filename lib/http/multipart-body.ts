import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { InvalidPayloadError, UnsupportedMediaTypeError } from '../errors.js';
import { FORBIDDEN_KEY, ForbiddenKeyError } from './json-text.js';
import { boundaryOf, MultipartError, parseMultipart } from './multipart.js';
import { bodyBytes, headerOf, MULTIPART_TYPE, mediaType, useMultipartReader, utf8 } from './request.js';

/*
 * Imported (for its effect) by the handlers of `body: 'multipart'` routes only: it gives lib/http/request.ts its
 * multipart reader, so the other handlers' bundles carry none of it.
 */

/**
 * A `multipart/form-data` body as `{<field>: text}`: each part's content decoded as UTF-8 (a file
 * too: the files these routes take are CSV text). An empty body is `{}` (the route's schema then
 * names the missing `file`).
 * @throws PayloadTooLargeError (413) beyond MAX_BODY_BYTES, UnsupportedMediaTypeError (415) for
 *   another Content-Type, InvalidPayloadError (400): not multipart as declared, a field given
 *   twice or named `__proto__`, a part that is not UTF-8.
 */
export function parseMultipartBody(event: APIGatewayProxyEventV2): Record<string, string> {
  const bytes = bodyBytes(event);
  if (bytes.byteLength === 0) return {};
  const contentType = headerOf(event, 'content-type');
  const type = mediaType(contentType);
  if (type !== MULTIPART_TYPE) throw new UnsupportedMediaTypeError(MULTIPART_TYPE, type);
  const out: Record<string, string> = {};
  try {
    for (const part of parseMultipart(bytes, boundaryOf(contentType as string))) {
      if (part.name === FORBIDDEN_KEY) throw new InvalidPayloadError(`Part ${part.name}: ${new ForbiddenKeyError().message}`);
      if (Object.hasOwn(out, part.name)) throw new InvalidPayloadError(`Part ${part.name.slice(0, 100)} is given more than once`);
      const text = utf8(part.data);
      if (text === null) throw new InvalidPayloadError(`Part ${part.name.slice(0, 100)} is not valid UTF-8 text`);
      out[part.name] = text;
    }
  } catch (error) {
    if (error instanceof MultipartError) throw new InvalidPayloadError(error.message, error);
    throw error;
  }
  return out;
}

useMultipartReader(parseMultipartBody);
