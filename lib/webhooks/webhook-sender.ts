import { net } from '../builtins.js';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { type Resolve, resolveTarget, type TargetPolicy } from './target-guard.js';
import { SIGNATURE_HEADER, signBody } from './signature.js';

/** Limits of one delivery attempt. */
export interface SendLimits {
  /** The whole attempt (connect, send, status line and the bounded read) ends after this. */
  timeoutMs: number;
  /** Bytes of the receiver's reply read at most; the rest is not read (the connection is closed). */
  maxReplyBytes: number;
}

export const DEFAULT_SEND_LIMITS: SendLimits = { timeoutMs: 10_000, maxReplyBytes: 64 * 1024 };

export type SendOutcome =
  /** The receiver answered; `delivered` when with a 2xx. */
  | { kind: 'answered'; status: number; delivered: boolean; replyBytes: number }
  /** The target is refused by the policy (SSRF guard) or does not resolve: not sent. */
  | { kind: 'refused'; reason: string }
  /** Connect error, reset, or timeout: nothing is known of the receiver's side. */
  | { kind: 'failed'; reason: string };

export interface Delivery {
  url: string;
  /** The exact body sent and signed. */
  body: string;
  /** The project's webhook secret. */
  secret: string;
  /** The event's id, stable across retries, for the receiver's de-duplication. */
  eventId: string;
}

/**
 * Sends one webhook: resolves the target under `policy` (every address allowed, else not sent),
 * connects to the address that was checked (a second lookup could answer differently: DNS
 * rebinding), POSTs the signed body and reads at most `maxReplyBytes` of the reply. Never throws.
 */
export async function sendWebhook(delivery: Delivery, deps: { policy: TargetPolicy; resolve: Resolve; limits?: SendLimits }): Promise<SendOutcome> {
  const limits = deps.limits ?? DEFAULT_SEND_LIMITS;
  const url = new URL(delivery.url);
  let addresses: string[];
  try {
    addresses = await resolveTarget(url, deps.policy, deps.resolve);
  } catch (error) {
    return { kind: 'refused', reason: (error as Error).message };
  }
  const [address] = addresses;
  if (address === undefined) return { kind: 'refused', reason: 'no address' };
  const family = net().isIP(address);
  // The checked address, whatever the socket asks for: one answer, or a list of one for happy-eyeballs connects.
  const pinned = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
  const body = Buffer.from(delivery.body, 'utf8');
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (outcome: SendOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(outcome);
    };
    const req = send(url, {
      method: 'POST',
      lookup: pinned,
      headers: {
        'content-type': 'application/json',
        'content-length': String(body.byteLength),
        'user-agent': 'promo-engine-webhooks',
        [SIGNATURE_HEADER]: signBody(body, delivery.secret),
        'x-voucherify-event-id': delivery.eventId,
      },
    });
    timer = setTimeout(() => finish({ kind: 'failed', reason: `no complete answer within ${limits.timeoutMs} ms` }), limits.timeoutMs);
    req.on('error', (error) => finish({ kind: 'failed', reason: error.message }));
    req.on('response', (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      let replyBytes = 0;
      const answered = (): void => finish({ kind: 'answered', status, delivered: status >= 200 && status < 300, replyBytes });
      res.on('data', (chunk: Buffer) => {
        replyBytes += chunk.byteLength;
        // Enough is known from the status; a receiver that streams without end must not hold the worker.
        if (replyBytes >= limits.maxReplyBytes) answered();
      });
      res.on('end', answered);
      res.on('error', answered);
    });
    req.end(body);
  });
}
