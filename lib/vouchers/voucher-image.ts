import { zlib } from '../builtins.js';
import { encode } from 'uqr';

/*
 * The pictures of a voucher code, drawn without a graphics library: a grid is a grid of dark and
 * light modules (a QR code from `uqr`; a Code 128 barcode encoded here), written out as a 1-bit PNG
 * or as SVG. I/O-free. A full barcode library (bwip-js) drew the same symbols but put 190 KiB in the
 * function's bundle, over the house limit; it stays a dev dependency that the unit tests compare
 * this encoder against.
 */

/** Rows of modules (true = dark), each `rowHeight` modules tall. */
export interface ModuleGrid {
  rows: boolean[][];
  rowHeight: number;
}

/**
 * Bar and space widths of Code 128's grid values 0–105 (six widths each, bar first), then the
 * stop pattern (seven). Value 104 is Start B.
 */
const PATTERNS = (
  '212222 222122 222221 121223 121322 131222 122213 122312 132212 221213 221312 231212 112232 122132 122231 113222 ' +
  '123122 123221 223211 221132 221231 213212 223112 312131 311222 321122 321221 312212 322112 322211 212123 212321 ' +
  '232121 111323 131123 131321 112313 132113 132311 211313 231113 231311 112133 112331 132131 113123 113321 133121 ' +
  '313121 211331 231131 213113 213311 213131 311123 311321 331121 312113 312311 332111 314111 221411 431111 111224 ' +
  '111422 121124 121421 141122 141221 112214 112412 122114 122411 142112 142211 241211 221114 413111 241112 134111 ' +
  '111242 121142 121241 114212 124112 124211 411212 421112 421211 212141 214121 412121 111143 111341 131141 114113 ' +
  '114311 411113 411311 113141 114131 311141 411131 211412 211214 211232 2331112'
).split(' ');
const START_B = 104;
const STOP = 106;
/** Modules of light space on each side of a barcode (Code 128 asks for at least 10). */
const BARCODE_QUIET = 10;
/** Height of a barcode's bars, in modules. */
const BARCODE_HEIGHT = 50;
/** Light modules around a QR code (the standard's quiet zone). */
const QR_QUIET = 4;

/**
 * The modules of `text` as Code 128 in code set B (every printable ASCII character, which is every
 * character a voucher code may hold), without quiet zones: start, data, modulo-103 check, stop.
 * @throws Error for a character outside 0x20–0x7F (set B cannot carry it).
 */
export function code128Modules(text: string): boolean[] {
  const values = [...text].map((c) => {
    const code = c.charCodeAt(0);
    if (c.length !== 1 || code < 0x20 || code > 0x7f) throw new Error(`Code 128 set B cannot encode ${JSON.stringify(c)}`);
    return code - 0x20;
  });
  const check = values.reduce((sum, v, i) => sum + v * (i + 1), START_B) % 103;
  const modules: boolean[] = [];
  for (const value of [START_B, ...values, check, STOP]) {
    const widths = PATTERNS[value] ?? '';
    [...widths].forEach((w, i) => {
      for (let k = 0; k < Number(w); k += 1) modules.push(i % 2 === 0);
    });
  }
  return modules;
}

/** A Code 128 barcode of `text` with its quiet zones. */
export function barcodeSymbol(text: string): ModuleGrid {
  const quiet = new Array<boolean>(BARCODE_QUIET).fill(false);
  return { rows: [[...quiet, ...code128Modules(text), ...quiet]], rowHeight: BARCODE_HEIGHT };
}

/** A QR code of `text` (byte mode, error correction M) with its quiet zone. */
export function qrSymbol(text: string): ModuleGrid {
  return { rows: encode(text, { ecc: 'M', border: QR_QUIET }).data, rowHeight: 1 };
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** The grid as a 1-bit grayscale PNG, `scale` pixels per module. */
export function toPng(grid: ModuleGrid, scale: number): Buffer {
  const widthModules = grid.rows[0]?.length ?? 0;
  const width = widthModules * scale;
  const rowBytes = Math.ceil(width / 8);
  const lines: Buffer[] = [];
  for (const row of grid.rows) {
    // One filter byte (0: none), then 8 pixels a byte, 1 = white.
    const line = Buffer.alloc(1 + rowBytes, 0);
    for (let x = 0; x < width; x += 1) if (!row[Math.floor(x / scale)]) line[1 + (x >> 3)] = (line[1 + (x >> 3)] ?? 0) | (0x80 >> (x & 7));
    for (let k = 0; k < grid.rowHeight * scale; k += 1) lines.push(line);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(grid.rows.length * grid.rowHeight * scale, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, grayscale, deflate, adaptive filtering, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib().deflateSync(Buffer.concat(lines))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The grid as SVG, `scale` user units per module: one path of the dark runs of each row. */
export function toSvg(grid: ModuleGrid, scale: number): string {
  const widthModules = grid.rows[0]?.length ?? 0;
  const heightModules = grid.rows.length * grid.rowHeight;
  let d = '';
  grid.rows.forEach((row, r) => {
    for (let x = 0; x < row.length; ) {
      if (!row[x]) {
        x += 1;
        continue;
      }
      let end = x;
      while (row[end]) end += 1;
      d += `M${x} ${r * grid.rowHeight}h${end - x}v${grid.rowHeight}h${x - end}z`;
      x = end;
    }
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${widthModules * scale}" height="${heightModules * scale}" viewBox="0 0 ${widthModules} ${heightModules}" shape-rendering="crispEdges">` +
    `<rect width="100%" height="100%" fill="#fff"/><path fill="#000" d="${d}"/></svg>`
  );
}
