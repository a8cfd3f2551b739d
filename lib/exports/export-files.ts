/** A file being written in parts; memory holds at most one part. */
export interface FileUpload {
  /** Appends bytes; sends a part whenever a full part is buffered. */
  write(chunk: Buffer): Promise<void>;
  /** Sends the last part and makes the file visible (replacing any file under the same key). */
  complete(): Promise<void>;
  /** Drops the parts sent so far; the key keeps whatever it held before. Never throws. */
  abort(): Promise<void>;
}

/** Links to export files (s3-presigner.ts: SigV4 presigning only, no S3 client). */
export interface ExportFileLinks {
  /** A URL that reads the file without credentials until `expiresInSeconds` after `now`. */
  presignGet(key: string, expiresInSeconds: number, now: Date): Promise<string>;
}

/**
 * Where export files live. The S3 implementation is in s3-export-files.ts, imported only by the
 * jobs worker, so no other bundle carries the S3 client.
 */
export interface ExportFiles extends ExportFileLinks {
  upload(key: string, options: { contentType: string; downloadName: string }): Promise<FileUpload>;
}
