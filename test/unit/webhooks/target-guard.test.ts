import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressRefusal, boundedResolve, CLOUD_TARGET_POLICY, resolveTarget, TargetRefused, targetUrlRefusal } from '../../../lib/webhooks/target-guard.js';

const LOCAL = { allowHttp: true, allowLoopback: true };

describe('webhook target guard (SSRF)', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '169.254.170.2',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254',
    'fc00::5',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
    '::ffff:7f00:1',
    '64:ff9b::a9fe:a9fe',
    'ff02::1',
  ])('refuses %s in the cloud', (address) => {
    expect(addressRefusal(address, CLOUD_TARGET_POLICY)).toMatch(/private, loopback, link-local, metadata or reserved/);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::6810:85e5', '::ffff:8.8.8.8'])('allows the public address %s', (address) => {
    expect(addressRefusal(address, CLOUD_TARGET_POLICY)).toBeNull();
  });

  it('allows loopback only under the local policy, and still refuses the metadata address there', () => {
    expect(addressRefusal('127.0.0.1', LOCAL)).toBeNull();
    expect(addressRefusal('::1', LOCAL)).toBeNull();
    expect(addressRefusal('169.254.169.254', LOCAL)).not.toBeNull();
    expect(addressRefusal('10.0.0.1', LOCAL)).not.toBeNull();
  });

  it('refuses every address in 10/8, 172.16/12, 192.168/16 and 169.254/16 (property)', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    fc.assert(
      fc.property(fc.constantFrom('10', '172', '192', '169'), octet, octet, octet, (first, b, c, d) => {
        const second = first === '172' ? 16 + (b % 16) : first === '192' ? 168 : first === '169' ? 254 : b;
        expect(addressRefusal(`${first}.${second}.${c}.${d}`, CLOUD_TARGET_POLICY)).not.toBeNull();
      }),
    );
  });

  it('takes https only in the cloud, http too locally, and never credentials or localhost names in the cloud', () => {
    expect(targetUrlRefusal('https://shop.example.com/hooks', CLOUD_TARGET_POLICY)).toBeNull();
    expect(targetUrlRefusal('http://shop.example.com/hooks', CLOUD_TARGET_POLICY)).toBe('must be an https URL');
    expect(targetUrlRefusal('http://127.0.0.1:9000/hooks', LOCAL)).toBeNull();
    expect(targetUrlRefusal('ftp://shop.example.com/', LOCAL)).toBe('must be an http or https URL');
    expect(targetUrlRefusal('https://user:pw@shop.example.com/', CLOUD_TARGET_POLICY)).toBe('must not carry credentials');
    expect(targetUrlRefusal('https://localhost/', CLOUD_TARGET_POLICY)).toBe('must not name a loopback host');
    expect(targetUrlRefusal('https://[::1]/', CLOUD_TARGET_POLICY)).not.toBeNull();
    expect(targetUrlRefusal('https://169.254.169.254/latest/meta-data', CLOUD_TARGET_POLICY)).not.toBeNull();
    expect(targetUrlRefusal('not a url', CLOUD_TARGET_POLICY)).toBe('must be an absolute URL');
  });

  it('checks every address a name resolves to: one private address among public ones is enough to refuse (DNS rebinding)', async () => {
    const table: Record<string, string[]> = { 'shop.example.com': ['93.184.216.34'], 'rebind.example.com': ['93.184.216.34', '169.254.169.254'] };
    const resolve = async (host: string): Promise<string[]> => table[host] ?? [];
    await expect(resolveTarget(new URL('https://shop.example.com/h'), CLOUD_TARGET_POLICY, resolve)).resolves.toEqual(['93.184.216.34']);
    await expect(resolveTarget(new URL('https://rebind.example.com/h'), CLOUD_TARGET_POLICY, resolve)).rejects.toThrow(TargetRefused);
    await expect(resolveTarget(new URL('https://nowhere.example.com/h'), CLOUD_TARGET_POLICY, resolve)).rejects.toThrow(/resolves to no address/);
    const failing = async (): Promise<string[]> => {
      throw new Error('ENOTFOUND');
    };
    await expect(resolveTarget(new URL('https://shop.example.com/h'), CLOUD_TARGET_POLICY, failing)).rejects.toThrow(/does not resolve/);
  });

  it('treats a name server that never answers as a name that does not resolve, within the bound', async () => {
    const silent = boundedResolve(() => new Promise<string[]>(() => undefined), 50);
    const started = Date.now();
    await expect(resolveTarget(new URL('https://slow.example.com/h'), CLOUD_TARGET_POLICY, silent)).rejects.toThrow(
      /does not resolve \(no answer within 50 ms\)/,
    );
    expect(Date.now() - started).toBeLessThan(2000);
    await expect(boundedResolve(async () => ['93.184.216.34'], 50)('shop.example.com')).resolves.toEqual(['93.184.216.34']);
  });
});
