import { randomInt } from 'node:crypto';

/** Voucherify's alphanumeric charset, the default for generated codes. */
export const ALPHANUMERIC = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** Generated positions when neither `pattern` nor `length` is given (Voucherify: 8). */
export const DEFAULT_CODE_LENGTH = 8;
/** The character in `pattern` that stands for one random character of `charset`. */
export const PATTERN_SLOT = '#';
/** Longest code accepted or generated (prefix + pattern + postfix), in characters. */
export const MAX_CODE_LENGTH = 255;
/** Characters a code may hold: printable ASCII without space (spec: letters, digits, special characters). */
export const CODE_CHARACTERS = /^[\x21-\x7e]+$/;

/**
 * Codes no ordinary HTTP client can put in a URL path: `.` and `..` are dot-segments, which
 * clients resolve away before sending (RFC 3986 §5.2.4; WHATWG URL does it for `%2e` too), so
 * `/v1/vouchers/..` arrives as `/v1/`. A client may not choose them and the generator never draws them.
 */
export const isDotSegment = (code: string): boolean => code === '.' || code === '..';

/** A code configuration as a client may send it: every field optional. */
export interface CodeConfigInput {
  length?: number | undefined;
  charset?: string | undefined;
  prefix?: string | undefined;
  postfix?: string | undefined;
  pattern?: string | undefined;
  initialCount?: number | undefined;
}

/** A complete configuration: what is stored on a campaign and used to generate. */
export interface CodeConfig {
  /** Number of generated positions: the count of `#` in `pattern`. */
  length: number;
  charset: string;
  pattern: string;
  prefix: string | null;
  postfix: string | null;
  initialCount: number | null;
}

/**
 * Completes a configuration. Fields given in `input` replace those of `base` (the campaign's);
 * `pattern` wins over `length` (Voucherify: "pattern overrides length"), and a `length` given
 * without a pattern yields a pattern of that many `#`. A charset's repeated characters are
 * dropped so that every character is equally likely and the capacity is counted right.
 */
export function resolveCodeConfig(input: CodeConfigInput | undefined, base?: CodeConfig): CodeConfig {
  const charset = dedupe(input?.charset ?? base?.charset ?? ALPHANUMERIC);
  const pattern =
    input?.pattern ?? (input?.length !== undefined ? PATTERN_SLOT.repeat(input.length) : (base?.pattern ?? PATTERN_SLOT.repeat(DEFAULT_CODE_LENGTH)));
  return {
    length: slotCount(pattern),
    charset,
    pattern,
    prefix: input?.prefix ?? base?.prefix ?? null,
    postfix: input?.postfix ?? base?.postfix ?? null,
    initialCount: input?.initialCount ?? base?.initialCount ?? null,
  };
}

function dedupe(charset: string): string {
  return [...new Set(charset)].join('');
}

const slotCount = (pattern: string): number => [...pattern].filter((c) => c === PATTERN_SLOT).length;

/** Length of every code the configuration produces. */
export const codeLength = (config: CodeConfig): number => (config.prefix?.length ?? 0) + config.pattern.length + (config.postfix?.length ?? 0);

/**
 * The dot-segment code the configuration could produce, if any: all its codes have one length,
 * so at most one (`.` for length 1, `..` for length 2, when every position may be a dot).
 */
export function dotSegmentCodeOf(config: CodeConfig): string | null {
  const length = codeLength(config);
  if (length !== 1 && length !== 2) return null;
  const code = '.'.repeat(length);
  return matchesConfig(code, config) ? code : null;
}

/**
 * How many distinct codes the configuration can produce: charset size ^ generated positions,
 * less the dot-segment code it never generates (dotSegmentCodeOf). Exact as a bigint, so a
 * 40-position pattern does not round to Infinity.
 */
export function codeCapacity(config: CodeConfig): bigint {
  const all = BigInt(config.charset.length) ** BigInt(config.length);
  return dotSegmentCodeOf(config) === null ? all : all - 1n;
}

