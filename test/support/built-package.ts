import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { engines } from './runtime.js';

const run = promisify(execFile);

/**
 * Calls the handler of a built package (`entry`: its index.mjs, written by scripts/bundles.ts `writePackage`) once on
 * `event`, in a fresh Node process started in `folder` (no node_modules above it: a module the bundle leaves out fails
 * the call), against the local engines, and returns what the handler returned. `env` adds to the Lambda-like variables
 * (region, credentials, the DynamoDB endpoint).
 */
export async function invokeBuiltPackage<T>(
  entry: string,
  event: unknown,
  options: { folder: string; env: Record<string, string>; remainingMs: number },
): Promise<T> {
  const eventFile = join(options.folder, `event-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(eventFile, JSON.stringify(event));
  const script = [
    `import { readFileSync } from 'node:fs';`,
    `const { handler } = await import(${JSON.stringify(`file://${entry}`)});`,
    `const event = JSON.parse(readFileSync(${JSON.stringify(eventFile)}, 'utf8'));`,
    `const context = { awsRequestId: 'bundle-test', functionName: 'bundle-test', getRemainingTimeInMillis: () => ${options.remainingMs} };`,
    `process.stdout.write(JSON.stringify(await handler(event, context)));`,
  ].join('\n');
  const e = engines();
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: options.folder,
    timeout: 60_000,
    env: {
      PATH: process.env.PATH ?? '',
      AWS_REGION: e.region,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      DYNAMODB_ENDPOINT: e.dynamoEndpoint,
      LOG_LEVEL: 'error',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ...options.env,
    },
  });
  return JSON.parse(stdout) as T;
}
