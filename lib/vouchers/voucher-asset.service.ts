import { NotFoundError } from '../errors.js';
import { type AssetType, assetCode } from './voucher-asset.js';
import type { VoucherAssetQuery } from './voucher-asset.schema.js';
import { barcodeSymbol, qrSymbol, toPng, toSvg } from './voucher-image.js';

/** An image to send: PNG bytes or SVG text. */
export type VoucherAssetImage = { contentType: 'image/png'; bytes: Uint8Array } | { contentType: 'image/svg+xml'; text: string };

/** Pixels per module (QR) or per narrowest bar (barcode) when no `size` is asked. */
export const DEFAULT_ASSET_SCALE = 4;

/**
 * Pixels per module for Voucherify's `size` (1–100): a tenth of it, rounded up, so `size=100` is
 * 10 px. Read as pixels per module, 100 would make a 255-character barcode an image of 25,000 px
 * and seconds of CPU for one unauthenticated request.
 */
export const assetScale = (size: number | undefined): number => (size === undefined ? DEFAULT_ASSET_SCALE : Math.ceil(size / 10));

/**
 * GET /v1/assets/{assetType}/{assetId}: the voucher code the id carries, drawn as a QR code or a
 * Code 128 barcode (set B; no text under it). Reads nothing: the image is a function of the
 * id, so it is the same for a deleted voucher, and an id proves nothing about a code's existence.
 * @throws NotFoundError for an id this service does not write, or another type's id.
 */
export async function getVoucherAsset(type: AssetType, id: string, query: VoucherAssetQuery): Promise<VoucherAssetImage> {
  const code = assetCode(type, id);
  if (code === null) throw new NotFoundError('asset', id);
  const symbol = type === 'qr' ? qrSymbol(code) : barcodeSymbol(code);
  const scale = assetScale(query.size);
  if (query.format === 'svg') return { contentType: 'image/svg+xml', text: toSvg(symbol, scale) };
  return { contentType: 'image/png', bytes: toPng(symbol, scale) };
}
