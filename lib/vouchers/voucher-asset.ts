import type { Voucher } from './voucher.js';

/** The images a voucher's `assets` name: its code as a QR code and as a barcode. */
export const ASSET_TYPES = ['qr', 'barcode'] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

/**
 * The id of a voucher's QR or barcode image: base64url of `<type>:<projectId>:<code>`. The image
 * route renders the code it carries and reads nothing, so an id tells a caller nothing the id's
 * holder did not already have, and no id can probe whether a code exists.
 */
export const assetId = (v: Pick<Voucher, 'projectId' | 'code'>, type: AssetType): string =>
  Buffer.from(`${type}:${v.projectId}:${v.code}`, 'utf8').toString('base64url');

/** Where the image is served: GET /v1/assets/{assetType}/{assetId} on the API cluster (no credentials). */
export const assetPath = (v: Pick<Voucher, 'projectId' | 'code'>, type: AssetType): string => `/v1/assets/${type}/${assetId(v, type)}`;

/**
 * The code an asset id of `type` carries, or null when the id is not one this service writes (another
 * type's, not base64url, or a code no voucher could have: empty, longer than 255, not printable ASCII).
 */
export function assetCode(type: AssetType, id: string): string | null {
  if (!/^[A-Za-z0-9_-]+$/.test(id)) return null;
  const text = Buffer.from(id, 'base64url').toString('utf8');
  // A round trip that changes the id means it was not canonical base64url of UTF-8.
  if (Buffer.from(text, 'utf8').toString('base64url') !== id) return null;
  const match = /^([a-z]+):([^:]+):([\x21-\x7e]{1,255})$/.exec(text);
  if (!match || match[1] !== type) return null;
  return match[3] ?? null;
}
