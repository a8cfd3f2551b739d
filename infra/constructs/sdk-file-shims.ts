/**
 * Files inside the AWS SDK's packages that the deployed bundles replace with smaller ones, where the package's own
 * code takes a branch that Lambda never reaches. `alias` (bundling-settings.ts) can only replace a whole package;
 * these are single files inside `@smithy/core` and `@aws-sdk/*`, so an esbuild plugin swaps each one as it is
 * loaded. Each replacement exports the same names, and it is loaded from the original file's folder, so its
 * relative imports resolve as the original's do. Tests and the local runtime load the SDK unchanged; only bundles
 * are built this way (docs/decisions.md "SDK files the bundles replace"). test/integration/infra/deployed-bundle.test.ts
 * runs bundled handlers against DynamoDB Local through them, and test/unit/infra/sdk-file-shims.test.ts checks that
 * every file named here still exists and still exports what its replacement exports, so an SDK update that moves
 * one fails a test instead of silently bundling the full file.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Plugin } from 'esbuild';
import { directBarrelImports, SDK_ES_FILE } from './direct-barrel-imports.js';

export interface SdkFileShim {
  /** The replaced file, from `node_modules/` on. */
  file: string;
  /** Why Lambda never runs the code it leaves out. */
  why: string;
  /** The names the original exports and the replacement keeps. */
  exports: readonly string[];
  /** The replacement module (plain ESM JavaScript, like the SDK's `dist-es` files). */
  contents: string;
}

const SMITHY = '@smithy/core/dist-es/submodules';

export const sdkFileShims: readonly SdkFileShim[] = [
  {
    file: `${SMITHY}/checksum/sha256/Sha256Js.js`,
    why:
      'The pure-JavaScript SHA-256, used by Sha256Node only when node:crypto cannot hash SHA-256, and by the WebCrypto ' +
      'hasher in browsers. Node 22 (the Lambda runtime) always hashes it natively: about 3.3 KiB.',
    exports: ['Sha256Js'],
    contents: `export class Sha256Js {
  constructor() {
    throw new Error("Sha256Js is not in this bundle: node:crypto hashes SHA-256 (infra/constructs/sdk-file-shims.ts)");
  }
}
`,
  },
  {
    file: `${SMITHY}/config/node-config-provider/fromSharedConfigFiles.js`,
    why:
      'The shared config and credentials files (~/.aws/config, ~/.aws/credentials, or AWS_CONFIG_FILE / ' +
      "AWS_SHARED_CREDENTIALS_FILE) as the middle link of every setting's chain: environment, files, default. A " +
      'function holds only its bundle, the house sets neither variable (house-function.ts), and the sandbox user has no ' +
      'such files, so the link always fails and the chain goes on to the default, as here (without reading the disk): ' +
      'about 2.6 KiB with the INI parser.',
    exports: ['fromSharedConfigFiles'],
    contents: `import { CredentialsProviderError } from "../property-provider/CredentialsProviderError";
export const fromSharedConfigFiles = (_configSelector, init = {}) => async () => {
  throw new CredentialsProviderError("Not found in config files: the bundle reads none (infra/constructs/sdk-file-shims.ts)", { logger: init.logger });
};
`,
  },
  {
    file: `${SMITHY}/config/config-resolver/regionConfig/getInstanceMetadataRegion.js`,
    why:
      'The region asked of the EC2 instance metadata service, the last resort when AWS_REGION is unset (and for ' +
      '`defaultsMode: "auto"` outside Lambda). Lambda always sets AWS_REGION and AWS_EXECUTION_ENV, and the house ' +
      'passes the region to every client: about 1.2 KiB.',
    exports: ['getInstanceMetadataRegion'],
    contents: 'export const getInstanceMetadataRegion = async () => undefined;\n',
  },
  {
    file: `${SMITHY}/retry/util-retry/AdaptiveRetryStrategy.js`,
    why:
      'The client-side rate limiter of retry mode "adaptive". The DynamoDB client sets retryMode "standard" ' +
      '(lib/db/client.ts); the SQS and S3 clients read AWS_RETRY_MODE, which the house never sets, then the ' +
      'default, "standard": about 3.4 KiB with DefaultRateLimiter. Asked for, it fails loudly rather than retrying ' +
      'differently.',
    exports: ['AdaptiveRetryStrategy'],
    contents: `export class AdaptiveRetryStrategy {
  constructor() {
    throw new Error('Retry mode "adaptive" is not in this bundle: use "standard" (infra/constructs/sdk-file-shims.ts)');
  }
}
`,
  },
  {
    file: '@aws-sdk/core/dist-es/submodules/client/emitWarningIfUnsupportedVersion.js',
    why: 'A warning for Node.js versions below 22; the functions run on nodejs22.x (house-function.ts): 0.6 KiB.',
    exports: ['state', 'emitWarningIfUnsupportedVersion'],
    contents: 'export const state = { warningEmitted: false };\nexport const emitWarningIfUnsupportedVersion = (_version) => {};\n',
  },
];

