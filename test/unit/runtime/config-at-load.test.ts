import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lambdaContext, toApiGatewayEvent } from '../../../infra/local/api-gateway-event.js';

/** The variables these tests set or remove; put back as they were after each test. */
const touched = ['AWS_LAMBDA_FUNCTION_NAME', 'TABLE_NAME', 'AWS_REGION', 'LOG_LEVEL', 'RATE_LIMIT_REQUESTS'] as const;
let saved: Partial<Record<(typeof touched)[number], string>> = {};

beforeEach(() => {
  saved = Object.fromEntries(touched.flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]]])));
  // Each test loads the handler modules afresh, as a new Lambda container would.
  vi.resetModules();
});

afterEach(() => {
  for (const name of touched) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  vi.resetModules();
});

function lambdaEnvironment(env: Partial<Record<(typeof touched)[number], string>>): void {
  for (const name of touched) delete process.env[name];
  Object.assign(process.env, { AWS_LAMBDA_FUNCTION_NAME: 'route-not-found', ...env });
}

describe('config in a Lambda container', () => {
  it('fails the cold start, naming the variable, when TABLE_NAME is missing', async () => {
    lambdaEnvironment({ AWS_REGION: 'eu-central-1' });
    await expect(import('../../../functions/http/route-not-found.js')).rejects.toThrow(/Invalid configuration: TABLE_NAME/);
    vi.resetModules();
    await expect(import('../../../functions/workers/jobs-worker.js')).rejects.toThrow(/TABLE_NAME/);
  });

  it('fails the cold start on a malformed variable too', async () => {
    lambdaEnvironment({ TABLE_NAME: 'promo-engine', RATE_LIMIT_REQUESTS: 'lots' });
    await expect(import('../../../functions/http/route-not-found.js')).rejects.toThrow(/RATE_LIMIT_REQUESTS/);
  });

  it('is parsed once when the module loads, not per request', async () => {
    lambdaEnvironment({ TABLE_NAME: 'promo-engine', AWS_REGION: 'eu-central-1', LOG_LEVEL: 'error' });
    const { handler } = await import('../../../functions/http/route-not-found.js');
    const { defaultConfig, defaultRuntime } = await import('../../../lib/runtime.js');
    // Gone after the cold start: a container that read its environment per request would now fail.
    delete process.env.TABLE_NAME;
    const built = defaultRuntime();
    expect(built.tableName).toBe('promo-engine');
    for (let i = 0; i < 2; i += 1) {
      const reply = await handler(toApiGatewayEvent({ method: 'GET', rawPath: '/v1/nowhere' }), lambdaContext('route-not-found'));
      expect(reply.statusCode).toBe(404);
    }
    expect(defaultRuntime()).toBe(built);
    expect(defaultConfig().tableName).toBe('promo-engine');
  });

  it('waits for first use outside Lambda, where the local runtime completes the environment after loading handlers', async () => {
    for (const name of touched) delete process.env[name];
    await expect(import('../../../functions/http/route-not-found.js')).resolves.toHaveProperty('handler');
  });
});
