import { beforeAll } from 'vitest';
import { forgetFileTables } from './runtime.js';

/*
 * The integration project shares one module graph per worker (vitest.config.ts `isolate: false`), so
 * module state outlives a file. What a file expects to own is reset before it starts: its own
 * tables (fileTableName, streamedFileTableName).
 */
beforeAll(() => {
  forgetFileTables();
});