/**
 * The clients' `package.json`, imported whole by their runtime config for one field, `version` (the user agent):
 * about 2.4 KiB of JSON in every bundle with a DynamoDB, SQS or S3 client. The bundle keeps the field.
 */
export const CLIENT_PACKAGE_JSON = /node_modules[\\/]@aws-sdk[\\/]client-[^\\/]+[\\/]package\.json$/;

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The DynamoDB operations the house calls (lib/ and functions/, through lib-dynamodb's commands; a unit test checks
 * the list against the source).
 */
export const DYNAMODB_OPERATIONS_USED = [
  'GetItem',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'Query',
  'Scan',
  'BatchGetItem',
  'BatchWriteItem',
  'TransactWriteItems',
  'TransactGetItems',
] as const;

const DYNAMODB = '@aws-sdk/client-dynamodb';
export const DYNAMODB_SCHEMAS = /node_modules[\\/]@aws-sdk[\\/]client-dynamodb[\\/]dist-es[\\/]schemas[\\/]schemas_0\.js$/;

/**
 * The errors the operations above can return, from the client's own declarations (`@throws` of each command), with
 * the service's base exception. The client registers all 35 of its errors for deserialization, most of them for the
 * control plane (backups, exports, imports, global tables, table and policy management) that no function calls.
 */
export function dynamoErrorsThrown(nodeModules: string, operations: readonly string[] = DYNAMODB_OPERATIONS_USED): Set<string> {
  const thrown = new Set<string>();
  for (const op of operations) {
    const declarations = readFileSync(join(nodeModules, DYNAMODB, 'dist-types', 'commands', `${op}Command.d.ts`), 'utf8');
    for (const m of declarations.matchAll(/@throws \{@link (\w+)\}/g)) thrown.add(m[1] as string);
  }
  if (!thrown.has('DynamoDBServiceException')) throw new Error('the DynamoDB commands declare no base exception: has the SDK changed?');
  return thrown;
}

/**
 * schemas_0.js without the registration of errors none of the house's operations can return, so their schemas and
 * classes (about 8 KiB) are left out. Were DynamoDB to return one, the client would raise its base exception,
 * DynamoDBServiceException, with the same `name`, `message`, `$fault` and `$metadata`, which is how the house reads
 * errors of these kinds (lib/db/client.ts classifies by `name`; `instanceof` is used only for kept errors).
 */
export function withoutUnusedErrors(source: string, keep: ReadonlySet<string>): string {
  const dropped = new Set<string>();
  const unregistered = source.replace(/^n0_registry\.registerError\((\w+)\$, (\w+)\);\n/gm, (line, schema: string, cls: string) => {
    if (schema !== cls || keep.has(cls)) return line;
    dropped.add(cls);
    return '';
  });
  if (dropped.size === 0) throw new Error('schemas_0.js registers no error this build can drop: has the SDK changed? (sdk-file-shims.ts)');
  // The dropped errors' schemas too: esbuild keeps an unread `[-3, n0, _X, { [_e]: _c }, ...]` for its computed key.
  return unregistered.replace(/^export var (\w+)\$ = \[-3, [^;]*?\n\];\n/gm, (declaration, name: string) => (dropped.has(name) ? '' : declaration));
}

/**
 * Replaced only in bundles without the S3 client: the endpoint middleware calls this file's resolveParamsForS3 for a
 * client whose serviceId is S3, and no other client's (0.7 KiB).
 */
