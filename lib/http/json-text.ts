import { ILL_FORMED_NAME, ILL_FORMED_VALUE, isWellFormed, showLoneSurrogates } from './unicode.js';

/**
 * A key that cannot stay data: wherever input is copied key by key (zod records, spreads,
 * `obj[key] = value`), `__proto__` replaces the copy's prototype instead of adding a field, so the
 * value would be lost or, worse, inherited by lookups. Refused at the edge instead of dropped.
 */
export const FORBIDDEN_KEY = '__proto__';

/**
 * Deepest nesting accepted in a JSON document (the root object or array is level 1). Everything
 * after the parser (zod, the metadata checks, `JSON.stringify`, the DynamoDB marshaller) walks a
 * document recursively and overflows the stack a few thousand levels down; the deepest body the
 * API takes (metadata inside a request, itself at most 16 levels) needs far fewer than this.
 */
export const MAX_JSON_DEPTH = 32;

export class ForbiddenKeyError extends Error {
  override readonly name = 'ForbiddenKeyError';

  constructor() {
    super(`${FORBIDDEN_KEY} is not accepted as a property name`);
  }
}

const FORBIDDEN_KEY_PROBLEM = `is not accepted: a ${FORBIDDEN_KEY} key would set a prototype instead of storing a field`;

type Segment = string | number;

const MAX_SHOWN_SEGMENT = 40;
const MAX_SHOWN_PATH = 200;

/** `Property .a.b`, as validate.ts words `details`: long keys cut short, lone surrogates written out. */
function propertyOf(path: readonly Segment[]): string {
  const shown = path
    .map((segment) => {
      const text = showLoneSurrogates(String(segment));
      return text.length > MAX_SHOWN_SEGMENT ? `${text.slice(0, MAX_SHOWN_SEGMENT)}…` : text;
    })
    .join('.');
  if (shown === '') return 'Property (root)';
  return `Property .${shown.length > MAX_SHOWN_PATH ? `${shown.slice(0, MAX_SHOWN_PATH)}…` : shown}`;
}

/** A JSON document that parsed but is refused: too deep, a forbidden key, a string that is not well-formed Unicode. */
export class RefusedJsonError extends Error {
  override readonly name = 'RefusedJsonError';

  constructor(
    /** Where in the document, root first. */
    readonly path: readonly Segment[],
    /** What is wrong there, e.g. `is nested more than 32 levels deep…`. */
    readonly problem: string,
  ) {
    super(`${propertyOf(path)} ${problem}`);
  }

  /** The message for a document found at `prefix` of something larger (a query parameter holding JSON). */
  at(prefix: readonly Segment[]): string {
    return `${propertyOf([...prefix, ...this.path])} ${this.problem}`;
  }
}

/** One node of the walk; the parent link rebuilds the path only when a node is refused. */
interface Frame {
  value: unknown;
  segment: Segment | null;
  parent: Frame | null;
  /** Containers above this node (the root has none). */
  depth: number;
}

function refused(frame: Frame, problem: string): RefusedJsonError {
  const path: Segment[] = [];
  for (let f: Frame | null = frame; f !== null && f.segment !== null; f = f.parent) path.push(f.segment);
  return new RefusedJsonError(path.reverse(), problem);
}

/**
 * Checks a parsed JSON document in one pass, with an explicit stack (never recursion, which the
 * document's own depth could overflow): at most MAX_JSON_DEPTH levels, no FORBIDDEN_KEY, every
 * key and string well-formed Unicode. JSON text read from UTF-8 is always well-formed; a `\ud800`
 * escape is how a lone surrogate gets in.
 * @throws RefusedJsonError at the first refused place the walk meets.
 */
export function checkJsonDocument(document: unknown): void {
  const stack: Frame[] = [{ value: document, segment: null, parent: null, depth: 0 }];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const { value } = frame;
    if (typeof value === 'string') {
      if (!isWellFormed(value)) throw refused(frame, ILL_FORMED_VALUE);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    const depth = frame.depth + 1;
    if (depth > MAX_JSON_DEPTH)
      throw refused(frame, `is nested more than ${MAX_JSON_DEPTH} levels deep; a JSON document may nest at most ${MAX_JSON_DEPTH} levels`);
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i -= 1) stack.push({ value: value[i] as unknown, segment: i, parent: frame, depth });
      continue;
    }
    const entries = Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const [key, child] = entries[i]!;
      const next: Frame = { value: child, segment: key, parent: frame, depth };
      if (key === FORBIDDEN_KEY) throw refused(next, FORBIDDEN_KEY_PROBLEM);
      if (!isWellFormed(key)) throw refused(next, ILL_FORMED_NAME);
      stack.push(next);
    }
  }
}

/**
 * JSON.parse (which V8 runs without recursion, at any depth), then checkJsonDocument.
 * @throws SyntaxError on malformed text; RefusedJsonError on a document that parsed but is refused.
 */
export function parseJsonText(text: string): unknown {
  const document = JSON.parse(text) as unknown;
  checkJsonDocument(document);
  return document;
}
