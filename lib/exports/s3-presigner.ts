import { fromEnv } from '@aws-sdk/credential-provider-env';
import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from '../aws/sha256.js';
import type { Config } from '../config.js';
import { defaultConfig } from '../runtime.js';
import type { ExportFileLinks, ExportFileReader } from './export-files.js';

/** How long the URL the function reads a file through works: the read starts at once. */
const READ_URL_SECONDS = 60;

/** s3rver knows only its built-in account (and does not check SigV4 signatures, only their expiry). */
export const LOCAL_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * SigV4 query-presigned GET URLs of export files, without the S3 client (the download handler's
 * bundle stays small): signed with the function's own credentials (Lambda puts its role's
 * session in the environment), so a URL can never reach beyond what the role may read.
 * @throws Error at construction when the configuration names no bucket (BUCKET_NAME).
 */
export function createS3Presigner(config: Pick<Config, 'region' | 'bucketName' | 's3Endpoint'>): ExportFileReader {
  const bucket = config.bucketName;
  if (!bucket) throw new Error('Invalid configuration: BUCKET_NAME is required by a function that reads export files');
  const local = config.s3Endpoint?.replace(/\/+$/, '');
  const signer = new SignatureV4({
    service: 's3',
    region: config.region,
    credentials: local ? LOCAL_S3_CREDENTIALS : fromEnv(),
    sha256: Sha256,
    uriEscapePath: false,
    applyChecksum: false,
  });
  const encodedKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');
  const presign = async (method: 'GET' | 'DELETE', key: string, expiresInSeconds: number, now: Date): Promise<string> => {
    const url = local ? new URL(`${local}/${bucket}/${encodedKey(key)}`) : new URL(`https://${bucket}.s3.${config.region}.amazonaws.com/${encodedKey(key)}`);
    const signed = await signer.presign(
      {
        method,
        protocol: url.protocol,
        hostname: url.hostname,
        ...(url.port ? { port: Number(url.port) } : {}),
        path: url.pathname,
        query: {},
        headers: { host: url.host, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
      },
      { expiresIn: expiresInSeconds, signingDate: now },
    );
    const query = Object.entries(signed.query ?? {})
      .flatMap(([k, v]) =>
        (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string').map((x) => `${encodeURIComponent(k)}=${encodeURIComponent(x)}`),
      )
      .join('&');
    return `${url.origin}${url.pathname}?${query}`;
  };
  const presignGet: ExportFileLinks['presignGet'] = (key, expiresInSeconds, now) => presign('GET', key, expiresInSeconds, now);
  return {
    presignGet,
    delete: async (key) => {
      const res = await fetch(await presign('DELETE', key, READ_URL_SECONDS, new Date()), { method: 'DELETE' });
      await res.body?.cancel();
      // S3 answers 204 whether or not the key held a file.
      if (!res.ok && res.status !== 404) throw new Error(`Export file ${key} could not be deleted: S3 answered ${res.status}`);
    },
    // A GET of the function's own presigned URL: the file is read with the role's rights and no S3 client in the bundle.
    // Signed at the wall clock's time, not the domain clock's: S3 judges the URL's validity by its own.
    readUpTo: async (key, maxBytes) => {
      const res = await fetch(await presignGet(key, READ_URL_SECONDS, new Date()));
      if (res.status === 404) {
        await res.body?.cancel();
        return 'missing';
      }
      if (!res.ok || !res.body) {
        await res.body?.cancel();
        throw new Error(`Export file ${key} could not be read: S3 answered ${res.status}`);
      }
      const declared = Number(res.headers.get('content-length') ?? Number.NaN);
      const reader = res.body.getReader();
      if (declared > maxBytes) {
        await reader.cancel();
        return null;
      }
      const chunks: Uint8Array[] = [];
      let size = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > maxBytes) {
          await reader.cancel();
          return null;
        }
        chunks.push(value);
      }
      return Buffer.concat(chunks, size);
    },
  };
}

let containerLinks: ExportFileReader | undefined;
const containerReader = (): ExportFileReader => (containerLinks ??= createS3Presigner(defaultConfig()));

/** The presigner and reader of this container, built from its configuration on first use. */
export const containerExportLinks: ExportFileReader = {
  presignGet: (key, seconds, now) => containerReader().presignGet(key, seconds, now),
  readUpTo: (key, maxBytes) => containerReader().readUpTo(key, maxBytes),
  delete: (key) => containerReader().delete(key),
};