/** A uniform random integer in [0, n). */
export type RandomInt = (n: number) => number;

const cryptoRandom: RandomInt = (n) => randomInt(n);

/** One random code of the configuration: every `#` replaced by a random charset character. */
export function generateCode(config: CodeConfig, random: RandomInt = cryptoRandom): string {
  let body = '';
  for (const c of config.pattern) body += c === PATTERN_SLOT ? config.charset[random(config.charset.length)] : c;
  return `${config.prefix ?? ''}${body}${config.postfix ?? ''}`;
}

/** Whether `code` is one the configuration could have produced. */
export function matchesConfig(code: string, config: CodeConfig): boolean {
  const prefix = config.prefix ?? '';
  const postfix = config.postfix ?? '';
  if (!code.startsWith(prefix) || !code.endsWith(postfix)) return false;
  const body = code.slice(prefix.length, code.length - postfix.length);
  if (body.length !== config.pattern.length || code.length !== codeLength(config)) return false;
  return [...config.pattern].every((p, i) => (p === PATTERN_SLOT ? config.charset.includes(body[i] ?? '') : p === body[i]));
}

/** Candidates allowed per wanted code before a large space is declared full: at 90 % occupancy, 64 misses in a row happen with p ≈ 0.1 %. */
export const MAX_TRIES_PER_CODE = 64;

/** Spaces up to this size are searched exhaustively instead of at random. */
export const SMALL_SPACE = 4096n;

/**
 * Draws candidate codes for `wanted` new codes, never offering the same one twice. A small space
 * (≤ SMALL_SPACE codes) is searched exhaustively: every code is offered once, then `next` returns
 * null, so "full" is exact. A large space is sampled at random with a budget of
 * MAX_TRIES_PER_CODE candidates per wanted code, after which it counts as full. Either way a
 * crowded pattern ends in a clear answer instead of a loop.
 */
export class CodeSampler {
  private readonly tried = new Set<string>();
  private readonly capacity: bigint;
  private readonly budget: number;

  constructor(
    private readonly config: CodeConfig,
    wanted: number,
    private readonly random: RandomInt = cryptoRandom,
  ) {
    this.capacity = codeCapacity(config);
    const perCode = BigInt(Math.max(1, wanted) * MAX_TRIES_PER_CODE);
    this.budget = Number(this.capacity <= SMALL_SPACE || this.capacity < perCode ? this.capacity : perCode);
  }

  /** Codes offered so far. */
  get offered(): number {
    return this.tried.size;
  }

  /** A code not offered before, or null once the space is exhausted or the budget spent. */
  next(): string | null {
    if (this.tried.size >= this.budget) return null;
    if (this.capacity <= SMALL_SPACE) return this.nextFromSmallSpace();
    for (;;) {
      const code = generateCode(this.config, this.random);
      // A large space holds thousands of other codes, so redrawing past the dot-segment code ends quickly.
      if (!this.tried.has(code) && !isDotSegment(code)) {
        this.tried.add(code);
        return code;
      }
    }
  }

  private nextFromSmallSpace(): string {
    const free: string[] = [];
    const size = Number(this.capacity);
    for (let index = 0; index < size; index += 1) {
      const code = this.codeAt(index);
      if (!this.tried.has(code) && !isDotSegment(code)) free.push(code);
    }
    const code = free[this.random(free.length)] as string;
    this.tried.add(code);
    return code;
  }

  /** The index-th code of the space in charset order (mixed radix over the `#` positions). */
  private codeAt(index: number): string {
    const { charset, pattern } = this.config;
    const slots = [...pattern];
    let rest = index;
    for (let i = slots.length - 1; i >= 0; i -= 1) {
      if (slots[i] !== PATTERN_SLOT) continue;
      slots[i] = charset[rest % charset.length] as string;
      rest = Math.floor(rest / charset.length);
    }
    return `${this.config.prefix ?? ''}${slots.join('')}${this.config.postfix ?? ''}`;
  }
}
