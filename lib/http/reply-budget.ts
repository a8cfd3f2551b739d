import { InvalidQueryParamsError } from '../errors.js';

/**
 * What a reply may weigh: the bound of inline downloads (docs/decisions.md), 5 MiB of the body as
 * Lambda carries it. Lambda refuses a synchronous response payload over 6 MB, and that payload is
 * the API Gateway result object with the body as an escaped JSON string inside it.
 */
export const REPLY_BUDGET_BYTES = 5 * 1024 * 1024;

/** A body whose text is at most this long cannot reach the budget, even escaped (at most 6 bytes per UTF-16 unit, `\u001f`): no byte is counted. */
const SURELY_FITS_CHARS = Math.floor(REPLY_BUDGET_BYTES / 6);

interface ListEnvelope {
  object: 'list';
  data_ref: string;
  [key: string]: unknown;
}

const isList = (body: unknown): body is ListEnvelope =>
  body !== null &&
  typeof body === 'object' &&
  (body as { object?: unknown }).object === 'list' &&
  typeof (body as { data_ref?: unknown }).data_ref === 'string';

/** The bytes `text` takes as a JSON string inside the Lambda response payload. */
export const escapedBytes = (text: string): number => Buffer.byteLength(JSON.stringify(text));

/**
 * Refuses a page of a list that Lambda could not return, naming a `limit` that fits (the page's items
 * are each bounded: orders ≤ 300,000 bytes stored, any item ≤ 400 KB, so some limit always does).
 * A shorter page would make page numbers skip items for a client paging by `page`, so the page is
 * never cut silently (docs/decisions.md "List replies over Lambda's 6 MB").
 * @throws InvalidQueryParamsError `invalid_query_params` when `text` (the JSON of `body`, a list) is over REPLY_BUDGET_BYTES.
 */
export function assertReplyFits(body: unknown, text: string): void {
  if (text.length <= SURELY_FITS_CHARS || !isList(body)) return;
  const bytes = escapedBytes(text);
  if (bytes <= REPLY_BUDGET_BYTES) return;
  const items = body[body.data_ref];
  const count = Array.isArray(items) ? items.length : 0;
  const fits = Math.max(1, Math.floor((count * REPLY_BUDGET_BYTES) / bytes));
  throw new InvalidQueryParamsError(
    `This page of ${count} items would take ${bytes} bytes, over the ${REPLY_BUDGET_BYTES} a reply may hold: ask for limit=${fits} or fewer`,
  );
}
