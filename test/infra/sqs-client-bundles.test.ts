import type { Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { routeNotFoundRoute, routes } from '../../lib/api/routes.js';
import { workers } from '../../lib/api/workers.js';
import { type Bundle, bundleAll, bundleEntry, staticExternalImports } from '../../scripts/bundles.js';

/**
 * Every function's bundle from the one build synth deploys (scripts/bundles.ts bundleAll): the modules that left
 * code in it, read from its metafile. One build for all checks: bundling each handler alone took ~45 s.
 */
let bundles: Promise<Bundle[]> | undefined;
const allBundles = (): Promise<Bundle[]> => (bundles ??= bundleAll());
let built: Promise<Map<string, string[]>> | undefined;
const inBundle = (metafile: Metafile): string[] =>
  Object.entries(metafile.inputs)
    .filter(([path]) => Object.values(metafile.outputs).some((o) => (o.inputs[path]?.bytesInOutput ?? 0) > 0))
    .map(([path]) => path);
async function bundledModules(handler: string): Promise<string[]> {
  built ??= allBundles().then((all) => new Map(all.map((b) => [b.handler, inBundle(b.metafile)])));
  const modules = (await built).get(handler);
  if (!modules) throw new Error(`no bundle for ${handler}`);
  return modules;
}

describe('SQS client, S3 client and zod in handler bundles', () => {
  it('is in no API handler: the routes that send to a queue carry the hand-made SendMessage, the others neither', async () => {
    for (const route of [...routes, routeNotFoundRoute]) {
      const modules = await bundledModules(route.handler);
      expect(
        modules.filter((m) => m.includes('@aws-sdk/client-sqs')),
        route.handler,
      ).toEqual([]);
      expect(
        modules.some((m) => m.endsWith('lib/aws/sqs-send.ts')),
        route.handler,
      ).toBe(route.needs.sendsTo.length > 0);
    }
  }, 180_000);

  it('puts the S3 client only into handlers that write export files (the download route only presigns, and so does the delete route)', async () => {
    const withS3: string[] = [];
    for (const target of [...routes, routeNotFoundRoute, ...workers]) {
      const hasS3 = (await bundledModules(target.handler)).some((m) => m.includes('@aws-sdk/client-s3'));
      if (hasS3) withS3.push(target.handler);
      // A row without the bucket's write grant never carries the client; DELETE /v1/exports/{exportId} has the grant
      // (s3:DeleteObject) but deletes by a presigned URL, without the client.
      if (target.needs.bucket !== 'write') expect(hasS3, target.handler).toBe(false);
    }
    // The export workers write the files with it.
    expect(withS3.some((h) => h.includes('export-jobs-worker'))).toBe(true);
    expect(withS3.some((h) => h.includes('delete-export'))).toBe(false);
  }, 180_000);

  it('carries zod/mini only: classic zod (about 60 KiB more, and slower to load) is in no function', async () => {
    for (const target of [...routes, routeNotFoundRoute, ...workers]) {
      const modules = await bundledModules(target.handler);
      expect(
        modules.filter((m) => m.includes('node_modules/zod/v4/classic/')),
        target.handler,
      ).toEqual([]);
      expect(
        modules.some((m) => m.includes('node_modules/zod/v4/mini/')),
        target.handler,
      ).toBe(true);
    }
  }, 180_000);

  it('has no module of ours import a Node built-in that the bare baseline does not (each costs its ESM facade at cold start; lib/builtins.ts requires them when reached)', async () => {
    const builtins = [
      'node:zlib',
      'node:net',
      'node:timers/promises',
      'node:util',
      'node:http',
      'node:dns/promises',
      'node:readline',
      'node:path',
      'node:fs/promises',
    ];
    expect(staticExternalImports((await bundleEntry('test/bench/fixtures/baseline-handler.ts')).js, builtins)).toEqual([]);
    const ours = (path: string) => path.startsWith('lib/') || path.startsWith('functions/');
    const imported = (await allBundles())
      .filter((b) => b.kind === 'api')
      .flatMap((b) =>
        Object.entries(b.metafile.inputs)
          .filter(([path]) => ours(path))
          .flatMap(([path, input]) =>
            input.imports.filter((i) => i.kind === 'import-statement' && builtins.includes(i.path)).map((i) => `${b.handler}: ${path} imports ${i.path}`),
          ),
      );
    expect([...new Set(imported)]).toEqual([]);
  }, 180_000);
});
