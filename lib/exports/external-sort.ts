import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** Rows held in memory at once while sorting, unless the caller says otherwise. */
export const DEFAULT_CHUNK_ROWS = 20_000;

/** Lines written to a chunk file per write call. */
const WRITE_BATCH = 1000;

export interface ExternalSortOptions<T> {
  /** A total order (or at least a consistent one); ties keep input order (stable). */
  compare: (a: T, b: T) => number;
  /** At most this many rows are held in memory (default DEFAULT_CHUNK_ROWS). */
  chunkRows?: number;
  /** Where the temporary directory of chunk files is made (default os.tmpdir(), Lambda's /tmp). */
  tmpDir?: string;
  /** JSON by default: T must then survive JSON.stringify / JSON.parse unchanged. */
  serialize?: (row: T) => string;
  deserialize?: (line: string) => T;
}

/**
 * Sorts rows that need not fit in memory (external merge sort). Rows are collected into chunks of
 * at most `chunkRows`; each chunk is sorted in memory (Array#sort, stable) and, unless it is the
 * only one, written to a temporary file as NDJSON (one row per line). The chunk files are then
 * merged k ways, line by line (readline streams, a binary heap over the k heads; equal rows are
 * taken from the earlier chunk, so the whole sort is stable).
 *
 * Memory: one chunk while reading the input; then one head row and one read buffer per chunk.
 * Disk: every row once, as JSON. The temporary directory is removed when the generator finishes,
 * fails, or is left early (its `return()`, which `for await … break` calls).
 */
export async function* externalSort<T>(input: AsyncIterable<T> | Iterable<T>, options: ExternalSortOptions<T>): AsyncGenerator<T> {
  const chunkRows = options.chunkRows ?? DEFAULT_CHUNK_ROWS;
  if (!Number.isInteger(chunkRows) || chunkRows < 1) throw new RangeError(`chunkRows must be a positive integer (got ${chunkRows})`);
  const { compare } = options;
  const serialize = options.serialize ?? ((row: T) => JSON.stringify(row));
  const deserialize = options.deserialize ?? ((line: string) => JSON.parse(line) as T);
  let dir: string | null = null;
  const files: string[] = [];
  try {
    let chunk: T[] = [];
    const spill = async (): Promise<void> => {
      chunk.sort(compare);
      dir ??= await mkdtemp(join(options.tmpDir ?? tmpdir(), 'external-sort-'));
      const path = join(dir, `chunk-${files.length}.ndjson`);
      files.push(path);
      const handle = await open(path, 'w');
      try {
        for (let i = 0; i < chunk.length; i += WRITE_BATCH) {
          let text = '';
          for (const row of chunk.slice(i, i + WRITE_BATCH)) text += `${serialize(row)}\n`;
          await handle.write(text);
        }
      } finally {
        await handle.close();
      }
      chunk = [];
    };
    for await (const row of input) {
      chunk.push(row);
      if (chunk.length >= chunkRows) await spill();
    }
    if (files.length === 0) {
      // Everything fits in one chunk: no file.
      chunk.sort(compare);
      yield* chunk;
      return;
    }
    if (chunk.length > 0) await spill();
    yield* mergeFiles(files, compare, deserialize);
  } finally {
    if (dir !== null) await rm(dir, { recursive: true, force: true });
  }
}

interface Head<T> {
  row: T;
  source: number;
}

/** k-way merge of sorted NDJSON files through a binary min-heap of their current rows. */
async function* mergeFiles<T>(files: string[], compare: (a: T, b: T) => number, deserialize: (line: string) => T): AsyncGenerator<T> {
  const streams = files.map((path) => createReadStream(path, { encoding: 'utf8' }));
  const readers = streams.map((input) => createInterface({ input, crlfDelay: Infinity }));
  const lines = readers.map((reader) => reader[Symbol.asyncIterator]());
  const before = (a: Head<T>, b: Head<T>): boolean => {
    const c = compare(a.row, b.row);
    return c < 0 || (c === 0 && a.source < b.source);
  };
  const heap: Head<T>[] = [];
  const push = (h: Head<T>): void => {
    heap.push(h);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const [hi, hp] = [heap[i], heap[parent]];
      if (!hi || !hp || !before(hi, hp)) break;
      heap[i] = hp;
      heap[parent] = hi;
      i = parent;
    }
  };
  const pop = (): Head<T> | undefined => {
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined || heap.length === 0) return top;
    heap[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      const hl = heap[l];
      const hr = heap[r];
      if (hl && before(hl, heap[m] as Head<T>)) m = l;
      if (hr && before(hr, heap[m] as Head<T>)) m = r;
      if (m === i) break;
      [heap[i], heap[m]] = [heap[m] as Head<T>, heap[i] as Head<T>];
      i = m;
    }
    return top;
  };
  const advance = async (source: number): Promise<void> => {
    const it = lines[source];
    if (!it) return;
    for (;;) {
      const next = await it.next();
      if (next.done) return;
      if (next.value === '') continue;
      push({ row: deserialize(next.value), source });
      return;
    }
  };
  try {
    for (let s = 0; s < files.length; s += 1) await advance(s);
    for (let top = pop(); top !== undefined; top = pop()) {
      yield top.row;
      await advance(top.source);
    }
  } finally {
    for (const reader of readers) reader.close();
    for (const stream of streams) stream.destroy();
  }
}
