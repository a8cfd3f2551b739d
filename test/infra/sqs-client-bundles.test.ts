import type { Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { routeNotFoundRoute, routes } from '../../lib/api/routes.js';
import { workers } from '../../lib/api/workers.js';
import { bundleAll } from '../../scripts/bundles.js';

/**
 * Every function's bundle from the one build synth deploys (scripts/bundles.ts bundleAll): the modules that left
 * code in it, read from its metafile. One build for all checks: bundling each handler alone took ~45 s.
 */
let built: Promise<Map<string, string[]>> | undefined;
const inBundle = (metafile: Metafile): string[] =>
  Object.entries(metafile.inputs)
    .filter(([path]) => Object.values(metafile.outputs).some((o) => (o.inputs[path]?.bytesInOutput ?? 0) > 0))
    .map(([path]) => path);
async function bundledModules(handler: string): Promise<string[]> {
  built ??= bundleAll().then((bundles) => new Map(bundles.map((b) => [b.handler, inBundle(b.metafile)])));
  const modules = (await built).get(handler);
  if (!modules) throw new Error(`no bundle for ${handler}`);
  return modules;
}

describe('SQS client, S3 client and zod in handler bundles', () => {
  it('is bundled only into the handlers of routes that send to a queue', async () => {
    for (const route of [...routes, routeNotFoundRoute]) {
      const hasSqs = (await bundledModules(route.handler)).some((m) => m.includes('@aws-sdk/client-sqs'));
      expect(hasSqs, route.handler).toBe(route.needs.sendsTo.length > 0);
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
});
