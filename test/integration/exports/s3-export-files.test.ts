import { randomUUID } from 'node:crypto';
import { GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3ExportFiles } from '../../../lib/exports/s3-export-files.js';
import { engines } from '../../support/runtime.js';

let s3: S3Client;
const bucket = (): string => engines().bucketName;

beforeAll(() => {
  const e = engines();
  s3 = new S3Client({ region: e.region, endpoint: e.s3Endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
});

afterAll(() => s3.destroy());

const files = () => {
  const e = engines();
  return createS3ExportFiles({ region: e.region, bucketName: e.bucketName, s3Endpoint: e.s3Endpoint }, { partBytes: 8 * 1024 });
};

async function upload(key: string, chunks: Buffer[]): Promise<void> {
  const up = await files().upload(key, { contentType: 'text/csv', downloadName: 'exp_1.csv' });
  for (const chunk of chunks) await up.write(chunk);
  await up.complete();
}

async function body(key: string): Promise<string> {
  const res = await s3.send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
  return (await res.Body?.transformToString()) ?? '';
}

describe('export files in S3', () => {
  it('writes a file smaller than one part as one object with its content type and download name', async () => {
    const key = `exports/test/${randomUUID()}.csv`;
    await upload(key, [Buffer.from('id,points\r\n'), Buffer.from('b_1,10\r\n')]);
    expect(await body(key)).toBe('id,points\r\nb_1,10\r\n');
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket(), Key: key }));
    expect(head.ContentType).toBe('text/csv');
    expect(head.ContentDisposition).toBe('attachment; filename="exp_1.csv"');
  });

  it('assembles a file of several parts in order', async () => {
    const key = `exports/test/${randomUUID()}.csv`;
    const chunks = Array.from({ length: 30 }, (_, i) => Buffer.from(`${String(i).padStart(4, '0')},${'x'.repeat(995)}\r\n`));
    await upload(key, chunks);
    expect(await body(key)).toBe(Buffer.concat(chunks).toString());
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket(), Key: key }));
    expect(head.ContentDisposition).toBe('attachment; filename="exp_1.csv"');
  });

  it('leaves no object when aborted, before or after the first part', async () => {
    for (const size of [100, 20 * 1024]) {
      const key = `exports/test/${randomUUID()}.csv`;
      const up = await files().upload(key, { contentType: 'text/csv', downloadName: 'x.csv' });
      await up.write(Buffer.alloc(size, 65));
      await up.abort();
      await expect(s3.send(new HeadObjectCommand({ Bucket: bucket(), Key: key }))).rejects.toThrow();
    }
  });
});
