import { net } from '../builtins.js';

/**
 * Parses one CIDR (or a bare address, meaning a single host).
 * @returns null when the text is not a valid IPv4/IPv6 CIDR.
 */
export function parseCidr(text: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const [address = '', prefixText, extra] = text.trim().split('/');
  if (extra !== undefined) return null;
  const version = net().isIP(address);
  if (version === 0) return null;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  const max = version === 4 ? 32 : 128;
  if (prefixText === undefined) return { address, prefix: max, family };
  if (!/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  return prefix <= max ? { address, prefix, family } : null;
}

/**
 * Whether `ip` falls inside any of `cidrs`. An empty or absent list means "any address".
 * IPv4-mapped IPv6 addresses (::ffff:a.b.c.d, as Node reports IPv4 peers on dual-stack
 * sockets) are matched as IPv4.
 */
export function ipAllowed(cidrs: readonly string[] | null, ip: string | undefined): boolean {
  if (!cidrs || cidrs.length === 0) return true;
  if (!ip) return false;
  const normalized = ip.startsWith('::ffff:') && net().isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
  const family = net().isIP(normalized);
  if (family === 0) return false;
  const list = new (net().BlockList)();
  for (const cidr of cidrs) {
    const parsed = parseCidr(cidr);
    if (parsed) list.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  return list.check(normalized, family === 4 ? 'ipv4' : 'ipv6');
}
