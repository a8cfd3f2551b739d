import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { silentSdkLogger } from '../../../lib/sdk-logger.js';

/** A DynamoDB client that answers every call with one GetItem reply, without a network. */
function clientAnswering(logger?: typeof silentSdkLogger) {
  const reply = JSON.stringify({ Item: { PK: { S: 'a' }, SK: { S: 'b' }, name: { S: 'n' } } });
  return new DynamoDBClient({
    region: 'eu-west-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
    ...(logger ? { logger } : {}),
    requestHandler: {
      handle: async () => ({
        response: {
          statusCode: 200,
          headers: { 'content-type': 'application/x-amz-json-1.0' },
          body: new Blob([reply]).stream(),
        },
      }),
    } as never,
  });
}

/** How often the SDK's logger middleware ran its redaction walk of the reply during one call. */
async function redactionsOfOneCall(logger?: typeof silentSdkLogger): Promise<number> {
  const client = clientAnswering(logger);
  let redactions = 0;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const filter = context.outputFilterSensitiveLog as ((o: unknown) => unknown) | undefined;
      context.outputFilterSensitiveLog = (o: unknown) => {
        redactions += 1;
        return filter ? filter(o) : o;
      };
      return next(args);
    },
    { step: 'initialize', priority: 'high', name: 'countRedactions' },
  );
  const out = await client.send(new GetItemCommand({ TableName: 't', Key: { PK: { S: 'a' }, SK: { S: 'b' } } }));
  expect(out.Item?.name).toEqual({ S: 'n' });
  return redactions;
}

describe('silentSdkLogger', () => {
  it('spares every call the redaction walk the default no-op logger still makes', async () => {
    expect(await redactionsOfOneCall()).toBe(1);
    expect(await redactionsOfOneCall(silentSdkLogger)).toBe(0);
  });

  it('has every method the installed SDK calls without `?.` (a missing one would throw)', () => {
    const require = createRequire(import.meta.url);
    const roots = [
      '@smithy/core/package.json',
      '@aws-sdk/core/package.json',
      '@aws-sdk/lib-dynamodb/package.json',
      '@aws-sdk/client-dynamodb/package.json',
    ].map((p) => dirname(require.resolve(p)));
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
        d.isDirectory() ? files(join(dir, d.name)) : d.name.endsWith('.js') ? [join(dir, d.name)] : [],
      );
    const called = new Set<string>();
    for (const root of roots) {
      for (const file of files(join(root, 'dist-cjs'))) {
        for (const m of readFileSync(file, 'utf8').matchAll(/logger\??\.(\w+)\(/g)) called.add(m[1] as string);
      }
    }
    expect(called.size).toBeGreaterThan(0);
    for (const method of called) expect(typeof (silentSdkLogger as unknown as Record<string, unknown>)[method], method).toBe('function');
  });
});
