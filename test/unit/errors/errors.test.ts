import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { houseBundling } from '../../../infra/constructs/bundling-settings.js';
import { toApiGatewayEvent } from '../../../infra/local/api-gateway-event.js';
import * as errors from '../../../lib/errors.js';
import { AppError, BadRequestError, type ErrorKey, NotFoundError, ServiceUnavailableError } from '../../../lib/errors.js';
import { parseBody } from '../../../lib/http/request.js';

const root = join(import.meta.dirname, '..', '..', '..');
const run = promisify(execFile);

type ErrorClass = new (...args: unknown[]) => AppError;

/** Arguments every AppError subclass's constructor accepts (strings, or a list where one is joined). */
const anyArgs = ['a', 'b', ['c']];

const subclasses: Array<[string, ErrorClass]> = Object.entries(errors).flatMap(([exported, value]) =>
  typeof value === 'function' && value.prototype instanceof AppError ? [[exported, value as unknown as ErrorClass] as [string, ErrorClass]] : [],
);

describe('AppError subclasses', () => {
  it('end in Error and set name to their class name', () => {
    expect(subclasses.length).toBeGreaterThan(20);
    for (const [exported, ErrorClass] of subclasses) {
      const error = Reflect.construct(ErrorClass, anyArgs) as AppError;
      expect(exported).toMatch(/Error$/);
      expect(error.name, exported).toBe(ErrorClass.name);
      expect(error).toBeInstanceOf(Error);
    }
  });

  it('keep their names in the minified bundle Lambda runs, where class names are mangled', async () => {
    const probe = `import * as errors from './lib/errors.ts';
const names = {};
for (const [exported, value] of Object.entries(errors)) {
  if (typeof value === 'function' && value.prototype instanceof errors.AppError) names[exported] = Reflect.construct(value, ${JSON.stringify(anyArgs)}).name;
}
process.stdout.write(JSON.stringify(names));`;
    const result = await build({
      absWorkingDir: root,
      stdin: { contents: probe, resolveDir: root, loader: 'ts' },
      bundle: true,
      write: false,
      platform: 'node',
      target: houseBundling.target,
      format: houseBundling.format,
      minify: houseBundling.minify,
      logLevel: 'silent',
    });
    const js = result.outputFiles[0]?.text ?? '';
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', js]);
    const names = JSON.parse(stdout) as Record<string, string>;
    expect(Object.keys(names)).toHaveLength(subclasses.length);
    for (const [exported, name] of Object.entries(names)) expect(name, exported).toBe(exported);
  }, 30_000);

  it('keep the error they stand for as cause, and have none otherwise', () => {
    const sdkFault = new Error('socket hang up');
    expect(new ServiceUnavailableError('The data store did not answer', 1, sdkFault).cause).toBe(sdkFault);

    let parsed: unknown;
    try {
      parseBody(toApiGatewayEvent({ method: 'POST', rawPath: '/v1/x', headers: { 'content-type': 'application/json' }, body: '{"a":' }), 'json');
    } catch (error) {
      parsed = error;
    }
    expect(parsed).toMatchObject({ name: 'InvalidJsonError', key: 'invalid_json' });
    expect((parsed as AppError).cause).toBeInstanceOf(SyntaxError);

    expect('cause' in new NotFoundError('voucher', 'X')).toBe(false);
  });

  it('take keys of the closed ErrorKey union only', () => {
    const key: ErrorKey = new BadRequestError('invalid_scope', 'Invalid scope').key;
    expect(key).toBe('invalid_scope');
    // @ts-expect-error a free-form key is not a BadRequestKey (npm run typecheck fails if this line compiles)
    expect(new BadRequestError('made_up_key', 'Made up').key).toBe('made_up_key');
  });
});
