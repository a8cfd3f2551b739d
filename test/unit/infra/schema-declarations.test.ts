import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');

function modulesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? modulesUnder(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/**
 * Top-level destructurings in the schema modules (those importing lib/zod.ts, which infra/constructs/pure-schemas.ts
 * rewrites). The bundler can drop an unread `const x = ...` there, never a `const { a, ...rest } = shape`: every handler
 * importing the module then builds `shape` at load, whether or not it parses it (all template routes built the campaign
 * body: docs/benchmarks.md "Cold start: schemas built and never parsed").
 */
function topLevelDestructurings(source: string, fileName: string): string[] {
  if (!/from '(?:\.\.?\/)+(?:lib\/)?zod\.js'/.test(source)) return [];
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  return file.statements.flatMap((s) =>
    ts.isVariableStatement(s)
      ? s.declarationList.declarations
          .filter((d) => !ts.isIdentifier(d.name) && d.initializer)
          .map((d) => `${fileName}:${file.getLineAndCharacterOfPosition(d.getStart(file)).line + 1}`)
      : [],
  );
}

describe('schema modules', () => {
  it('finds a top-level destructuring of a shape, and not one inside an initializer', () => {
    const source = "import * as z from '../zod.js';\nconst { a, ...rest } = shape;\nexport const b = z.strictObject((({ a: _a, ...r }) => r)(shape));";
    expect(topLevelDestructurings(source, 'x.schema.ts')).toEqual(['x.schema.ts:2']);
    expect(topLevelDestructurings('const { a } = shape;', 'no-zod.ts')).toEqual([]);
  });

  it('declare no top-level destructuring (the bundle would build what it reads in every handler importing them)', () => {
    const found = modulesUnder(join(root, 'lib')).flatMap((f) => topLevelDestructurings(readFileSync(f, 'utf8'), relative(root, f)));
    expect(found).toEqual([]);
  });
});
