import { describe, expect, it } from 'vitest';
import { type RouteDef, route } from '../../../lib/api/route.js';
import { endpoint } from '../../../lib/http/endpoint.js';
import { ok } from '../../../lib/http/reply.js';
import * as z from '../../../lib/zod.js';
import { call } from '../../support/invoke.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

/*
 * lib/http/endpoint.ts parses and validates a request while its credentials are read (the key's
 * GetItem is on the wire), and reports the outcome only once they passed.
 */

const echoRoute: RouteDef = {
  ...route({
    operationId: 'test-echo',
    method: 'POST',
    path: '/v1/echo',
    folder: 'test',
    access: 'read',
    summary: 'test echo',
    tag: 'Test',
    success: [],
  }),
  handler: 'test/integration/auth/parse-beside-credentials.test.ts',
};

/** What happened, in order. */
const events: string[] = [];
const body = z.strictObject({
  name: z.string().check(
    z.refine(() => {
      events.push('body validated');
      return true;
    }),
  ),
});
const makeEcho = endpoint(echoRoute, { body }, async ({ body: b }) => ok({ name: b.name }));
const echo = { method: 'POST', path: '/v1/echo', contract: false } as const;

describe('a request is parsed while its credentials are read', () => {
  const runtime = testRuntime();
  const send = runtime.ddb.send.bind(runtime.ddb);
  runtime.ddb.send = (async (command: { constructor: { name: string } }) => {
    const out = await send(command as never);
    events.push(`${command.constructor.name} answered`);
    return out;
  }) as typeof runtime.ddb.send;
  const handler = makeEcho({ runtime });

  it('validates the body before the key read returns, and answers with the parsed body', async () => {
    const pair = await newProject(runtime);
    events.length = 0;
    const reply = await call(handler, { ...echo, headers: keyPairHeaders(pair), json: { name: 'Ada' } });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ name: 'Ada' });
    expect(events).toEqual(['body validated', 'GetCommand answered']);
  });

  it('still answers 401, not 400, to bad credentials with a bad body: validation messages are for callers who passed', async () => {
    const pair = await newProject(runtime);
    const refused = await call(handler, { ...echo, headers: { ...keyPairHeaders(pair), 'x-app-token': 'wrong' }, json: { name: 7 } });
    expect(refused.status).toBe(401);
    expect(refused.json).toMatchObject({ key: 'unauthorized' });
    const malformed = await call(handler, {
      ...echo,
      headers: { ...keyPairHeaders(pair), 'x-app-token': 'wrong', 'content-type': 'application/json' },
      body: '{"name":',
    });
    expect(malformed.status).toBe(401);
  });

  it('answers 400 with the validation details to a caller whose credentials passed', async () => {
    const pair = await newProject(runtime);
    const reply = await call(handler, { ...echo, headers: keyPairHeaders(pair), json: { name: 7 } });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ code: 400, key: 'invalid_payload' });
    const malformed = await call(handler, { ...echo, headers: { ...keyPairHeaders(pair), 'content-type': 'application/json' }, body: '{"name":' });
    expect(malformed.status).toBe(400);
    expect(malformed.json).toMatchObject({ key: 'invalid_json' });
  });
});
