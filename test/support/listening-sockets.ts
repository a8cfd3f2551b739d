import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';

/** Linux lists every socket of the machine's network namespace here; elsewhere the socket checks are skipped. */
export const canListSockets = existsSync('/proc/net/tcp');

const LISTEN = '0A';

/** `0100007F` → 127.0.0.1: /proc prints each 32-bit word in host (little-endian) byte order. */
function wordBytes(hex: string): number[] {
  const bytes: number[] = [];
  for (let i = hex.length - 2; i >= 0; i -= 2) bytes.push(Number.parseInt(hex.slice(i, i + 2), 16));
  return bytes;
}

function ipv6Of(hex: string): string {
  const bytes = [0, 8, 16, 24].flatMap((i) => wordBytes(hex.slice(i, i + 8)));
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) return `::ffff:${bytes.slice(12).join('.')}`;
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)).toString(16));
  const full = groups.join(':');
  if (full === '0:0:0:0:0:0:0:0') return '::';
  if (full === '0:0:0:0:0:0:0:1') return '::1';
  return full;
}

/** The local addresses of every TCP socket listening on `port` (IPv4 and IPv6), from /proc/net/tcp{,6}. */
export function listeningAddresses(port: number): string[] {
  const found: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (!local || state !== LISTEN) continue;
      const [address, portHex] = local.split(':');
      if (!address || Number.parseInt(portHex ?? '', 16) !== port) continue;
      found.push(address.length === 8 ? wordBytes(address).join('.') : ipv6Of(address));
    }
  }
  return found;
}

const LOOPBACK_ADDRESSES = new Set(['127.0.0.1', '::ffff:127.0.0.1', '::1']);

export const isLoopback = (address: string): boolean => LOOPBACK_ADDRESSES.has(address);

/** One of this machine's own addresses that is not loopback (how another machine would reach it), if it has one. */
export function externalAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((i) => i !== undefined && !i.internal && i.family === 'IPv4')?.address;
}

/** Connects to host:port and reports what happened: 'connected', or the error code (ECONNREFUSED, ...). */
export function tryConnect(host: string, port: number, timeoutMs = 2000): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve('ETIMEDOUT');
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(error.code ?? error.message);
    });
  });
}
