import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from '../../../lib/exports/csv.js';

describe('CSV encoder (RFC 4180)', () => {
  it('leaves plain cells as they are, spaces included', () => {
    expect(csvCell('lopb_abc')).toBe('lopb_abc');
    expect(csvCell(' padded ')).toBe(' padded ');
    expect(csvCell(1200)).toBe('1200');
  });

  it('writes null and undefined as empty cells', () => {
    expect(csvRow(['a', null, undefined, 'b'])).toBe('a,,,b\r\n');
  });

  it('quotes a cell holding a comma', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
  });

  it('quotes a cell holding a double quote and doubles each quote inside', () => {
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('"')).toBe('""""');
  });

  it('quotes a cell holding a line break (LF, CR or CRLF)', () => {
    expect(csvCell('a\nb')).toBe('"a\nb"');
    expect(csvCell('a\rb')).toBe('"a\rb"');
    expect(csvCell('a\r\nb')).toBe('"a\r\nb"');
  });

  it('ends every record with CRLF and separates cells with commas', () => {
    expect(csvRow(['id', 'points'])).toBe('id,points\r\n');
    expect(csvRow(['x,y', 'z'])).toBe('"x,y",z\r\n');
  });
});
