import { inflateSync } from 'node:zlib';
import { code128, drawingSVG, qrcode } from 'bwip-js/node';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { barcodeSymbol, code128Modules, qrSymbol, toPng, toSvg } from '../../../lib/vouchers/voucher-image.js';

/** The modules of bwip-js's Code 128 SVG (scale 1): each stroke is a bar of its width, centred on its x. */
function bwipCode128Modules(text: string): boolean[] {
  const svg = code128({ bcid: 'code128', text, scale: 1, height: 1 }, drawingSVG());
  const width = Number(/viewBox="0 0 (\d+) /.exec(svg)?.[1]);
  const modules = new Array<boolean>(width).fill(false);
  for (const [, w, d] of svg.matchAll(/stroke-width="(\d+)" d="([^"]+)"/g)) {
    for (const [, x] of (d ?? '').matchAll(/M([\d.]+) \d+L/g)) {
      const from = Number(x) - Number(w) / 2;
      for (let k = 0; k < Number(w); k += 1) modules[from + k] = true;
    }
  }
  return modules;
}

/** The pixels of a 1-bit grayscale PNG (true = black), read back from its IDAT. */
function pngPixels(png: Buffer): { width: number; height: number; dark: (x: number, y: number) => boolean } {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  expect([...png.subarray(24, 29)]).toEqual([1, 0, 0, 0, 0]);
  const idat = png.indexOf('IDAT');
  const raw = inflateSync(png.subarray(idat + 4, idat + 4 + png.readUInt32BE(idat - 4)));
  const rowBytes = Math.ceil(width / 8) + 1;
  expect(raw.length).toBe(rowBytes * height);
  return { width, height, dark: (x, y) => ((raw[y * rowBytes + 1 + (x >> 3)] ?? 0) & (0x80 >> (x & 7))) === 0 };
}

const code = fc.stringMatching(/^[\x21-\x7e]{1,40}$/);
// bwip-js switches to code set C for runs of digits (two per symbol); ours stays in set B, a valid and
// longer symbol of the same text. Bar-for-bar comparison holds where set C has nothing to pack.
const codeWithoutDigitPairs = code.filter((c) => !/\d\d/.test(c));

describe('voucher images', () => {
  it('encodes Code 128 exactly as bwip-js does, for any code a voucher may have without a run of digits', () => {
    fc.assert(
      fc.property(codeWithoutDigitPairs, (c) => {
        expect(code128Modules(c)).toEqual(bwipCode128Modules(c));
      }),
      { numRuns: 200 },
    );
  });

  it('draws the barcode PNG module by module at the asked scale, with 10 light modules each side', () => {
    const grid = barcodeSymbol('SUMMER-10');
    const png = pngPixels(toPng(grid, 3));
    const modules = grid.rows[0] ?? [];
    expect(png.width).toBe(modules.length * 3);
    expect(png.height).toBe(50 * 3);
    expect(
      modules
        .slice(0, 10)
        .concat(modules.slice(-10))
        .every((m) => !m),
    ).toBe(true);
    for (let x = 0; x < png.width; x += 1) {
      expect(png.dark(x, 0)).toBe(modules[Math.floor(x / 3)]);
      expect(png.dark(x, png.height - 1)).toBe(modules[Math.floor(x / 3)]);
    }
  });

  it('draws the QR code with a 4-module quiet zone, the same size as bwip-js draws it, and its finder patterns', async () => {
    const grid = qrSymbol('SUMMER-10');
    const size = grid.rows.length;
    expect(grid.rows.every((row) => row.length === size)).toBe(true);
    // bwip-js (no quiet zone; 2 px a module at scale 1) picks the same version: ours less the two quiet zones.
    const theirs = await qrcode({ bcid: 'qrcode', text: 'SUMMER-10', scale: 1 }); // its default error correction is M, as ours
    expect(theirs.readUInt32BE(16)).toBe((size - 8) * 2);
    const png = pngPixels(toPng(grid, 2));
    expect(png.width).toBe(size * 2);
    // Top-left finder: dark ring at modules 4..10, light ring inside, dark 3×3 core.
    expect(png.dark(4 * 2, 4 * 2)).toBe(true);
    expect(png.dark(5 * 2, 5 * 2)).toBe(false);
    expect(png.dark(7 * 2, 7 * 2)).toBe(true);
    expect(png.dark(0, 0)).toBe(false);
  });

  it('writes SVG with one dark run per bar and the asked pixel size', () => {
    const grid = barcodeSymbol('AB');
    const svg = toSvg(grid, 2);
    const modules = grid.rows[0] ?? [];
    const runs = modules.filter((m, i) => m && !modules[i - 1]).length;
    expect(svg.match(/M\d+ 0h\d+v50h-\d+z/g)).toHaveLength(runs);
    expect(svg).toContain(`width="${modules.length * 2}" height="100"`);
  });

  it('refuses a character Code 128 set B cannot carry', () => {
    expect(() => code128Modules('Ä')).toThrow(/cannot encode/);
  });
});
