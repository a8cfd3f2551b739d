import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { markPureDeclarations } from '../../../infra/constructs/pure-schemas.js';

const PURE = '/* @__PURE__ */';

/** Runs a transformed module's JavaScript and returns what it exports, so a test can compare values before and after. */
function evaluate(source: string): Record<string, unknown> {
  const js = transformSync(source, { loader: 'ts', format: 'cjs' }).code;
  const module = { exports: {} as Record<string, unknown> };
  new Function('module', 'exports', js)(module, module.exports);
  return module.exports;
}

describe('markPureDeclarations', () => {
  it('wraps each top-level initializer with calls, spreads or chains in a pure immediately-called arrow', () => {
    const out = markPureDeclarations(
      [
        "import * as z from './zod.js';",
        'const base = { a: z.string() };',
        'export const body = z.strictObject({ ...base, b: z.string().check(z.maxLength(5)) });',
        'export type Body = z.output<typeof body>;',
      ].join('\n'),
    );
    expect(out).toContain(`const base = ${PURE} (() => ({ a: z.string() }))();`);
    expect(out).toContain(`export const body = ${PURE} (() => (z.strictObject({ ...base, b: z.string().check(z.maxLength(5)) })))();`);
    expect(out).toContain('export type Body = z.output<typeof body>;');
  });

  it('leaves functions, literals, statements and top-level awaits as they are', () => {
    const source = [
      "import { config } from './zod.js';",
      'config(en());',
      'export const refused = (why: string) => z.never({ error: why });',
      'export function helper() { return z.string(); }',
      'const LIMIT = 100;',
      "const NAME = 'x';",
      'const PATTERN = /^a+$/;',
      'const loaded = await load();',
    ].join('\n');
    expect(markPureDeclarations(source)).toBe(source);
  });

  it('keeps what every declaration evaluates to, and the order it is evaluated in', () => {
    const source = [
      'const order: string[] = [];',
      "const first = (order.push('first'), { n: 1 });",
      "export const second = { ...first, m: (order.push('second'), 2) } as const;",
      'export const seen = order.slice();',
      'const { n, ...rest } = second;',
      'export const restKeys = Object.keys(rest);',
      'export const total = n + rest.m;',
    ].join('\n');
    const out = markPureDeclarations(source);
    expect(out).not.toBe(source);
    expect(evaluate(out)).toEqual(evaluate(source));
    expect(evaluate(out).seen).toEqual(['first', 'second']);
  });
});
