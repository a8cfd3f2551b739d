import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  evaluateLogic,
  type LogicNode,
  LogicSyntaxError,
  logicRefs,
  MAX_LOGIC_DEPTH,
  parseLogic,
  printLogic,
} from '../../../lib/validation-rules/rule-logic.js';

const ref = fc.integer({ min: 1, max: 9 }).map((n): LogicNode => ({ kind: 'ref', ref: String(n) }));
const tree: fc.Arbitrary<LogicNode> = fc.letrec<{ node: LogicNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    ref,
    fc.record({ kind: fc.constantFrom('and' as const, 'or' as const), left: tie('node'), right: tie('node') }),
  ),
})).node;
const outcomes = fc.array(fc.boolean(), { minLength: 10, maxLength: 10 });
const lookup = (bits: boolean[]) => (r: string) => bits[Number(r)] ?? false;

describe('parseLogic', () => {
  it('parses the reference example and binds and tighter than or', () => {
    expect(printLogic(parseLogic('(1 and 2) or 3'))).toBe('((1 and 2) or 3)');
    expect(printLogic(parseLogic('1 or 2 and 3'))).toBe('(1 or (2 and 3))');
    expect(printLogic(parseLogic('1 AND 2 Or 3'))).toBe('((1 and 2) or 3)');
    expect(printLogic(parseLogic('(1 and 2) and (3)'))).toBe('((1 and 2) and 3)');
    expect(printLogic(parseLogic(' 12 '))).toBe('12');
  });

  it.each([
    ['', 'at least one condition'],
    ['1 and', 'found the end'],
    ['(1 and 2', 'expected ")"'],
    ['1 and 2)', 'unexpected ")"'],
    ['1 xor 2', 'unknown word "xor"'],
    ['not 1', 'unknown word "not"'],
    ['1 && 2', 'unexpected "&"'],
    ['1 2', 'unexpected "2"'],
    ['01', 'leading zeros'],
    ['()', 'found ")"'],
  ])('refuses %j, saying where (%s)', (logic, why) => {
    expect(() => parseLogic(logic)).toThrow(LogicSyntaxError);
    expect(() => parseLogic(logic)).toThrow(why);
  });

  it('refuses parentheses nested too deep instead of exhausting the stack', () => {
    const deep = `${'('.repeat(MAX_LOGIC_DEPTH + 1)}1${')'.repeat(MAX_LOGIC_DEPTH + 1)}`;
    expect(() => parseLogic(deep)).toThrow('nest deeper');
    const ok = `${'('.repeat(MAX_LOGIC_DEPTH)}1${')'.repeat(MAX_LOGIC_DEPTH)}`;
    expect(parseLogic(ok)).toEqual({ kind: 'ref', ref: '1' });
  });

  it('round-trips: printing a tree and parsing it gives the same tree', () => {
    fc.assert(
      fc.property(tree, (t) => {
        expect(parseLogic(printLogic(t))).toEqual(t);
      }),
    );
  });

  it('never throws anything but LogicSyntaxError on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (s) => {
        try {
          parseLogic(s);
        } catch (error) {
          expect(error).toBeInstanceOf(LogicSyntaxError);
        }
      }),
    );
  });
});

describe('evaluateLogic', () => {
  it('(a and b) holds exactly when both hold; (a or b) when either does', () => {
    fc.assert(
      fc.property(outcomes, fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 9 }), (bits, a, b) => {
        const get = lookup(bits);
        expect(evaluateLogic(parseLogic(`(${a} and ${b})`), get)).toBe(get(String(a)) && get(String(b)));
        expect(evaluateLogic(parseLogic(`${a} or ${b}`), get)).toBe(get(String(a)) || get(String(b)));
      }),
    );
  });

  it('is consistent with De Morgan: a tree holds iff its dual fails on the negated outcomes', () => {
    const dual = (n: LogicNode): LogicNode => (n.kind === 'ref' ? n : { kind: n.kind === 'and' ? 'or' : 'and', left: dual(n.left), right: dual(n.right) });
    fc.assert(
      fc.property(tree, outcomes, (t, bits) => {
        const get = lookup(bits);
        expect(evaluateLogic(t, get)).toBe(!evaluateLogic(dual(t), (r) => !get(r)));
      }),
    );
  });

  it('distributes: 1 and (2 or 3) ≡ (1 and 2) or (1 and 3)', () => {
    fc.assert(
      fc.property(outcomes, (bits) => {
        const get = lookup(bits);
        expect(evaluateLogic(parseLogic('1 and (2 or 3)'), get)).toBe(evaluateLogic(parseLogic('(1 and 2) or (1 and 3)'), get));
      }),
    );
  });

  it('is monotone: making a failing condition pass never makes the whole fail (so a failing whole always has a failing condition)', () => {
    fc.assert(
      fc.property(tree, outcomes, fc.integer({ min: 1, max: 9 }), (t, bits, flip) => {
        const before = evaluateLogic(t, lookup(bits));
        const raised = bits.map((b, i) => b || i === flip);
        if (before) expect(evaluateLogic(t, lookup(raised))).toBe(true);
        if (!before) expect(logicRefs(t).some((r) => !lookup(bits)(r))).toBe(true);
      }),
    );
  });
});
