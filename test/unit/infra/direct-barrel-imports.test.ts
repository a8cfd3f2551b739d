import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { directBarrelImports } from '../../../infra/constructs/direct-barrel-imports.js';

const root = mkdtempSync(join(tmpdir(), 'barrels-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const pkg = join(root, 'node_modules', '@smithy', 'core', 'dist-es');
const file = (rel: string, text: string): string => {
  const path = join(pkg, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
};

const json = file('protocols/json.js', 'export const Json = 1;\n');
const xml = file('protocols/xml.js', 'export const Xml = 2;\n');
const toUtf8 = file('serde/toUtf8.js', 'export const toUtf8 = 3;\n');
const inner = file('protocols/inner/index.js', 'export { Json as InnerJson } from "../json";\n');
const protocols = file(
  'protocols/index.js',
  'export { Json } from "./json";\nexport { Xml as XmlProtocol } from "./xml";\nexport { InnerJson } from "./inner";\n',
);
const serde = file('serde/index.js', 'import { toUtf8 } from "./toUtf8";\nexport { toUtf8 };\nexport const own = 4;\n');

/** Resolves relative specifiers beside the importer (adding `.js`, or `/index.js` for a folder) and two bare ones. */
const build = {
  resolve: async (spec: string, options: { resolveDir?: string }) => {
    const bare: Record<string, string> = { '@smithy/core/protocols': protocols, '@smithy/core/serde': serde };
    const base = bare[spec] ?? join(options.resolveDir ?? '', spec);
    const path = bare[spec] ?? ([json, xml, toUtf8, inner, protocols, serde].find((p) => p === `${base}.js` || p === join(base, 'index.js')) || '');
    return { path, external: false, errors: path ? [] : [{ text: 'not found' }] } as never;
  },
};

describe('direct barrel imports (builds with lazy chunks)', () => {
  it('imports each re-exported name from its defining file, following re-exports, and keeps the names an index defines itself', async () => {
    const rewrite = directBarrelImports(build);
    const importer = join(pkg, 'client', 'client.js');
    const source = [
      'import { Json, XmlProtocol as X, InnerJson } from "@smithy/core/protocols";',
      'import { toUtf8, own } from "@smithy/core/serde";',
      'import { readFile } from "node:fs";',
      'export const used = [Json, X, InnerJson, toUtf8, own, readFile];',
    ].join('\n');
    const out = await rewrite(source, importer);
    expect(out).toContain(`import { Json, Json as InnerJson } from ${JSON.stringify(json)};`);
    expect(out).toContain(`import { Xml as X } from ${JSON.stringify(xml)};`);
    expect(out).not.toContain('"@smithy/core/protocols"');
    // `own` is defined by the index: it stays imported from there; `toUtf8`, imported then exported, goes direct.
    expect(out).toContain('import { own } from "@smithy/core/serde";');
    expect(out).toContain(`import { toUtf8 } from ${JSON.stringify(toUtf8)};`);
    expect(out).toContain('import { readFile } from "node:fs";');
    expect(out).toContain('export const used = [Json, X, InnerJson, toUtf8, own, readFile];');
  });

  it('leaves a module with no named import of an index as it is', async () => {
    const source = 'import * as all from "@smithy/core/protocols";\nexport const x = all;\n';
    expect(await directBarrelImports(build)(source, join(pkg, 'a.js'))).toBe(source);
  });
});
