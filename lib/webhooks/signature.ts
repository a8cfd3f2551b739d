import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header Voucherify's webhooks carry their signature in. */
export const SIGNATURE_HEADER = 'x-voucherify-signature';

/**
 * The signature of a webhook body: HMAC-SHA256 of the exact bytes sent, keyed with the project's
 * webhook secret, as lowercase hex (docs/decisions.md "Webhook signatures"). A receiver recomputes
 * it over the raw body it got, before parsing it.
 */
export const signBody = (body: string | Uint8Array, secret: string): string => createHmac('sha256', secret).update(body).digest('hex');

/** Whether `signature` is the body's signature under `secret`, compared in constant time (what a receiver does; the tests use it). */
export function verifySignature(body: string | Uint8Array, secret: string, signature: string): boolean {
  const expected = Buffer.from(signBody(body, secret), 'hex');
  const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
