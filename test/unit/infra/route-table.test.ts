import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routeNotFoundRoute, routes } from '../../../lib/api/routes.js';
import { scheduledWorkers, streamWorkers, workers } from '../../../lib/api/workers.js';

const root = join(import.meta.dirname, '..', '..', '..');

function handlerFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? handlerFiles(full) : full.endsWith('.ts') ? [relative(root, full)] : [];
  });
}

describe('route table', () => {
  const all = [...routes, routeNotFoundRoute];

  it('gives every handler file under functions/ exactly one route, or exactly one worker row', () => {
    for (const file of handlerFiles(join(root, 'functions'))) {
      const rows = all.filter((r) => r.handler === file).length + [...workers, ...scheduledWorkers, ...streamWorkers].filter((w) => w.handler === file).length;
      expect(rows, file).toBe(1);
    }
    expect(new Set(all.map((r) => r.handler)).size).toBe(all.length);
  });

  it("names each path level's variable one way per API, as API Gateway requires (a second name is a ConflictException at deploy)", () => {
    const named = new Map<string, string>();
    const conflicts: string[] = [];
    for (const route of routes) {
      const parts = route.path.split('/');
      parts.forEach((part, level) => {
        if (!part.startsWith('{')) return;
        const parent = `${route.cluster} ${parts.slice(0, level).join('/')}`;
        const first = named.get(parent);
        if (first === undefined) named.set(parent, part);
        else if (first !== part) conflicts.push(`${route.operationId}: ${parent}/${part} (elsewhere ${first})`);
      });
    }
    expect(conflicts).toEqual([]);
  });

  it('has one row per cluster, method and path, each pointing at a module exporting handler and makeHandler', async () => {
    expect(new Set(routes.map((r) => `${r.cluster} ${r.method} ${r.path}`)).size).toBe(routes.length);
    for (const route of all) {
      const mod = (await import(join(root, route.handler))) as Record<string, unknown>;
      expect(typeof mod.handler, route.handler).toBe('function');
      expect(typeof mod.makeHandler, route.handler).toBe('function');
    }
  });

  it('publishes every route with its scopes in docs/auth.md', () => {
    const doc = readFileSync(join(root, 'docs', 'auth.md'), 'utf8');
    for (const route of routes) {
      const covered =
        route.auth === 'none'
          ? 'public (no credentials)'
          : route.auth === 'management'
            ? 'management key pair only'
            : route.scope
              ? [route.scope.side === 'server' ? 'api' : 'client_api', ...route.scope.scopes].join(', ')
              : 'key pair only';
      const scopes = route.auth !== 'none' && route.auth !== 'management' && route.auth.signedLink ? `${covered}; or the download token` : covered;
      const path = route.cluster === 'download' ? `${route.path} (download cluster)` : route.path;
      expect(doc, `${route.method} ${path}`).toContain(`| ${route.method} ${path} | ${scopes} |`);
    }
  });

  it('lists every route in the README', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    for (const route of routes) expect(readme, route.operationId).toContain(`| ${route.method} ${route.path} | ${route.cluster} | ${route.summary} |`);
  });
});
