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

/** What the download cluster needs of export files: links, and small files read whole. */
export interface ExportFileReader extends ExportFileLinks {
  /**
   * The file's bytes when it holds at most `maxBytes`; null when it is larger, having read no
   * more of it than needed to know (its Content-Length, or the first `maxBytes` + 1 bytes);
   * 'missing' when the key holds no file (removed by the bucket's lifecycle rule, or by hand).
   * @throws Error when the file cannot be read (storage failure).
   */
  readUpTo(key: string, maxBytes: number): Promise<Buffer | null | 'missing'>;
  /**
   * Removes the file (DELETE /v1/exports/{exportId}), by a presigned DELETE: no S3 client in the bundle.
   * A key that holds none is not an error.
   * @throws Error when S3 refuses.
   */
  delete(key: string): Promise<void>;
}

/**
 * Where export files live. The S3 implementation is in s3-export-files.ts, imported only by the
 * jobs worker, so no other bundle carries the S3 client.
 */
export interface ExportFiles extends ExportFileLinks {
  upload(key: string, options: { contentType: string; downloadName: string }): Promise<FileUpload>;
  /** Removes the file; a key that holds none is not an error. */
  delete(key: string): Promise<void>;
  /**
   * The file's bytes as a stream, read piece by piece (a customer's erasure rewrites files this
   * way: memory holds a piece, never the file); 'missing' when the key holds no file. Optional:
   * only the export lane's store, which erasures need, has it.
   * @throws Error when the file cannot be read.
   */
  read?(key: string): Promise<AsyncIterable<Uint8Array> | 'missing'>;
}

/** An export files store that reads files too (the S3 one). */
export type ReadableExportFiles = ExportFiles & Required<Pick<ExportFiles, 'read'>>;

/** Whether a store can read files back (the S3 one can; test doubles of the export writer may not). */
export const canRead = (files: ExportFiles | undefined): files is ReadableExportFiles => typeof files?.read === 'function';
