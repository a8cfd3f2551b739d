/**
 * The one zod entry point of the code that ships: `zod/mini`, whose functional API lets esbuild drop
 * what a handler does not use and whose schemas carry no per-instance methods, so a bundle loads
 * faster than with classic zod (the cold-start proxy of docs/benchmarks.md). Classic zod installs
 * its English messages on import; mini does not, so they are installed here, once, for every
 * importer: the `details` of a 400 read exactly as before.
 */
import { config, pipe, transform, type core, ZodMiniISODate } from 'zod/mini';
import { _isoDate } from 'zod/v4/core';
import en from 'zod/v4/locales/en.js';

config(en());

export * from 'zod/mini';

/** Classic zod's `preprocess`, which mini lacks: `fn` sees the raw input, `schema` validates what it returns. */
export const preprocess = <S extends core.$ZodType>(fn: (input: unknown) => unknown, schema: S) => pipe(transform(fn), schema);

/**
 * `z.iso.date()` without the `iso` namespace: reaching it through `z.iso` keeps every ISO format (datetime, time,
 * duration) in the bundle, about 1.5 KiB of a handler (docs/adding-an-endpoint.md "Bundle and cold start").
 */
export const isoDate = (params?: string | core.$ZodISODateParams) => _isoDate(ZodMiniISODate, params);
