/** One CSV cell: text, a number, or null / undefined for an empty cell. */
export type CsvCell = string | number | null | undefined;

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * Encodes one cell as RFC 4180 says: a cell holding a comma, a double quote, CR or LF is
 * enclosed in double quotes, and each double quote inside is doubled. Other cells go as they are
 * (leading and trailing spaces are data, never trimmed).
 */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, terminated by CRLF (RFC 4180 §2.1). */
export function csvRow(cells: readonly CsvCell[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
