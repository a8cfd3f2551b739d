import { InvalidPayloadError } from '../errors.js';
import { type CsvTable, readCsvTable } from './csv-table.js';
import { CsvSyntaxError } from './csv.js';

/**
 * A CSV import's file as a table, or a 400 naming the line that is not CSV.
 * @throws InvalidPayloadError: `file` is not CSV (the line named), has no rows, or more than `maxRows`.
 */
export function readCsvFile(text: string, maxRows: number): CsvTable {
  try {
    return readCsvTable(text, maxRows);
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw new InvalidPayloadError(`Property .file is not a CSV file this import takes: ${error.message}`, error);
    throw error;
  }
}
