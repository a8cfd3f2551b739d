import type { BlockList } from 'node:net';
import { net } from '../builtins.js';

/**
 * Where a webhook may be sent (issue 40 "Safety"). A target names a host; what is checked is every
 * address that host resolves to, at creation and again at each delivery (DNS may change between
 * the two: a name that pointed at the shop may later point at 169.254.169.254), and the delivery
 * connects to the address that was checked, never resolving again (webhook-sender.ts).
 */

/** Address ranges no webhook may reach in the cloud: the deployment's own network, the metadata services, and non-unicast space. */
const FORBIDDEN: readonly [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'], // "this" network
  ['10.0.0.0', 8, 'ipv4'], // private
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['127.0.0.0', 8, 'ipv4'], // loopback
  ['169.254.0.0', 16, 'ipv4'], // link-local, with the EC2/ECS/Lambda metadata endpoints (169.254.169.254, 169.254.170.2)
  ['172.16.0.0', 12, 'ipv4'], // private
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
  ['192.0.2.0', 24, 'ipv4'], // documentation
  ['192.168.0.0', 16, 'ipv4'], // private
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['198.51.100.0', 24, 'ipv4'], // documentation
  ['203.0.113.0', 24, 'ipv4'], // documentation
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, and broadcast
  ['::', 128, 'ipv6'], // unspecified
  ['::1', 128, 'ipv6'], // loopback
  ['64:ff9b::', 96, 'ipv6'], // NAT64: embeds an IPv4 address that would not be checked
  ['100::', 64, 'ipv6'], // discard
  ['2001:db8::', 32, 'ipv6'], // documentation
  ['fc00::', 7, 'ipv6'], // unique local (with the EC2 metadata endpoint fd00:ec2::254)
  ['fe80::', 10, 'ipv6'], // link-local
  ['ff00::', 8, 'ipv6'], // multicast
];

const LOOPBACK: readonly [string, number, 'ipv4' | 'ipv6'][] = [
  ['127.0.0.0', 8, 'ipv4'],
  ['::1', 128, 'ipv6'],
];

const listOf = (ranges: readonly [string, number, 'ipv4' | 'ipv6'][]): BlockList => {
  const list = new (net().BlockList)();
  for (const [address, prefix, family] of ranges) list.addSubnet(address, prefix, family);
  return list;
};
let lists: { forbidden: BlockList; loopback: BlockList } | undefined;
/** Built on the first check: `node:net` is loaded when a target is first judged, not with the module. */
const rangeLists = () => (lists ??= { forbidden: listOf(FORBIDDEN), loopback: listOf(LOOPBACK) });

/** The IPv4 address inside an IPv4-mapped or -compatible IPv6 address (`::ffff:10.0.0.1`), which reaches that IPv4 host. */
function embeddedIpv4(address: string): string | undefined {
  const match = /^::(?:ffff:)?((?:\d{1,3}\.){3}\d{1,3})$/i.exec(address);
  if (match?.[1]) return match[1];
  const hex = /^::(?:ffff:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex?.[1] || !hex[2]) return undefined;
  const high = Number.parseInt(hex[1], 16);
  const low = Number.parseInt(hex[2], 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

export interface TargetPolicy {
  /** Whether `http:` targets are accepted (the local runtime); the deployed stacks take `https:` only. */
  allowHttp: boolean;
  /** Whether loopback addresses are accepted (the local runtime, so a receiver on the same machine can be tested). */
  allowLoopback: boolean;
}

/** The deployed stacks' policy. */
export const CLOUD_TARGET_POLICY: TargetPolicy = { allowHttp: false, allowLoopback: false };

/** Why an address may not be reached under `policy`, or null when it may. */
export function addressRefusal(address: string, policy: TargetPolicy): string | null {
  const family = net().isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  const v4 = family === 6 ? embeddedIpv4(address) : undefined;
  const [ip, type] = v4 ? [v4, 'ipv4' as const] : [address, family === 4 ? ('ipv4' as const) : ('ipv6' as const)];
  if (policy.allowLoopback && rangeLists().loopback.check(ip, type)) return null;
  return rangeLists().forbidden.check(ip, type) ? `${address} is a private, loopback, link-local, metadata or reserved address` : null;
}

/** A target URL that may be stored, or why not. Checks what the text alone can tell (scheme, credentials, literal addresses). */
export function targetUrlRefusal(text: string, policy: TargetPolicy): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && !(policy.allowHttp && url.protocol === 'http:'))
    return policy.allowHttp ? 'must be an http or https URL' : 'must be an https URL';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials';
  if (url.hostname === '') return 'must name a host';
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (net().isIP(host) !== 0) return addressRefusal(host, policy);
  // Names that resolve to loopback on every machine, refused before any lookup.
  if (!policy.allowLoopback && (host === 'localhost' || host.endsWith('.localhost'))) return 'must not name a loopback host';
  return null;
}

/** Resolves a host to all its addresses (node:dns `lookup` with `all: true` in production; a table in tests). */
export type Resolve = (host: string) => Promise<string[]>;

/**
 * `resolve`, failing after `ms`: a resolver that never answers (an unreachable name server retries
 * for tens of seconds) must not hold a webhook write past API Gateway's 29 s, nor a delivery.
 */
export function boundedResolve(resolve: Resolve, ms: number): Resolve {
  return (host) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    });
    return Promise.race([resolve(host), late]).finally(() => clearTimeout(timer));
  };
}

/**
 * The addresses a delivery may connect to for `url`: all of its host's addresses, each allowed by
 * `policy`. Throws TargetRefused when the URL or any address is refused (one bad address is enough:
 * a resolver may hand out any of them), or when the name does not resolve.
 */
export async function resolveTarget(url: URL, policy: TargetPolicy, resolve: Resolve): Promise<string[]> {
  const refusal = targetUrlRefusal(url.href, policy);
  if (refusal) throw new TargetRefused(refusal);
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (net().isIP(host) !== 0) return [host];
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch (error) {
    throw new TargetRefused(`${host} does not resolve (${(error as Error).message})`);
  }
  if (addresses.length === 0) throw new TargetRefused(`${host} resolves to no address`);
  for (const address of addresses) {
    const why = addressRefusal(address, policy);
    if (why) throw new TargetRefused(`${host} resolves to ${why}`);
  }
  return addresses;
}

/** A target the policy refuses: a delivery to it is not attempted (and is not retried until its DNS changes). */
export class TargetRefused extends Error {
  override readonly name = 'TargetRefused';
}
