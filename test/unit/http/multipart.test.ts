import fc from 'fast-check';
import '../../../lib/http/multipart-body.js';
import { describe, expect, it } from 'vitest';
import { toApiGatewayEvent } from '../../../infra/local/api-gateway-event.js';
import { AppError } from '../../../lib/errors.js';
import { MAX_BODY_BYTES, parseBody } from '../../../lib/http/request.js';
import { boundaryOf, MultipartError, multipartBody, parseMultipart } from '../../../lib/http/multipart.js';

const shown = (parts: ReturnType<typeof parseMultipart>) =>
  parts.map((p) => ({ name: p.name, filename: p.filename, contentType: p.contentType, data: p.data.toString() }));

describe('parseMultipart', () => {
  it('reads a file part and a text field as curl -F sends them, preamble and epilogue ignored', () => {
    const body = Buffer.from(
      'preamble\r\n--XyZ\r\nContent-Disposition: form-data; name="file"; filename="v.csv"\r\nContent-Type: text/csv\r\n\r\nCode\r\nA\r\n\r\n--XyZ\r\ncontent-disposition: form-data; name=webhooks_enable\r\n\r\ntrue\r\n--XyZ--\r\nepilogue',
    );
    expect(shown(parseMultipart(body, 'XyZ'))).toEqual([
      { name: 'file', filename: 'v.csv', contentType: 'text/csv', data: 'Code\r\nA\r\n' },
      { name: 'webhooks_enable', filename: null, contentType: null, data: 'true' },
    ]);
  });

  it('takes the boundary quoted or not, and refuses a Content-Type without one', () => {
    expect(boundaryOf('multipart/form-data; boundary=----abc')).toBe('----abc');
    expect(boundaryOf('multipart/form-data; charset=utf-8; boundary="a b"')).toBe('a b');
    expect(() => boundaryOf('multipart/form-data')).toThrow(MultipartError);
  });

  it('refuses a body that is not closed, has no delimiter, or a part without a field name', () => {
    expect(() => parseMultipart(Buffer.from('--b\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc'), 'b')).toThrow(/not closed/);
    expect(() => parseMultipart(Buffer.from('hello'), 'b')).toThrow(/no part/);
    expect(() => parseMultipart(Buffer.from('--b\r\nContent-Disposition: form-data\r\n\r\nx\r\n--b--'), 'b')).toThrow(/names no field/);
    expect(() => parseMultipart(Buffer.from('--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--'), 'b')).toThrow(/Content-Disposition/);
  });

  it('refuses more parts than the limit', () => {
    const body = multipartBody(
      'b',
      Array.from({ length: 4 }, (_, i) => ({ name: `f${i}`, data: 'x' })),
    );
    expect(() => parseMultipart(body, 'b', { maxParts: 3, maxHeaderBytes: 1000 })).toThrow(/more than 3 parts/);
  });

  it('reads back whatever parts multipartBody writes, bytes intact', () => {
    const boundary = fc.stringMatching(/^[A-Za-z0-9'()+_,.-]{1,40}$/);
    const part = fc.record({ name: fc.stringMatching(/^[a-z_]{1,10}$/), data: fc.uint8Array({ maxLength: 200 }) });
    fc.assert(
      fc.property(boundary, fc.array(part, { minLength: 1, maxLength: 5 }), (b, parts) => {
        const body = multipartBody(
          b,
          parts.map((p) => ({ name: p.name, data: Buffer.from(p.data) })),
        );
        // A content holding CRLF--boundary would end its part early: a client picks a boundary its content lacks.
        fc.pre(parts.every((p) => !Buffer.from(p.data).includes(`\r\n--${b}`)));
        expect(parseMultipart(body, b).map((p) => [p.name, [...p.data]])).toEqual(parts.map((p) => [p.name, [...p.data]]));
      }),
    );
  });
});

describe('parseBody of a multipart route', () => {
  const ev = (body: Buffer, contentType = 'multipart/form-data; boundary=b') =>
    toApiGatewayEvent({ method: 'POST', rawPath: '/v1/x', headers: { 'content-type': contentType }, body });
  const appError = (run: () => unknown): AppError => {
    try {
      run();
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
    throw new Error('expected an AppError');
  };

  it('arrives base64-encoded as API Gateway sends it and reads as {field: text}', () => {
    const event = ev(
      multipartBody('b', [
        { name: 'file', filename: 'a.csv', data: 'Code\nA\n' },
        { name: 'webhooks_enable', data: 'true' },
      ]),
    );
    expect(event.isBase64Encoded).toBe(true);
    expect(parseBody(event, 'multipart')).toEqual({ file: 'Code\nA\n', webhooks_enable: 'true' });
  });

  it('answers 413 beyond MAX_BODY_BYTES, 415 for another type, 400 for a repeated part, bytes that are not UTF-8 or a broken body', () => {
    expect(appError(() => parseBody(ev(multipartBody('b', [{ name: 'file', data: 'x'.repeat(MAX_BODY_BYTES) }])), 'multipart'))).toMatchObject({ status: 413 });
    expect(appError(() => parseBody(ev(Buffer.from('{}'), 'application/json'), 'multipart'))).toMatchObject({ status: 415 });
    const twice = multipartBody('b', [
      { name: 'file', data: 'a' },
      { name: 'file', data: 'b' },
    ]);
    expect(appError(() => parseBody(ev(twice), 'multipart'))).toMatchObject({
      status: 400,
      key: 'invalid_payload',
      details: 'Part file is given more than once',
    });
    expect(appError(() => parseBody(ev(multipartBody('b', [{ name: 'file', data: Buffer.from([0xff, 0xfe]) }])), 'multipart'))).toMatchObject({
      status: 400,
      details: 'Part file is not valid UTF-8 text',
    });
    expect(appError(() => parseBody(ev(Buffer.from('--b\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc')), 'multipart'))).toMatchObject({
      status: 400,
      key: 'invalid_payload',
    });
    expect(appError(() => parseBody(ev(Buffer.from('x'), 'multipart/form-data'), 'multipart'))).toMatchObject({ status: 400 });
  });
});
