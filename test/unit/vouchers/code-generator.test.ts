import { describe, expect, it } from 'vitest';
import {
  ALPHANUMERIC,
  CodeSampler,
  codeCapacity,
  codeLength,
  dotSegmentCodeOf,
  generateCode,
  matchesConfig,
  MAX_TRIES_PER_CODE,
  resolveCodeConfig,
} from '../../../lib/vouchers/code-generator.js';

/** A deterministic "random" source cycling through the given values. */
const sequence = (...values: number[]) => {
  let i = 0;
  return (n: number): number => (values[i++ % values.length] ?? 0) % n;
};

describe('resolveCodeConfig', () => {
  it('defaults to 8 alphanumeric characters, as Voucherify does', () => {
    expect(resolveCodeConfig(undefined)).toEqual({
      length: 8,
      charset: ALPHANUMERIC,
      pattern: '########',
      prefix: null,
      postfix: null,
      initialCount: null,
    });
  });

  it('lets a pattern override length, and derives the length from its # count', () => {
    const config = resolveCodeConfig({ pattern: '10OFF-#######', length: 3 });
    expect(config.pattern).toBe('10OFF-#######');
    expect(config.length).toBe(7);
  });

  it('turns a length without a pattern into that many # positions', () => {
    expect(resolveCodeConfig({ length: 5 }).pattern).toBe('#####');
  });

  it('replaces only the fields given when completing a base configuration', () => {
    const base = resolveCodeConfig({ pattern: 'AB-##', charset: 'xyz', prefix: 'P' });
    const merged = resolveCodeConfig({ postfix: '-Z' }, base);
    expect(merged).toMatchObject({ pattern: 'AB-##', charset: 'xyz', prefix: 'P', postfix: '-Z' });
    expect(resolveCodeConfig({ length: 3 }, base).pattern).toBe('###');
  });

  it('drops repeated charset characters so each is equally likely', () => {
    expect(resolveCodeConfig({ charset: 'aabbc' }).charset).toBe('abc');
  });
});

