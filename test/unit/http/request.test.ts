import { describe, expect, it } from 'vitest';
import { toApiGatewayEvent } from '../../../infra/local/api-gateway-event.js';
import { AppError, NotFoundError, RouteNotFoundError } from '../../../lib/errors.js';
import { MAX_BODY_BYTES, parseBody, parseQuery } from '../../../lib/http/request.js';
import { errorReply } from '../../../lib/http/error-responder.js';
import { matchPath } from '../../../lib/http/route-match.js';
import { silentLogger } from '../../../lib/logger.js';

const event = (body: string | undefined, contentType?: string, rawQueryString = '') =>
  toApiGatewayEvent({
    method: 'POST',
    rawPath: '/v1/x',
    rawQueryString,
    headers: contentType ? { 'Content-Type': contentType } : {},
    ...(body !== undefined ? { body } : {}),
  });

function thrown(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

describe('request parsing', () => {
  it('parses JSON (with charset) and treats an empty body as {}', () => {
    expect(parseBody(event('{"a":1}', 'application/json; charset=utf-8'), 'json')).toEqual({ a: 1 });
    expect(parseBody(event(undefined), 'json')).toEqual({});
  });

  it('refuses malformed JSON with 400 invalid_json, a wrong content type with 415, an oversized body with 413', () => {
    expect(thrown(() => parseBody(event('{"a":', 'application/json'), 'json'))).toMatchObject({ status: 400, key: 'invalid_json' });
    expect(thrown(() => parseBody(event('{"a":1}', 'text/plain'), 'json'))).toMatchObject({ status: 415, key: 'unsupported_media_type' });
    expect(thrown(() => parseBody(event('a=1', 'application/json'), 'form'))).toMatchObject({ status: 415 });
    const big = `{"a":"${'x'.repeat(MAX_BODY_BYTES)}"}`;
    expect(thrown(() => parseBody(event(big, 'application/json'), 'json'))).toMatchObject({ status: 413, key: 'payload_too_large' });
  });

  it('parses form bodies and refuses a repeated parameter', () => {
    expect(parseBody(event('grant_type=client_credentials&scope=a+b', 'application/x-www-form-urlencoded'), 'form')).toEqual({
      grant_type: 'client_credentials',
      scope: 'a b',
    });
    expect(thrown(() => parseBody(event('a=1&a=2', 'application/x-www-form-urlencoded'), 'form'))).toMatchObject({ status: 400 });
  });

  it('refuses a repeated query parameter with invalid_query_params', () => {
    expect(parseQuery(event(undefined, undefined, 'limit=1&page=2'))).toEqual({ limit: '1', page: '2' });
    expect(thrown(() => parseQuery(event(undefined, undefined, 'limit=1&limit=2')))).toMatchObject({ key: 'invalid_query_params' });
  });

  it('refuses __proto__ as a key at any depth of a JSON body, however it is spelt, and keeps other prototype names as data', () => {
    for (const body of ['{"__proto__":{"x":1}}', '{"a":[{"b":{"__proto__":1}}]}', '{"\\u005f_proto__":1}']) {
      expect(thrown(() => parseBody(event(body, 'application/json'), 'json'))).toMatchObject({ status: 400, key: 'invalid_payload' });
    }
    const parsed = parseBody(event('{"constructor":{"prototype":"p"},"toString":"\\u0061","note":"__proto__"}', 'application/json'), 'json');
    expect(parsed).toEqual({ constructor: { prototype: 'p' }, toString: 'a', note: '__proto__' });
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
  });

  it('refuses __proto__ as a form or query parameter name rather than dropping it', () => {
    expect(thrown(() => parseBody(event('__proto__=1', 'application/x-www-form-urlencoded'), 'form'))).toMatchObject({ status: 400, key: 'invalid_payload' });
    expect(thrown(() => parseQuery(event(undefined, undefined, '__proto__=1')))).toMatchObject({ key: 'invalid_query_params' });
  });

  it('matches path templates and decodes parameters', () => {
    expect(matchPath('/v1/vouchers/{code}', '/v1/vouchers/A%23B%2F1')).toEqual({ code: 'A#B/1' });
    expect(matchPath('/v1/vouchers/{code}', '/v1/vouchers/')).toBeNull();
    expect(matchPath('/v1/vouchers/{code}', '/v1/vouchers/%E0%A4%A')).toBeNull();
  });
});

describe('error responder', () => {
  it('hides an unexpected error behind an opaque 500 with the request id', () => {
    const logged: string[] = [];
    const reply = errorReply(new Error('secret detail'), 'v-1', { ...silentLogger, error: (m, f) => logged.push(`${m} ${f?.detail}`) });
    expect(reply.statusCode).toBe(500);
    expect(JSON.stringify(reply.body)).not.toContain('secret detail');
    expect(reply.body).toMatchObject({ code: 500, request_id: 'v-1', message: 'Internal server error' });
    expect(logged.join()).toContain('secret detail');
  });

  it('writes a lone surrogate quoted in an error (a path, an id) as \\uXXXX text, so the reply stays well-formed Unicode', () => {
    const reply = errorReply(new NotFoundError('voucher', 'A\ud800'), 'v-1', silentLogger);
    expect(reply.body).toMatchObject({ details: 'Cannot find voucher with id A\\ud800', resource_id: 'A\\ud800' });
    expect(errorReply(new RouteNotFoundError('GET', '/%\udc00'), 'v-1', silentLogger).body).toMatchObject({ details: 'No route GET /%\\udc00' });
  });
});
