import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { lambdaExternalModules } from '../../../infra/constructs/bundling-settings.js';
import { routeNotFoundRoute, routes } from '../../../lib/api/routes.js';

const root = join(import.meta.dirname, '..', '..', '..');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? tsFiles(full) : full.endsWith('.ts') ? [relative(root, full)] : [];
  });
}

/** Module specifiers a file imports (static and dynamic), resolved against the repository root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1] as string);
  return specifiers.filter((s) => s.startsWith('.')).map((s) => relative(root, join(root, file, '..', s)));
}

/** `update-loyalty-card-balance-1` → `updateLoyaltyCardBalance`: Voucherify's `-1` tells two of its paths apart, not two operations. */
const serviceNameOf = (operationId: string): string => operationId.replace(/-\d+$/, '').replace(/-([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase());

describe('one operation, one name', () => {
  it('names every handler file after its operation id, in the folder of the lib/ module that serves it', () => {
    for (const route of [...routes, routeNotFoundRoute]) {
      const [, folder, file] = route.handler.split('/');
      expect(file, route.operationId).toBe(`${route.operationId}.ts`);
      expect(existsSync(join(root, route.handler)), route.handler).toBe(true);
      expect(existsSync(join(root, 'lib', folder as string)), `lib/${folder}`).toBe(true);
    }
  });

  it('calls the service function named after the operation, imported from lib/<same folder>/', () => {
    for (const route of [...routes, routeNotFoundRoute]) {
      const folder = route.handler.split('/')[1] as string;
      const text = readFileSync(join(root, route.handler), 'utf8');
      const name = serviceNameOf(route.operationId);
      const fromOwnFolder = new RegExp(`import \\{[^}]*\\b${name}\\b[^}]*\\} from '\\.\\./\\.\\./lib/${folder}/[^']+'`);
      expect(text, `${route.handler} imports ${name} from lib/${folder}/`).toMatch(fromOwnFolder);
      expect(text, `${route.handler} calls ${name}`).toMatch(new RegExp(`\\b${name}\\(`));
    }
  });
});

describe('layers', () => {
  it('keeps functions/ and lib/ free of imports from infra/', () => {
    for (const file of [...tsFiles(join(root, 'functions')), ...tsFiles(join(root, 'lib'))]) {
      expect(
        importsOf(file).filter((target) => target.startsWith('infra/')),
        file,
      ).toEqual([]);
    }
  });

  it('keeps services and repos free of lib/http/: the endpoint hands them plain values', () => {
    const domain = tsFiles(join(root, 'lib')).filter((f) => /\.(service|repo)\.ts$/.test(f));
    expect(domain.length).toBeGreaterThan(10);
    for (const file of domain)
      expect(
        importsOf(file).filter((target) => target.startsWith('lib/http/')),
        file,
      ).toEqual([]);
  });
});

describe('bundles', () => {
  it("keeps only the handler's own row of the endpoint table, and only the entities it stores, in its bundle", async () => {
    const route = routes.find((r) => r.operationId === 'create-campaign');
    if (!route) throw new Error('no create-campaign row');
    const result = await build({
      absWorkingDir: root,
      entryPoints: [join(root, route.handler)],
      bundle: true,
      minify: true,
      write: false,
      platform: 'node',
      format: 'esm',
      external: [...lambdaExternalModules],
      logLevel: 'silent',
    });
    const text = result.outputFiles[0]?.text ?? '';
    const others = [...routes, routeNotFoundRoute].filter((r) => r !== route && text.includes(`"${r.operationId}"`));
    expect(text).toContain('"create-campaign"');
    expect(others.map((r) => r.operationId)).toEqual([]);
    // Entity definitions are marked pure too: campaign creation stores no loyalty or referral items.
    for (const unused of ['points_bucket', 'card_transaction', 'earning_rule', 'referral_conversion']) expect(text).not.toContain(`"${unused}"`);
  }, 60_000);
});
