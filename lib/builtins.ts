import { createRequire } from 'node:module';

/*
 * Node built-ins that few requests reach, loaded when first reached. A static ESM `import` of a built-in that the
 * DynamoDB client does not import already costs every cold start the built-in's ESM facade (`node:zlib` ~1 ms,
 * `node:net` and `node:timers/promises` ~0.5 ms each on this machine; docs/benchmarks.md "Built-ins at cold start"),
 * while `require` of a built-in makes none. `node:module` is loaded by every bundle's banner, so this costs nothing.
 */
const requireBuiltin = createRequire(import.meta.url);

/** The built-in `id`, loaded by the first call and kept. */
function lazyBuiltin<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= requireBuiltin(id) as T;
    return loaded;
  };
}

/** `node:zlib`: large idempotent replies stored gzip-compressed, voucher images (PNG), the served OpenAPI document. */
export const zlib = lazyBuiltin<typeof import('node:zlib')>('node:zlib');
/** `node:net`: only projects with an IP allow list match addresses. */
export const net = lazyBuiltin<typeof import('node:net')>('node:net');
/** `node:https` and `node:http` (a local engine): the hand-made SQS call; the DynamoDB client has loaded both by then. */
export const https = lazyBuiltin<typeof import('node:https')>('node:https');
export const http = lazyBuiltin<typeof import('node:http')>('node:http');
/** `node:dns/promises`: resolving a webhook's host before it is accepted or called. */
export const dns = lazyBuiltin<typeof import('node:dns/promises')>('node:dns/promises');
/** `node:util`: deep comparison of updated documents. */
export const util = lazyBuiltin<typeof import('node:util')>('node:util');

/** A promise resolved after `ms`; `node:timers/promises` would load a built-in for the retry backoffs alone. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
