/**
 * The one description of how a handler is bundled, read by infra/constructs/handler-bundles.ts: the one build that
 * synth deploys and `scripts/bundle-sizes.ts` measures, so the sizes the script prints are the sizes that deploy.
 * Kept free of CDK imports so the script starts fast.
 */
export const houseBundling = {
  /** esbuild target; matches the Lambda runtime in `house-function.ts`. */
  target: 'node22',
  format: 'esm',
  minify: true,
  sourceMap: true,
  /** Stack traces need file and line, not the source text: keeps the .map small. */
  sourcesContent: false,
  /** Prefer packages' ESM entry points so esbuild can tree-shake them. */
  mainFields: ['module', 'main'],
  /**
   * Bundled CommonJS dependencies still call `require` for Node built-ins; an ESM bundle has
   * none, so one is made from the module's URL.
   */
  /** esbuild prints only warnings and errors: `cdk synth --quiet` stays quiet about 27 bundles. */
  logLevel: 'warning',
  banner: "import { createRequire as __houseCreateRequire } from 'node:module';const require = __houseCreateRequire(import.meta.url);",
  /**
   * Modules replaced in every bundle, by paths relative to the repository root. The DynamoDB
   * client's endpoint-discovery cache, which this service never fills, imports mnemonist's LRU
   * cache (about 7 KiB minified with its helpers); infra/bundle-shims/lru-cache.ts is the same
   * cache for the calls it makes (a property test compares the two), in 0.4 KiB.
   */
  alias: {
    'mnemonist/lru-cache': './infra/bundle-shims/lru-cache.ts',
    // The DynamoDB client's endpoint-discovery settings without the cache no command reads (see the shim): about 2 KiB.
    '@aws-sdk/middleware-endpoint-discovery': './infra/bundle-shims/endpoint-discovery.ts',
    // The SDK's trace-id lookup for many invocations per process; one at a time, the environment gives it (see the shim): about 2.2 KiB.
    '@aws/lambda-invoke-store': './infra/bundle-shims/lambda-invoke-store.ts',
    // The default credential chain, which on Lambda always stops at the environment (see the shim): about 3 KiB.
    '@aws-sdk/credential-provider-node': './infra/bundle-shims/credential-provider-node.ts',
  },
} as const;

/**
 * The SDK is bundled (tree-shaken, minified, pinned to the version the tests ran against) except
 * the credential providers that Lambda never reaches: the runtime always sets the execution
 * role's credentials in the environment, so the default chain stops at `fromEnv` and the
 * lazily `import()`ed SSO, INI, process, web-identity and login providers (with the STS/SSO
 * clients they carry) would be dead weight, about 110 KiB of every bundle.
 */
export const EVENT_STREAMS_MODULE = '@smithy/core/event-streams';
const EVENT_STREAMS = EVENT_STREAMS_MODULE;

export const lambdaExternalModules = [
  '@aws-sdk/credential-provider-sso',
  '@aws-sdk/credential-provider-ini',
  '@aws-sdk/credential-provider-process',
  '@aws-sdk/credential-provider-web-identity',
  '@aws-sdk/credential-provider-login',
  '@aws-sdk/nested-clients',
  '@aws-sdk/token-providers',
  // The container and instance-metadata providers are `import()`ed by the same chain only when
  // the environment holds no credentials, which on Lambda never happens: about 17 KiB.
  '@smithy/credential-provider-imds',
  '@aws-sdk/credential-provider-http',
  // Smithy's HTTP protocols `import()` their event-stream serde only for an operation with an
  // event-stream member; DynamoDB and SQS have none: about 19 KiB. The S3 client imports it
  // statically (SelectObjectContent), so a function that uses S3 bundles it
  // (lambdaExternalModulesFor); `npm run bundle-sizes` fails a bundle that statically imports
  // any module left out.
  EVENT_STREAMS,
  // The SDK's browser user-agent parser, `import()`ed only where `window` exists. A build without splitting drops
  // the unreached call with its module; a build with lazy chunks (LAZY_CHUNK_HANDLERS) would keep it as a 34 KiB
  // chunk nothing loads.
  'bowser',
] as const;

/** The modules left out of a function's bundle: all of lambdaExternalModules, but the event-stream serde where S3 is used. */
export function lambdaExternalModulesFor(fn: { usesS3: boolean }): string[] {
  return lambdaExternalModules.filter((m) => !(fn.usesS3 && m === EVENT_STREAMS));
}

/** An API handler's minified bundle must stay below this (the performance issue's limit). */
export const API_BUNDLE_LIMIT_BYTES = 400 * 1024;

/**
 * What an API handler's bundle should stay within: 85 % of its limit, so that shared changes have headroom
 * (issue 34). `npm run bundle-sizes` fails every handler over it, with no exception; for a handler with lazy chunks,
 * what counts is what its cold start loads (LAZY_CHUNK_HANDLERS).
 */
export const API_BUNDLE_TARGET_BYTES = Math.floor(0.85 * API_BUNDLE_LIMIT_BYTES);

/**
 * The handlers built with lazily loaded chunks: each in an esbuild build of its own with `splitting`, so that a path a
 * request takes only sometimes, `await import()`ed in lib/, becomes a chunk file in the function's own package and is
 * loaded when taken, not at cold start (docs/decisions.md "Lazy chunks on the redemption doors"). The others are
 * built together without splitting, where an `import()` is inlined into the one file. `npm run bundle-sizes` holds
 * such a handler's entry and the chunks it imports statically (what a cold start loads) to the 85 % target, all of
 * its files together to the limit, and fails a handler named here whose build makes no lazy chunk.
 */
export const LAZY_CHUNK_HANDLERS: readonly string[] = [
  // Order earning after a PAID order (lib/redemptions/order-earning.lazy.ts), and the loyalty reward (reward.lazy.ts).
  'functions/redemptions/redeem-stacked-discounts.ts',
  'functions/redemptions/redeem-stacked-discounts-client-side.ts',
  'functions/redemptions/redeem-voucher.ts',
  'functions/redemptions/redeem-voucher-client-side.ts',
  'functions/redemptions/redeem-promotion.ts',
  // The S3 client, an export's rows and a customer's erasure (lib/exports/export-lane.lazy.ts): loaded by the first
  // job, not at cold start.
  'functions/workers/export-jobs-worker.ts',
];

/** A queue worker's minified bundle must stay below this. */
export const WORKER_BUNDLE_LIMIT_BYTES = 600 * 1024;
