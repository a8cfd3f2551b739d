/**
 * Lets esbuild drop the schemas a handler never uses. A module's top-level `const x = z.strictObject({...})`
 * is kept in every bundle that imports the module, whether or not `x` is read, because esbuild cannot know
 * that building a schema has no side effects (zod's own `@__NO_SIDE_EFFECTS__` marks are only honoured
 * inside zod's files, and `schema.check(...)` is a method call). Every handler then built, at load, the
 * request bodies of its neighbours' routes: 500–860 schema instances where its own route needs 60–300,
 * about 7 µs each, and their code to parse (docs/decisions.md "Pure schema declarations").
 *
 * As the bundle is built, each top-level variable initializer of a module that imports `lib/zod.ts` is
 * wrapped in an immediately called arrow marked pure (markPureDeclarations). A declaration that is read is
 * evaluated at load, in the same order, as before (schemas are not built lazily: that would move the work
 * into the first request); one that is never read is left out of the bundle. Function bodies and
 * statements other than declarations (`config(en())`) are not touched. Tests and the local runtime load
 * the source as written; only bundles are built this way.
 */
import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';
import ts from 'typescript';

const PURE = '/* @__PURE__ */ ';

/** Whether the module builds schemas: it imports the house zod entry point. */
const importsZod = (source: string): boolean => /from '(?:\.\.?\/)+(?:lib\/)?zod\.js'/.test(source);

/** Initializers that are already free of effects to esbuild, or that cannot move into a function. */
function keepAsIs(init: ts.Expression): boolean {
  if (ts.isArrowFunction(init) || ts.isFunctionExpression(init) || ts.isClassExpression(init)) return true;
  if (ts.isLiteralExpression(init) || ts.isNoSubstitutionTemplateLiteral(init) || ts.isRegularExpressionLiteral(init)) return true;
  if (init.kind === ts.SyntaxKind.TrueKeyword || init.kind === ts.SyntaxKind.FalseKeyword || init.kind === ts.SyntaxKind.NullKeyword) return true;
  let awaits = false;
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node)) return;
    if (ts.isAwaitExpression(node)) awaits = true;
    else ts.forEachChild(node, visit);
  };
  visit(init);
  return awaits;
}

/**
 * The source with each top-level variable initializer wrapped as `/* @__PURE__ *\/ (() => (init))()`:
 * evaluated at the same moment as before, and left out by esbuild when the variable is never read.
 * A pure mark on the outer call alone would not do: esbuild keeps an unread initializer's inner
 * calls, `.check(...)` chains and object spreads as possible effects.
 */
export function markPureDeclarations(source: string, fileName = 'module.ts'): string {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const spans: [number, number][] = [];
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const init = declaration.initializer;
      if (init && !keepAsIs(init)) spans.push([init.getStart(file), init.getEnd()]);
    }
  }
  let out = '';
  let last = 0;
  for (const [from, to] of spans) {
    out += `${source.slice(last, from)}${PURE}(() => (${source.slice(from, to)}))()`;
    last = to;
  }
  return out + source.slice(last);
}

/** The esbuild plugin applying markPureDeclarations to the repository's own schema-building modules. */
export function pureSchemaDeclarations(): Plugin {
  return {
    name: 'pure-schema-declarations',
    setup(build) {
      build.onLoad({ filter: /[\\/]lib[\\/].*\.ts$/ }, async (args) => {
        if (args.path.includes('node_modules')) return undefined;
        const source = await readFile(args.path, 'utf8');
        return { contents: importsZod(source) ? markPureDeclarations(source, args.path) : source, loader: 'ts' };
      });
    },
  };
}
