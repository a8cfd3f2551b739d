import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCsvTable } from '../../../lib/imports/csv-table.js';
import { CsvSyntaxError, createCsvParser, csvField, parseCsv } from '../../../lib/imports/csv.js';

const fields = (text: string) => parseCsv(text).map((r) => r.fields);
const syntaxLine = (run: () => unknown): number | string => {
  try {
    run();
    return 'no error';
  } catch (error) {
    if (error instanceof CsvSyntaxError) return error.line;
    throw error;
  }
};

describe('parseCsv (RFC 4180)', () => {
  it('reads quoted fields with commas, escaped quotes and line breaks, CRLF or LF records, and drops a BOM', () => {
    const text = '\uFEFFcode,note\r\n"A,1","say ""hi"""\r\nB,"two\r\nlines"\nC,\r\n';
    expect(fields(text)).toEqual([
      ['code', 'note'],
      ['A,1', 'say "hi"'],
      ['B', 'two\r\nlines'],
      ['C', ''],
    ]);
  });

  it('numbers each record by the line it starts on, counting line breaks inside quotes', () => {
    expect(parseCsv('h\r\n"a\r\nb"\r\n\r\nc\rd').map((r) => [r.line, r.fields[0]])).toEqual([
      [1, 'h'],
      [2, 'a\r\nb'],
      [5, 'c'],
      [6, 'd'],
    ]);
  });

  it('names the line of a quote inside an unquoted field, text after a closing quote and an unclosed quote', () => {
    expect(syntaxLine(() => parseCsv('a,b\nx,y"z\n'))).toBe(2);
    expect(syntaxLine(() => parseCsv('a,b\n1,2\n"x"y,2\n'))).toBe(3);
    expect(syntaxLine(() => parseCsv('a,b\n1,2\n3,"never\nclosed\n'))).toBe(3);
  });

  it('refuses a field past its limit', () => {
    expect(syntaxLine(() => parseCsv(`a\n${'x'.repeat(11)}\n`, { maxFieldChars: 10, maxFields: 5 }))).toBe(2);
    expect(syntaxLine(() => parseCsv('a,b,c,d,e,f\n', { maxFieldChars: 10, maxFields: 5 }))).toBe(1);
  });

  const cell = fc.string({ unit: fc.constantFrom('a', 'b', ',', '"', '\r', '\n', ' ', 'é', '😀'), maxLength: 8 });
  const table = fc.array(fc.array(cell, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 20 });
  // A record of one empty field is an empty line, which the reader skips by design.
  const keepable = (rows: string[][]) => rows.filter((r) => !(r.length === 1 && r[0] === ''));

  it('reads back any table it is given as csvField writes it, with CRLF or LF, cut into pieces anywhere', () => {
    fc.assert(
      fc.property(table, fc.constantFrom('\r\n', '\n'), fc.integer({ min: 1, max: 7 }), fc.boolean(), (rows, eol, piece, bom) => {
        const text = (bom ? '\uFEFF' : '') + rows.map((r) => r.map(csvField).join(',')).join(eol) + (rows.length % 2 === 0 ? eol : '');
        expect(parseCsv(text, undefined, piece).map((r) => r.fields)).toEqual(keepable(rows));
      }),
    );
  });

  it('gives the same records and lines whatever the pieces, or the same error line', () => {
    const text = fc.string({ unit: fc.constantFrom('a', ',', '"', '\r', '\n'), maxLength: 40 });
    fc.assert(
      fc.property(text, fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 6 }), (t, cuts) => {
        const whole = (() => {
          try {
            return parseCsv(t, undefined, t.length + 1);
          } catch (error) {
            if (error instanceof CsvSyntaxError) return error.line;
            throw error;
          }
        })();
        const sorted = [...new Set(cuts.map((c) => Math.min(c, t.length)))].sort((a, b) => a - b);
        const pieced = (() => {
          try {
            const p = createCsvParser();
            const out = [];
            let at = 0;
            for (const c of [...sorted, t.length]) {
              out.push(...p.push(t.slice(at, c)));
              at = c;
            }
            out.push(...p.end());
            return out;
          } catch (error) {
            if (error instanceof CsvSyntaxError) return error.line;
            throw error;
          }
        })();
        expect(pieced).toEqual(whole);
      }),
    );
  });
});

describe('readCsvTable', () => {
  it('maps rows by header, reports a row of the wrong width as a row problem and keeps going', () => {
    const t = readCsvTable(' Code ,Category\nA,x\nB\nC,y,z\nD,w\n', 10);
    expect(t.headers).toEqual(['Code', 'Category']);
    expect(t.rows).toEqual([
      { line: 2, values: { Code: 'A', Category: 'x' } },
      { line: 3, problem: '1 fields where the header has 2' },
      { line: 4, problem: '3 fields where the header has 2' },
      { line: 5, values: { Code: 'D', Category: 'w' } },
    ]);
  });

  it('refuses an empty file, a header alone, a repeated or empty column and too many rows, naming the line', () => {
    expect(syntaxLine(() => readCsvTable('', 10))).toBe(1);
    expect(syntaxLine(() => readCsvTable('Code\n', 10))).toBe(2);
    expect(syntaxLine(() => readCsvTable('Code,code\nA,B\n', 10))).toBe(1);
    expect(syntaxLine(() => readCsvTable('Code,\nA,B\n', 10))).toBe(1);
    expect(syntaxLine(() => readCsvTable('Code\nA\nB\nC\n', 2))).toBe(4);
  });
});
