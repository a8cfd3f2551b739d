import { describe, expect, it } from 'vitest';
import { toApiGatewayEvent } from '../../../infra/local/api-gateway-event.js';
import { AppError } from '../../../lib/errors.js';
import { checkJsonDocument, MAX_JSON_DEPTH, parseJsonText, RefusedJsonError } from '../../../lib/http/json-text.js';
import { nestQuery } from '../../../lib/http/query-params.js';
import { parseBody, parseParams } from '../../../lib/http/request.js';
import { isWellFormed, showLoneSurrogates } from '../../../lib/http/unicode.js';

/** `{"a":{"a":…1…}}` as text, `levels` objects deep: JSON.stringify could not write it past a few thousand. */
const deepObjects = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
const deepArrays = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;

function refusal(text: string): RefusedJsonError {
  try {
    parseJsonText(text);
  } catch (error) {
    if (error instanceof RefusedJsonError) return error;
    throw error;
  }
  throw new Error(`accepted ${text.slice(0, 80)}`);
}

function appError(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

const jsonEvent = (body: string) => toApiGatewayEvent({ method: 'POST', rawPath: '/v1/x', headers: { 'content-type': 'application/json' }, body });

describe('the JSON depth bound', () => {
  it(`accepts a document exactly ${MAX_JSON_DEPTH} levels deep and refuses one level more, naming the bound and the place`, () => {
    expect(parseJsonText(deepObjects(MAX_JSON_DEPTH))).toBeTypeOf('object');
    expect(parseJsonText(deepArrays(MAX_JSON_DEPTH))).toBeInstanceOf(Array);
    const tooDeep = refusal(deepObjects(MAX_JSON_DEPTH + 1));
    expect(tooDeep.message).toBe(
      `Property .${Array(MAX_JSON_DEPTH).fill('a').join('.')} is nested more than 32 levels deep; a JSON document may nest at most 32 levels`,
    );
    expect(refusal(deepArrays(MAX_JSON_DEPTH + 1)).path).toEqual(Array(MAX_JSON_DEPTH).fill(0));
  });

  it('refuses 4,100, 10,000 and 1,000,000 levels of objects or arrays without overflowing the stack itself', () => {
    for (const levels of [4_100, 10_000, 1_000_000]) {
      expect(refusal(deepObjects(levels)).message).toContain('at most 32 levels');
      expect(refusal(deepArrays(levels)).message).toContain('at most 32 levels');
      expect(refusal(`{"metadata":[${deepObjects(levels)}]}`).path.slice(0, 3)).toEqual(['metadata', 0, 'a']);
    }
  });

  it('counts containers, not scalars: a string at the deepest level is fine', () => {
    expect(() => parseJsonText(`${'['.repeat(MAX_JSON_DEPTH)}"leaf"${']'.repeat(MAX_JSON_DEPTH)}`)).not.toThrow();
  });

  it('shortens a path of long keys in the message', () => {
    const key = 'k'.repeat(1000);
    const message = refusal(`${`{"${key}":`.repeat(40)}1${'}'.repeat(40)}`).message;
    expect(message.length).toBeLessThan(400);
    expect(message).toContain('at most 32 levels');
  });
});

describe('well-formed Unicode in JSON documents', () => {
  it.each([
    ['a lone high surrogate as a value', '{"name":"\\ud800"}', ['name']],
    ['a lone low surrogate before a letter', '{"name":"\\udc00X"}', ['name']],
    ['a high surrogate at the end', '{"name":"X\\ud800"}', ['name']],
    ['two high surrogates in a row', '{"name":"\\ud800\\ud800"}', ['name']],
    ['a lone surrogate in an array deep down', '{"a":[1,{"b":["ok","\\udfff"]}]}', ['a', 1, 'b', 1]],
    ['the root string', '"\\ud800"', []],
  ])('refuses %s, naming the place', (_, text, path) => {
    const error = refusal(text);
    expect(error.path).toEqual(path);
    expect(error.message).toContain('is not well-formed Unicode');
  });

  it('refuses a property name holding a lone surrogate, at any depth, and writes the surrogate out as text in the message', () => {
    const top = refusal('{"metadata":{"\\ud800":1}}');
    expect(top.path).toEqual(['metadata', '\ud800']);
    expect(top.message).toBe('Property .metadata.\\ud800 is a property name that is not well-formed Unicode (it holds a lone UTF-16 surrogate)');
    expect(isWellFormed(top.message)).toBe(true);
    expect(refusal('[{"x":{"a\\udc00b":null}}]').path).toEqual([0, 'x', 'a\udc00b']);
  });

  it('accepts surrogate pairs, U+FFFD, noncharacters and escaped ordinary text', () => {
    expect(parseJsonText('{"\\ud83d\\ude00":"\\ud83d\\ude00😀","r":"\\ufffd","n":"\\uffff","e":"\\u0061"}')).toEqual({
      '😀': '😀😀',
      r: '\ufffd',
      n: '\uffff',
      e: 'a',
    });
  });

  it('checks a parsed value the same way (what parseJsonText runs after JSON.parse)', () => {
    expect(() => checkJsonDocument({ a: ['\ud800'] })).toThrow(RefusedJsonError);
    expect(() => checkJsonDocument({ a: ['ok', 1, null, true] })).not.toThrow();
  });
});

describe('__proto__ in the same walk', () => {
  it('refuses __proto__ as a key at any depth, however it is spelt, naming the place', () => {
    expect(refusal('{"a":[{"__proto__":{}}]}').path).toEqual(['a', 0, '__proto__']);
    expect(refusal('{"\\u005f_proto__":1}').message).toContain('Property .__proto__ is not accepted');
  });
});

describe('what the request layer answers', () => {
  it('answers 400 invalid_payload to a JSON body too deep or not well-formed, and 400 invalid_json to malformed text', () => {
    expect(appError(() => parseBody(jsonEvent(`{"metadata":${deepObjects(10_000)}}`), 'json'))).toMatchObject({
      status: 400,
      key: 'invalid_payload',
      details: expect.stringContaining('at most 32 levels'),
    });
    expect(appError(() => parseBody(jsonEvent('{"metadata":{"\\ud800":1}}'), 'json'))).toMatchObject({
      key: 'invalid_payload',
      details: expect.stringContaining('Property .metadata.\\ud800'),
    });
    expect(appError(() => parseBody(jsonEvent('{"name":'), 'json'))).toMatchObject({ key: 'invalid_json' });
  });

  it('answers 400 invalid_query_params to query JSON too deep or not well-formed, naming the parameter', () => {
    expect(appError(() => nestQuery({ filters: `{"a":${deepObjects(10_000)}}` }))).toMatchObject({
      key: 'invalid_query_params',
      details: expect.stringMatching(/^Property \.filters\.a\.a.* at most 32 levels$/),
    });
    expect(appError(() => nestQuery({ filters: '{"\\ud800":1}' }))).toMatchObject({
      key: 'invalid_query_params',
      details: 'Property .filters.\\ud800 is a property name that is not well-formed Unicode (it holds a lone UTF-16 surrogate)',
    });
  });

  it('refuses a path parameter that is not well-formed Unicode with 400 invalid_payload', () => {
    const event = toApiGatewayEvent({ method: 'GET', rawPath: '/v1/vouchers/x', pathParameters: { code: 'A\ud800' } });
    expect(appError(() => parseParams(event))).toMatchObject({
      status: 400,
      key: 'invalid_payload',
      details: 'Property .code is not well-formed Unicode (it holds a lone UTF-16 surrogate)',
    });
    const fine = toApiGatewayEvent({ method: 'GET', rawPath: '/v1/vouchers/x', pathParameters: { code: '😀/..' } });
    expect(parseParams(fine)).toEqual({ code: '😀/..' });
  });
});

describe('isWellFormed and showLoneSurrogates', () => {
  it('tell lone surrogates from pairs and write them out as \\uXXXX text', () => {
    expect(isWellFormed('a😀\ufffd')).toBe(true);
    expect(isWellFormed('\ud800')).toBe(false);
    expect(isWellFormed('\ude00\ud83d')).toBe(false);
    expect(showLoneSurrogates('a\ud800b😀\udc00\ud83d')).toBe('a\\ud800b😀\\udc00\\ud83d');
  });
});
