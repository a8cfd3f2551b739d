import { describe, expect, it } from 'vitest';
import { ipAllowed, parseCidr } from '../../../lib/auth/ip-allow-list.js';
import { hashSecret, secretMatches } from '../../../lib/auth/secrets.js';

describe('IP allow-list', () => {
  it('allows any address when the list is absent or empty', () => {
    expect(ipAllowed(null, '1.2.3.4')).toBe(true);
    expect(ipAllowed([], undefined)).toBe(true);
  });

  it('matches IPv4 and IPv6 CIDRs and single hosts, including IPv4-mapped peers', () => {
    const list = ['10.0.0.0/8', '203.0.113.7', '2001:db8::/32'];
    expect(ipAllowed(list, '10.200.1.1')).toBe(true);
    expect(ipAllowed(list, '11.0.0.1')).toBe(false);
    expect(ipAllowed(list, '203.0.113.7')).toBe(true);
    expect(ipAllowed(list, '203.0.113.8')).toBe(false);
    expect(ipAllowed(list, '::ffff:10.1.2.3')).toBe(true);
    expect(ipAllowed(list, '2001:db8:1::5')).toBe(true);
    expect(ipAllowed(list, undefined)).toBe(false);
    expect(ipAllowed(list, 'not-an-ip')).toBe(false);
  });

  it('rejects malformed CIDRs', () => {
    for (const bad of ['10.0.0.0/33', '10.0.0/8', 'abc', '1.2.3.4/8/1', '::1/129', '1.2.3.4/x']) expect(parseCidr(bad)).toBeNull();
    expect(parseCidr('::1/128')).toEqual({ address: '::1', prefix: 128, family: 'ipv6' });
  });
});

describe('secrets', () => {
  it('stores only a SHA-256 hash and compares presented secrets against it', () => {
    const hash = hashSecret('s3cret');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain('s3cret');
    expect(secretMatches('s3cret', hash)).toBe(true);
    expect(secretMatches('s3cret ', hash)).toBe(false);
    expect(secretMatches('s3cret', 'short')).toBe(false);
  });
});