export const s3EndpointCustomizationShim: SdkFileShim = {
  file: `${SMITHY}/endpoints/middleware-endpoint/service-customizations/s3.js`,
  why: "The S3 client's bucket-name endpoint rules, called only for a client whose serviceId is S3.",
  exports: ['DOT_PATTERN', 'S3_HOSTNAME_PATTERN', 'isArnBucketName', 'isDnsCompatibleBucketName', 'resolveParamsForS3'],
  contents: `const absent = () => {
  throw new Error("The S3 endpoint rules are not in this bundle, which has no S3 client (infra/constructs/sdk-file-shims.ts)");
};
export const DOT_PATTERN = /\\./;
export const S3_HOSTNAME_PATTERN = /^(.+\\.)?s3(-fips)?(\\.dualstack)?[.-]([a-z0-9-]+)\\./;
export const isDnsCompatibleBucketName = absent;
export const isArnBucketName = absent;
export const resolveParamsForS3 = absent;
`,
};

/**
 * The paginators (`paginateQuery`, `paginateScan`, ...) are built at load by a call esbuild cannot prove free of
 * effects, so each kept its command (and the command's schemas) in every bundle, paginated or not. The call is
 * marked pure: a paginator that is read is built as before; one that is not is left out with what only it uses.
 */
export const SDK_PAGINATOR = /node_modules[\\/]@aws-sdk[\\/][^\\/]+[\\/]dist-es[\\/]pagination[\\/]\w+Paginator\.js$/;
export const purePaginator = (source: string): string => source.replace(/= createPaginator\(/g, '= /* @__PURE__ */ createPaginator(');

/**
 * The esbuild plugin that loads the replacements in place of the files named above. `directBarrels` (the builds with
 * lazy chunks): every SDK module it loads, replaced or not, imports names from their defining files rather than from
 * index modules (direct-barrel-imports.ts).
 */
export function sdkFileShimsPlugin(
  { usesS3, directBarrels = false }: { usesS3: boolean; directBarrels?: boolean },
  shims: readonly SdkFileShim[] = sdkFileShims,
): Plugin {
  if (!usesS3) shims = [...shims, s3EndpointCustomizationShim];
  const byFile = new Map(shims.map((s) => [s.file, s]));
  const filter = new RegExp(`node_modules[\\\\/](?:${shims.map((s) => escapeRegExp(s.file).replace(/\//g, '[\\\\/]')).join('|')})$`);
  return {
    name: 'sdk-file-shims',
    setup(build) {
      const rewrite = directBarrels ? directBarrelImports(build) : async (source: string) => source;
      build.onLoad({ filter }, async (args) => {
        const file = args.path.split(/[\\/]/).join('/');
        const shim = byFile.get(file.slice(file.lastIndexOf('node_modules/') + 'node_modules/'.length));
        if (!shim) return undefined;
        return { contents: await rewrite(shim.contents, args.path), loader: 'js', resolveDir: dirname(args.path) };
      });
      build.onLoad({ filter: DYNAMODB_SCHEMAS }, async (args) => {
        const nodeModules = args.path.slice(0, args.path.search(/[\\/]@aws-sdk[\\/]client-dynamodb[\\/]/));
        return {
          contents: await rewrite(withoutUnusedErrors(await readFile(args.path, 'utf8'), dynamoErrorsThrown(nodeModules)), args.path),
          loader: 'js',
          resolveDir: dirname(args.path),
        };
      });
      build.onLoad({ filter: SDK_PAGINATOR }, async (args) => ({
        contents: await rewrite(purePaginator(await readFile(args.path, 'utf8')), args.path),
        loader: 'js',
        resolveDir: dirname(args.path),
      }));
      build.onLoad({ filter: CLIENT_PACKAGE_JSON }, async (args) => {
        const { version } = JSON.parse(await readFile(args.path, 'utf8')) as { version: string };
        return { contents: JSON.stringify({ version }), loader: 'json' };
      });
      // Last: any other SDK module, only rewritten.
      if (directBarrels)
        build.onLoad({ filter: SDK_ES_FILE }, async (args) => ({
          contents: await rewrite(await readFile(args.path, 'utf8'), args.path),
          loader: 'js',
          resolveDir: dirname(args.path),
        }));
    },
  };
}
