import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assetCode, assetId, assetPath } from '../../../lib/vouchers/voucher-asset.js';
import { assetScale, getVoucherAsset } from '../../../lib/vouchers/voucher-asset.service.js';
import { NotFoundError } from '../../../lib/errors.js';

const code = fc.stringMatching(/^[\x21-\x7e]{1,255}$/);

describe('voucher asset ids', () => {
  it('gives back the code of every id it writes, for its own type only', () => {
    fc.assert(
      fc.property(code, fc.constantFrom('qr' as const, 'barcode' as const), (c, type) => {
        const id = assetId({ projectId: 'proj_abc', code: c }, type);
        expect(assetCode(type, id)).toBe(c);
        expect(assetCode(type === 'qr' ? 'barcode' : 'qr', id)).toBeNull();
        expect(assetPath({ projectId: 'proj_abc', code: c }, type)).toBe(`/v1/assets/${type}/${id}`);
      }),
    );
  });

  it('refuses ids it does not write: not base64url, not canonical, no code, a code no voucher could have', () => {
    const enc = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
    expect(assetCode('qr', 'a+b/c=')).toBeNull();
    expect(assetCode('qr', `${enc('qr:proj_a:CODE')}A`)).toBeNull();
    expect(assetCode('qr', enc('qr:proj_a:'))).toBeNull();
    expect(assetCode('qr', enc('qr:proj_a:has space'))).toBeNull();
    expect(assetCode('qr', enc(`qr:proj_a:${'X'.repeat(256)}`))).toBeNull();
    expect(assetCode('qr', enc('qr:proj_a:ÄÖ'))).toBeNull();
  });

  it('draws a tenth of size (rounded up) pixels per module, 4 without size', () => {
    expect([undefined, 1, 10, 11, 55, 100].map(assetScale)).toEqual([4, 1, 1, 2, 6, 10]);
  });

  it('draws the code the id carries: the same id gives the same image, another code another image', async () => {
    const svg = async (c: string) =>
      getVoucherAsset('qr', assetId({ projectId: 'proj_a', code: c }, 'qr'), { format: 'svg', size: undefined }).then((i) => ('text' in i ? i.text : ''));
    expect(await svg('CODE-A')).toBe(await svg('CODE-A'));
    expect(await svg('CODE-A')).not.toBe(await svg('CODE-B'));
    await expect(getVoucherAsset('barcode', 'nope', { format: 'png', size: undefined })).rejects.toBeInstanceOf(NotFoundError);
  });
});
