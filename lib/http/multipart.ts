/**
 * A `multipart/form-data` reader (RFC 7578) over the body's bytes. It walks the body once, from
 * delimiter to delimiter, and hands each part's content out as a view of the body (no copy), so a
 * file costs no memory beyond the body the request already holds. I/O-free.
 */

export interface MultipartPart {
  /** The form field name (`Content-Disposition: form-data; name="…"`). */
  name: string;
  /** The file name, when the part is a file. */
  filename: string | null;
  contentType: string | null;
  /** A view of the body's bytes. */
  data: Buffer;
}

/** Why a body is not the multipart/form-data it claims to be (the caller answers 400). */
export class MultipartError extends Error {
  override readonly name = 'MultipartError';
}

export interface MultipartLimits {
  /** Parts one body may have. */
  maxParts: number;
  /** Bytes of one part's header block. */
  maxHeaderBytes: number;
}

export const DEFAULT_MULTIPART_LIMITS: MultipartLimits = { maxParts: 20, maxHeaderBytes: 8 * 1024 };

/**
 * The boundary of a `multipart/form-data` Content-Type (quoted or not, 1–70 characters, RFC 2046).
 * @throws MultipartError when it has none or an invalid one.
 */
export function boundaryOf(contentType: string): string {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))\s*(?:;|$)/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) throw new MultipartError('The multipart/form-data Content-Type names no boundary (1 to 70 characters)');
  return boundary;
}

/** `name="a"; filename="b.csv"` parameters of a Content-Disposition value, lower-cased names. */
function dispositionParams(value: string): Record<string, string> {
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  const re = /;\s*([A-Za-z0-9_*-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (let m = re.exec(value); m !== null; m = re.exec(value)) {
    const name = (m[1] as string).toLowerCase();
    params[name] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : (m[3] ?? '').trim();
  }
  return params;
}

function partOf(headerBlock: string, data: Buffer): MultipartPart {
  let disposition: string | null = null;
  let contentType: string | null = null;
  for (const line of headerBlock.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new MultipartError(`A part's header line is not "Name: value": ${JSON.stringify(line.slice(0, 100))}`);
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-disposition') disposition = value;
    else if (name === 'content-type') contentType = value;
  }
  if (disposition === null || !/^form-data\s*(;|$)/i.test(disposition)) throw new MultipartError('A part has no Content-Disposition: form-data header');
  const params = dispositionParams(disposition);
  const name = params.name;
  if (name === undefined || name === '') throw new MultipartError('A part names no field (Content-Disposition name="…")');
  return { name, filename: params.filename ?? null, contentType, data };
}

/**
 * The parts of a body, in order. The body is `--boundary CRLF headers CRLF CRLF content CRLF
 * --boundary … --boundary--`; a preamble before the first delimiter and an epilogue after the last
 * are ignored.
 * @throws MultipartError: no first or closing delimiter, a part without the blank line ending its
 *   headers, a header block over the limit, more parts than the limit, a part naming no field.
 */
export function parseMultipart(body: Buffer, boundary: string, limits: MultipartLimits = DEFAULT_MULTIPART_LIMITS): MultipartPart[] {
  const dash = Buffer.from(`--${boundary}`, 'latin1');
  const delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
  const blank = Buffer.from('\r\n\r\n', 'latin1');
  // The first delimiter may open the body (no CRLF before it) or follow a preamble.
  let at: number;
  if (body.subarray(0, dash.length).equals(dash)) at = dash.length;
  else {
    const found = body.indexOf(delimiter);
    if (found < 0) throw new MultipartError('The body holds no part (its first boundary delimiter is missing)');
    at = found + delimiter.length;
  }
  const parts: MultipartPart[] = [];
  for (;;) {
    // After a delimiter: `--` closes the body, CRLF opens a part (transport padding allowed before it).
    if (body[at] === 0x2d && body[at + 1] === 0x2d) return parts;
    while (body[at] === 0x20 || body[at] === 0x09) at += 1;
    if (body[at] !== 0x0d || body[at + 1] !== 0x0a) throw new MultipartError('A boundary delimiter is not followed by a line break or "--"');
    at += 2;
    if (parts.length >= limits.maxParts) throw new MultipartError(`The body has more than ${limits.maxParts} parts`);
    const headersEnd = body.indexOf(blank, at);
    const headerBytes = headersEnd < 0 ? body.length - at : headersEnd - at;
    if (headerBytes > limits.maxHeaderBytes) throw new MultipartError(`A part's headers are longer than ${limits.maxHeaderBytes} bytes`);
    if (headersEnd < 0) throw new MultipartError("A part's headers are not ended by a blank line");
    const contentStart = headersEnd + blank.length;
    const next = body.indexOf(delimiter, contentStart);
    if (next < 0) throw new MultipartError('The body is not closed by its boundary delimiter (--boundary--)');
    parts.push(partOf(body.toString('utf8', at, headersEnd), body.subarray(contentStart, next)));
    at = next + delimiter.length;
  }
}

/** A body as a client sends it (tests, the SDK's shape): text fields and files, with the boundary given. */
export function multipartBody(boundary: string, parts: readonly { name: string; filename?: string; contentType?: string; data: string | Buffer }[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    const type = part.contentType !== undefined ? `\r\nContent-Type: ${part.contentType}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`), Buffer.from(part.data), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}
