/**
 * A streaming CSV reader (RFC 4180): comma-separated fields, records ended by CRLF (a bare LF or CR
 * is read as a line break too, as spreadsheets on other systems write them), fields in double
 * quotes may hold commas, line breaks and `""` for a quote; a leading byte order mark is dropped.
 * Text is pushed in pieces of any size (a piece may end inside a field, a quote pair or a CRLF) and
 * complete records come out as they end, so memory holds one record, not the file. I/O-free.
 */

/** One record, with the 1-based line of the file where it starts (a quoted line break makes a record span lines). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/** A file that is not CSV: the line named is where the record that cannot be read starts. */
export class CsvSyntaxError extends Error {
  override readonly name = 'CsvSyntaxError';
  constructor(
    readonly line: number,
    problem: string,
  ) {
    super(`Line ${line}: ${problem}`);
  }
}

export interface CsvLimits {
  /** Characters one field may hold (a longer one is a syntax error: it is no value any import takes). */
  maxFieldChars: number;
  /** Fields one record may hold. */
  maxFields: number;
  /** Keep an empty line as a record of one empty field (a one-column file's empty cell) instead of skipping it. */
  keepEmptyLines?: boolean;
}

export const DEFAULT_CSV_LIMITS: CsvLimits = { maxFieldChars: 100_000, maxFields: 1000 };

type State = 'start' | 'unquoted' | 'quoted' | 'quote-in-quoted' | 'after-cr';

/** A parser that takes text piece by piece. `push` returns the records ended in that piece; `end` the last one. */
export interface CsvParser {
  push(text: string): CsvRecord[];
  end(): CsvRecord[];
}

/**
 * Builds a parser. Entirely empty lines are skipped (a trailing line break, blank lines between
 * records); a line of commas is a record of empty fields.
 * @throws CsvSyntaxError from `push` or `end`: a quote inside an unquoted field, text after a
 *   closing quote, an unterminated quote, a field or record past the limits.
 */
export function createCsvParser(limits: CsvLimits = DEFAULT_CSV_LIMITS): CsvParser {
  let state: State = 'start';
  let line = 1;
  let recordLine = 1;
  let field = '';
  let fields: string[] = [];
  let first = true;
  let quotedCr = false;
  let out: CsvRecord[] = [];

  const endField = () => {
    if (fields.length >= limits.maxFields) throw new CsvSyntaxError(recordLine, `more than ${limits.maxFields} fields`);
    fields.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    // An empty line is no record (one empty field and nothing else).
    if (limits.keepEmptyLines === true || !(fields.length === 1 && fields[0] === '')) out.push({ line: recordLine, fields });
    fields = [];
  };
  const addChar = (c: string) => {
    if (field.length >= limits.maxFieldChars) throw new CsvSyntaxError(recordLine, `a field longer than ${limits.maxFieldChars} characters`);
    field += c;
  };

  const feed = (text: string) => {
    let i = 0;
    if (first && text.length > 0) {
      first = false;
      if (text.charCodeAt(0) === 0xfeff) i = 1;
    }
    for (; i < text.length; i += 1) {
      const c = text[i] as string;
      switch (state) {
        case 'after-cr':
          // CRLF is one break; a CR alone was the break and this character starts the next record.
          state = 'start';
          recordLine = line;
          if (c === '\n') continue;
          i -= 1;
          continue;
        case 'start':
        case 'unquoted':
          if (c === ',') {
            endField();
            state = 'start';
          } else if (c === '\r' || c === '\n') {
            endRecord();
            line += 1;
            recordLine = line;
            state = c === '\r' ? 'after-cr' : 'start';
          } else if (c === '"') {
            if (state === 'unquoted' || field.length > 0)
              throw new CsvSyntaxError(line, 'a quote inside an unquoted field (quote the whole field and double the quote)');
            state = 'quoted';
          } else {
            addChar(c);
            state = 'unquoted';
          }
          break;
        case 'quoted':
          if (c === '"') state = 'quote-in-quoted';
          else {
            // A CRLF inside quotes is one line break, even when a piece ends between its two characters.
            if (c === '\r' || (c === '\n' && !quotedCr)) line += 1;
            addChar(c);
          }
          quotedCr = c === '\r';
          break;
        case 'quote-in-quoted':
          if (c === '"') {
            addChar('"');
            state = 'quoted';
          } else if (c === ',') {
            endField();
            state = 'start';
          } else if (c === '\r' || c === '\n') {
            endRecord();
            line += 1;
            recordLine = line;
            state = c === '\r' ? 'after-cr' : 'start';
          } else throw new CsvSyntaxError(line, 'text after a closing quote (a quote inside a quoted field is written "")');
          break;
      }
    }
  };

  return {
    push(text) {
      feed(text);
      const ended = out;
      out = [];
      return ended;
    },
    end() {
      if (state === 'quoted') throw new CsvSyntaxError(recordLine, 'a quoted field is never closed');
      if (state !== 'after-cr' && (state !== 'start' || fields.length > 0 || field.length > 0)) endRecord();
      state = 'start';
      const ended = out;
      out = [];
      return ended;
    },
  };
}

/** Reads a whole text (in pieces of `pieceSize`, as a stream would arrive). @throws CsvSyntaxError. */
export function parseCsv(text: string, limits: CsvLimits = DEFAULT_CSV_LIMITS, pieceSize = 64 * 1024): CsvRecord[] {
  const parser = createCsvParser(limits);
  const records: CsvRecord[] = [];
  for (let at = 0; at < text.length; at += pieceSize) records.push(...parser.push(text.slice(at, at + pieceSize)));
  records.push(...parser.end());
  return records;
}

/** A field written so that parseCsv reads it back as it is (quoted when it must be). */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) || value.startsWith('\uFEFF') ? `"${value.replaceAll('"', '""')}"` : value;
}
