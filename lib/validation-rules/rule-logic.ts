/*
 * The `logic` of a validation rule: an expression over the numbers of its conditions, such as
 * `(1 and 2) or 3`. Pure: no I/O. Grammar (case-insensitive keywords, `and` binds tighter than `or`):
 *
 *   expr   := term ("or" term)*
 *   term   := factor ("and" factor)*
 *   factor := NUMBER | "(" expr ")"
 *
 * Anything else (an unknown word, `not`, an unbalanced parenthesis, a number with a leading zero)
 * is refused with a sentence saying where, so a malformed rule never reaches evaluation.
 */

/** A parsed logic expression. */
export type LogicNode = { kind: 'ref'; ref: string } | { kind: 'and'; left: LogicNode; right: LogicNode } | { kind: 'or'; left: LogicNode; right: LogicNode };

/** Longest logic string accepted (it is stored with the rule and parsed on every evaluation). */
export const MAX_LOGIC_LENGTH = 1000;
/** Deepest parenthesis nesting accepted: keeps the recursive parser far from the stack's limit. */
export const MAX_LOGIC_DEPTH = 32;

/** A logic string that cannot be parsed; `message` says why and where. */
export class LogicSyntaxError extends Error {
  override readonly name = 'LogicSyntaxError';
}

type Token = { kind: 'num'; value: string; at: number } | { kind: 'and' | 'or' | '(' | ')'; at: number };

function tokenize(logic: string): Token[] {
  const tokens: Token[] = [];
  const re = /\s*(?:(\d+)|(\()|(\))|([A-Za-z_]+)|(\S))/y;
  let match: RegExpExecArray | null;
  re.lastIndex = 0;
  while (re.lastIndex < logic.length && (match = re.exec(logic)) !== null) {
    const at = match.index + match[0].length - match[0].trimStart().length;
    const [, num, open, close, word, other] = match;
    if (num !== undefined) {
      if (num.length > 1 && num.startsWith('0')) throw new LogicSyntaxError(`logic: "${num}" at position ${at} is not a condition number (no leading zeros)`);
      tokens.push({ kind: 'num', value: num, at });
    } else if (open !== undefined) tokens.push({ kind: '(', at });
    else if (close !== undefined) tokens.push({ kind: ')', at });
    else if (word !== undefined) {
      const lower = word.toLowerCase();
      if (lower !== 'and' && lower !== 'or')
        throw new LogicSyntaxError(`logic: unknown word "${word}" at position ${at} (only and, or, parentheses and condition numbers)`);
      tokens.push({ kind: lower, at });
    } else if (other !== undefined) throw new LogicSyntaxError(`logic: unexpected "${other}" at position ${at}`);
    else break;
  }
  return tokens;
}

/**
 * Parses a logic string.
 * @throws LogicSyntaxError when it is empty, too long, too deep or not of the grammar above.
 */
export function parseLogic(logic: string): LogicNode {
  if (logic.length > MAX_LOGIC_LENGTH) throw new LogicSyntaxError(`logic: must be at most ${MAX_LOGIC_LENGTH} characters`);
  const tokens = tokenize(logic);
  if (tokens.length === 0) throw new LogicSyntaxError('logic: must name at least one condition');
  let i = 0;
  const describe = (t: Token | undefined) => (t === undefined ? 'the end' : `"${t.kind === 'num' ? t.value : t.kind}" at position ${t.at}`);
  const expr = (depth: number): LogicNode => {
    let left = term(depth);
    while (tokens[i]?.kind === 'or') {
      i += 1;
      left = { kind: 'or', left, right: term(depth) };
    }
    return left;
  };
  const term = (depth: number): LogicNode => {
    let left = factor(depth);
    while (tokens[i]?.kind === 'and') {
      i += 1;
      left = { kind: 'and', left, right: factor(depth) };
    }
    return left;
  };
  const factor = (depth: number): LogicNode => {
    const t = tokens[i];
    if (t?.kind === 'num') {
      i += 1;
      return { kind: 'ref', ref: t.value };
    }
    if (t?.kind === '(') {
      if (depth >= MAX_LOGIC_DEPTH) throw new LogicSyntaxError(`logic: parentheses nest deeper than ${MAX_LOGIC_DEPTH}`);
      i += 1;
      const inner = expr(depth + 1);
      if (tokens[i]?.kind !== ')') throw new LogicSyntaxError(`logic: expected ")" but found ${describe(tokens[i])}`);
      i += 1;
      return inner;
    }
    throw new LogicSyntaxError(`logic: expected a condition number or "(" but found ${describe(t)}`);
  };
  const node = expr(0);
  if (i < tokens.length) throw new LogicSyntaxError(`logic: unexpected ${describe(tokens[i])}`);
  return node;
}

/** The condition numbers an expression names, each once, in order of first appearance. */
export function logicRefs(node: LogicNode): string[] {
  const out = new Set<string>();
  const walk = (n: LogicNode): void => {
    if (n.kind === 'ref') out.add(n.ref);
    else {
      walk(n.left);
      walk(n.right);
    }
  };
  walk(node);
  return [...out];
}

/** The canonical text of an expression: fully parenthesised binary operations, lower-case keywords; parses back to the same tree. */
export function printLogic(node: LogicNode): string {
  if (node.kind === 'ref') return node.ref;
  return `(${printLogic(node.left)} ${node.kind} ${printLogic(node.right)})`;
}

/**
 * The value of an expression given each condition's outcome. `and` and `or` short-circuit left
 * to right, so `outcome` is asked only for conditions that decide the result.
 */
export function evaluateLogic(node: LogicNode, outcome: (ref: string) => boolean): boolean {
  if (node.kind === 'ref') return outcome(node.ref);
  if (node.kind === 'and') return evaluateLogic(node.left, outcome) && evaluateLogic(node.right, outcome);
  return evaluateLogic(node.left, outcome) || evaluateLogic(node.right, outcome);
}

/** The logic a rule set without one gets: every condition, joined by `and`, in number order. */
export const defaultLogic = (refs: readonly string[]): string => refs.join(' and ');
