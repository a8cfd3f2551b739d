import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { Config } from '../config.js';
import { defaultConfig } from '../runtime.js';
import type { FileUpload, ReadableExportFiles } from './export-files.js';
import { createS3Presigner, LOCAL_S3_CREDENTIALS } from './s3-presigner.js';

/** S3's smallest part but the last. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;

export interface S3ExportFilesOptions {
  /** Bytes per part (default 5 MiB; tests lower it against s3rver, which does not enforce S3's minimum). */
  partBytes?: number;
}

/**
 * Export files in the export bucket: multipart uploads (one part in memory at a time; a file smaller
 * than one part is a single PutObject), and
 * presigned GET URLs (s3-presigner.ts).
 * @throws Error at construction when the configuration names no bucket (BUCKET_NAME).
 */
export function createS3ExportFiles(config: Pick<Config, 'region' | 'bucketName' | 's3Endpoint'>, options: S3ExportFilesOptions = {}): ReadableExportFiles {
  const bucket = config.bucketName;
  if (!bucket) throw new Error('Invalid configuration: BUCKET_NAME is required by a function that reads or writes export files');
  const partBytes = options.partBytes ?? MIN_PART_BYTES;
  const local = config.s3Endpoint;
  const client = new S3Client({
    region: config.region,
    ...(local ? { endpoint: local, forcePathStyle: true, credentials: LOCAL_S3_CREDENTIALS } : {}),
    maxAttempts: 4,
  });
  const links = createS3Presigner(config);
  return {
    upload: async (key, { contentType, downloadName }): Promise<FileUpload> => {
      const headers = {
        Bucket: bucket,
        Key: key,
        ContentType: contentType,
        ContentDisposition: `attachment; filename="${downloadName.replace(/["\\]/g, '_')}"`,
      };
      // The multipart upload starts with the first full part: a file that fits in one part is one PutObject instead of three calls.
      let uploadId: string | undefined;
      const parts: Array<{ PartNumber: number; ETag: string }> = [];
      let buffered: Buffer[] = [];
      let size = 0;
      const takeBuffered = (): Buffer => {
        const body = Buffer.concat(buffered, size);
        buffered = [];
        size = 0;
        return body;
      };
      const sendPart = async (): Promise<void> => {
        if (!uploadId) {
          const created = await client.send(new CreateMultipartUploadCommand(headers));
          if (!created.UploadId) throw new Error(`S3 returned no upload id for ${key}`);
          uploadId = created.UploadId;
        }
        const PartNumber = parts.length + 1;
        const res = await client.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber, Body: takeBuffered() }));
        if (!res.ETag) throw new Error(`S3 returned no ETag for part ${PartNumber} of ${key}`);
        parts.push({ PartNumber, ETag: res.ETag });
      };
      return {
        write: async (chunk) => {
          buffered.push(chunk);
          size += chunk.length;
          if (size >= partBytes) await sendPart();
        },
        complete: async () => {
          if (!uploadId) {
            await client.send(new PutObjectCommand({ ...headers, Body: takeBuffered() }));
            return;
          }
          if (size > 0) await sendPart();
          await client.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
        },
        abort: async () => {
          buffered = [];
          size = 0;
          if (uploadId) await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId })).catch(() => undefined);
        },
      };
    },
    delete: async (key) => {
      // S3 answers 204 for a key that holds nothing, so a repeated delete succeeds.
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    read: async (key) => {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        if (!res.Body) throw new Error(`S3 returned no body for ${key}`);
        // In Node the body is a Readable: an async iterable of Buffers.
        return res.Body as unknown as AsyncIterable<Uint8Array>;
      } catch (error) {
        if (error instanceof NoSuchKey || (error instanceof Error && error.name === 'NoSuchKey')) return 'missing';
        throw error;
      }
    },
    presignGet: links.presignGet,
  };
}

let containerFiles: ReadableExportFiles | undefined;

/** The export files of this container, built from its configuration on first use. */
export const containerExportFiles: ReadableExportFiles = {
  upload: (key, options) => (containerFiles ??= createS3ExportFiles(defaultConfig())).upload(key, options),
  delete: (key) => (containerFiles ??= createS3ExportFiles(defaultConfig())).delete(key),
  presignGet: (key, seconds, now) => (containerFiles ??= createS3ExportFiles(defaultConfig())).presignGet(key, seconds, now),
  read: (key) => (containerFiles ??= createS3ExportFiles(defaultConfig())).read(key),
};
