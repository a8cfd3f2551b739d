import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { corsReplyHeaders, normalizeOrigin, preflightHeaders } from '../../../lib/auth/origins.js';

describe('browser origins of client-side keys', () => {
  it.each([
    ['https://shop.example', 'https://shop.example'],
    ['https://shop.example/', 'https://shop.example'],
    ['HTTPS://Shop.Example:443', 'https://shop.example'],
    ['http://localhost:3000', 'http://localhost:3000'],
    ['http://127.0.0.1:80', 'http://127.0.0.1'],
    ['http://[::1]:5173', 'http://[::1]:5173'],
  ])('keeps %s as %s', (raw, kept) => {
    expect(normalizeOrigin(raw)).toBe(kept);
  });

  it.each(['null', 'shop.example', 'https://shop.example/path', 'https://shop.example?x=1', 'https://user:pw@shop.example', 'ftp://shop.example', 'https://'])(
    'refuses %s',
    (raw) => {
      expect(normalizeOrigin(raw)).toBeNull();
    },
  );

  it('is idempotent: a kept origin is kept as it is', () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: false, withFragments: false }), (url) => {
        const origin = normalizeOrigin(new URL(url).origin);
        if (origin !== null) expect(normalizeOrigin(origin)).toBe(origin);
      }),
    );
  });

  it('never answers with *, and always varies by Origin', () => {
    for (const headers of [corsReplyHeaders('https://shop.example'), preflightHeaders('https://shop.example')]) {
      expect(headers['Access-Control-Allow-Origin']).toBe('https://shop.example');
      expect(headers.Vary).toBe('Origin');
    }
  });
});
