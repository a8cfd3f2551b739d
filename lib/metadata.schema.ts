import * as z from './zod.js';
import { storableNumbers } from './db/storable.js';

/** Serialized size limit of a `metadata` object: keeps every item well under DynamoDB's 400 KB. */
export const MAX_METADATA_BYTES = 16 * 1024;

export const metadataSchema = z.record(z.string(), z.unknown()).check(
  z.refine((m) => Buffer.byteLength(JSON.stringify(m)) <= MAX_METADATA_BYTES, `must not exceed ${MAX_METADATA_BYTES} bytes`),
  z.superRefine(storableNumbers),
);