describe('generateCode', () => {
  it('replaces every # with a charset character and keeps the rest, with prefix and postfix around it', () => {
    const config = resolveCodeConfig({ pattern: 'A-##-B', charset: 'xyz', prefix: 'pre-', postfix: '-post' });
    expect(generateCode(config, sequence(0, 2))).toBe('pre-A-xz-B-post');
  });

  it('produces codes of the configured shape with the real random source', () => {
    const config = resolveCodeConfig({ pattern: 'GIFT-####', charset: '0123456789' });
    for (let i = 0; i < 200; i += 1) {
      const code = generateCode(config);
      expect(code).toMatch(/^GIFT-\d{4}$/);
      expect(matchesConfig(code, config)).toBe(true);
    }
    expect(codeLength(config)).toBe(9);
  });

  it('uses every charset character over many draws', () => {
    const config = resolveCodeConfig({ length: 1, charset: 'abcd' });
    const seen = new Set(Array.from({ length: 400 }, () => generateCode(config)));
    expect([...seen].sort()).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('matchesConfig', () => {
  it('refuses codes with another literal, length, prefix or character', () => {
    const config = resolveCodeConfig({ pattern: 'A#', charset: '01', prefix: 'p' });
    expect(matchesConfig('pA0', config)).toBe(true);
    expect(matchesConfig('pB0', config)).toBe(false);
    expect(matchesConfig('pA2', config)).toBe(false);
    expect(matchesConfig('pA01', config)).toBe(false);
    expect(matchesConfig('qA0', config)).toBe(false);
  });
});

describe('codeCapacity', () => {
  it('is charset size to the power of the generated positions', () => {
    expect(codeCapacity(resolveCodeConfig({ pattern: 'X-##', charset: '0123456789' }))).toBe(100n);
    expect(codeCapacity(resolveCodeConfig(undefined))).toBe(62n ** 8n);
  });

  it('is exactly 1 for a pattern without # and stays exact for huge spaces', () => {
    expect(codeCapacity(resolveCodeConfig({ pattern: 'FIXED' }))).toBe(1n);
    expect(codeCapacity(resolveCodeConfig({ length: 40 }))).toBe(62n ** 40n);
  });
});

describe('CodeSampler', () => {
  it('offers every code of a small space exactly once, then says it is exhausted', () => {
    const config = resolveCodeConfig({ pattern: 'C#', charset: '0123456789' });
    const sampler = new CodeSampler(config, 1);
    const offered: string[] = [];
    for (let code = sampler.next(); code !== null; code = sampler.next()) offered.push(code);
    expect(offered).toHaveLength(10);
    expect(new Set(offered).size).toBe(10);
    expect(offered.every((c) => matchesConfig(c, config))).toBe(true);
    expect(sampler.next()).toBeNull();
  });

  it('never repeats a candidate in a large space and stops after its budget', () => {
    const config = resolveCodeConfig({ length: 3, charset: ALPHANUMERIC });
    const sampler = new CodeSampler(config, 2);
    const offered = new Set<string>();
    for (let code = sampler.next(); code !== null; code = sampler.next()) offered.add(code);
    expect(offered.size).toBe(2 * MAX_TRIES_PER_CODE);
  });

  it('redraws a repeated random value instead of offering it again', () => {
    const config = resolveCodeConfig({ length: 3, charset: ALPHANUMERIC });
    const sampler = new CodeSampler(config, 1, sequence(0, 0, 0, 0, 0, 0, 1, 1, 1));
    expect(sampler.next()).toBe('000');
    expect(sampler.next()).toBe('111');
  });

  it('offers a single fixed code once for a pattern without #', () => {
    const sampler = new CodeSampler(resolveCodeConfig({ pattern: 'ONLY' }), 5);
    expect(sampler.next()).toBe('ONLY');
    expect(sampler.next()).toBeNull();
  });
});

describe('dot-segment codes (. and ..), which no HTTP client can address', () => {
  it('finds the one dot-segment code a configuration could produce, if any', () => {
    expect(dotSegmentCodeOf(resolveCodeConfig({ pattern: '#', charset: '.a' }))).toBe('.');
    expect(dotSegmentCodeOf(resolveCodeConfig({ pattern: '##', charset: 'ab.' }))).toBe('..');
    expect(dotSegmentCodeOf(resolveCodeConfig({ pattern: '#', charset: '.', prefix: '.' }))).toBe('..');
    expect(dotSegmentCodeOf(resolveCodeConfig({ pattern: '..' }))).toBe('..');
    expect(dotSegmentCodeOf(resolveCodeConfig({ pattern: '###', charset: '.' }))).toBeNull();
    expect(dotSegmentCodeOf(resolveCodeConfig({ pattern: '##', charset: 'ab' }))).toBeNull();
    expect(dotSegmentCodeOf(resolveCodeConfig({ pattern: '#', charset: '.', prefix: 'x' }))).toBeNull();
  });

  it('leaves the dot-segment code out of the capacity', () => {
    expect(codeCapacity(resolveCodeConfig({ pattern: '##', charset: 'a.' }))).toBe(3n);
    expect(codeCapacity(resolveCodeConfig({ pattern: '##', charset: '.' }))).toBe(0n);
    expect(codeCapacity(resolveCodeConfig({ pattern: '..' }))).toBe(0n);
    expect(codeCapacity(resolveCodeConfig({ pattern: '...' }))).toBe(1n);
  });

  it('never offers . or .. from a small space, and says it is exhausted once the rest is offered', () => {
    const sampler = new CodeSampler(resolveCodeConfig({ pattern: '##', charset: 'a.' }), 1);
    const offered: string[] = [];
    for (let code = sampler.next(); code !== null; code = sampler.next()) offered.push(code);
    expect(offered.sort()).toEqual(['.a', 'a.', 'aa']);
    expect(new CodeSampler(resolveCodeConfig({ pattern: '#', charset: '.' }), 1).next()).toBeNull();
  });

  it('redraws past .. in a large space, even when the random source keeps landing on it', () => {
    // Every printable ASCII character: 94 ** 2 = 8,836 codes, beyond the small-space search.
    const charset = Array.from({ length: 94 }, (_, i) => String.fromCharCode(0x21 + i)).join('');
    const config = resolveCodeConfig({ pattern: '##', charset });
    const dot = charset.indexOf('.');
    const sampler = new CodeSampler(config, 1, sequence(dot, dot, dot, dot, dot, 0));
    expect(sampler.next()).toBe('.!');
    expect(codeCapacity(config)).toBe(94n * 94n - 1n);
  });
});
