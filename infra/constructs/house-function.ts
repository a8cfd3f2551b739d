import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AssetHashType, type BundlingOptions, DockerImage, type Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { type IRole, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, type CfnFunction, Code, Function as LambdaFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { type ILogGroup, LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { LogRetentionDays } from '../config.js';
import { bundleTargets } from './bundle-targets.js';
import { lambdaExternalModulesFor } from './bundling-settings.js';
import { BUNDLE_FILE, type BundleRequest, HandlerBundles, hasLazyChunks, MAP_FILE } from './handler-bundles.js';

/** The repository root: handler paths in the route table are relative to it. */
export const repoRoot = join(import.meta.dirname, '..', '..');

/** CloudFormation metadata key naming the handler module a function was bundled from. */
export const HANDLER_METADATA_KEY = 'promo-engine:handler';

/**
 * The bundles of this synth process: every handler of the route and worker tables, built once in
 * one esbuild process when the first function that needs its bundle is staged (never when bundling
 * is skipped for the stack, as in the infra tests), then copied by every region's function.
 */
export const appBundles = new HandlerBundles(repoRoot, bundleTargets);

export interface HouseFunctionProps {
  /** Handler module relative to the repository root, exporting `handler`. */
  handlerFile: string;
  description: string;
  environment: Record<string, string>;
  timeout: Duration;
  memorySize: number;
  /**
   * The log group it writes to: shared by every function of a stack (Lambda names each stream
   * after its function, `YYYY/MM/DD/<function>[<version>]<id>`), which keeps a stack of ~70
   * functions under CloudFormation's 500 resources (docs/decisions.md, "One log group per stack").
   */
  logGroup: ILogGroup;
  /** Whether it calls S3 (its row or worker needs a bucket): its bundle then keeps the S3 client's event-stream serde. */
  usesS3: boolean;
  /**
   * The execution role, when functions with identical grants share one (made by `functionRole`, which
   * already has the log group's write grant). Without it the function gets a role of its own.
   */
  role?: IRole;
  /** Where its bundle comes from (default `appBundles`). */
  bundles?: HandlerBundles;
  /** V8 flags added to `NODE_OPTIONS` (a worker's heap bounds: lib/api/workers.ts `heapFlags`). */
  nodeFlags?: readonly string[];
  /**
   * Whether stack traces are mapped to the sources at run time (`--enable-source-maps`; default true). It costs every
   * cold start 2–5 ms (the source map is read and parsed at load): the API functions go without it and their logged
   * stacks are mapped afterwards with `scripts/map-stack.ts` (docs/decisions.md "Source-mapped stacks").
   */
  sourceMapStacks?: boolean;
  /** Whether its package has lazy chunks beside `index.mjs` (default: as LAZY_CHUNK_HANDLERS in bundling-settings.ts says). */
  lazyChunks?: boolean;
}

/** `NODE_OPTIONS` of a function, or nothing when it has no flag. */
function nodeOptions(props: Pick<HouseFunctionProps, 'nodeFlags' | 'sourceMapStacks'>): { NODE_OPTIONS?: string } {
  const flags = [...((props.sourceMapStacks ?? true) ? ['--enable-source-maps'] : []), ...(props.nodeFlags ?? [])];
  return flags.length > 0 ? { NODE_OPTIONS: flags.join(' ') } : {};
}

/**
 * A function's package as a CDK asset: the folder holding its bundle and source map (and its lazy chunks with
 * theirs, when it has some), taken from the one build of `bundles` by CDK's local bundling hook. The asset hash is the hash of that output,
 * so a function redeploys exactly when its bundle changes; CDK stages each distinct bundle once per
 * synthesis, and skips staging (and the build) for stacks it does not bundle.
 */
export function prebuiltCode(bundles: HandlerBundles, request: BundleRequest): Code {
  const bundling: BundlingOptions = {
    // Never pulled: local bundling always succeeds. CDK requires an image.
    image: DockerImage.fromRegistry('dummy'),
    // Its plain fields name the bundle in CDK's staging cache key; the method is not part of the key.
    local: {
      handler: request.handler,
      external: lambdaExternalModulesFor(request),
      lazyChunks: hasLazyChunks(request),
      tryBundle(outputDir: string): boolean {
        const bundle = bundles.get(request);
        writeFileSync(join(outputDir, BUNDLE_FILE), bundle.js);
        writeFileSync(join(outputDir, MAP_FILE), bundle.map);
        // Beside the entry, which imports them by relative URL (`./<chunk>.mjs`), as Lambda loads it from /var/task.
        for (const chunk of bundle.chunks) {
          writeFileSync(join(outputDir, chunk.file), chunk.js);
          writeFileSync(join(outputDir, `${chunk.file}.map`), chunk.map);
        }
        return true;
      },
    } as NonNullable<BundlingOptions['local']>,
  };
  return Code.fromAsset(repoRoot, { assetHashType: AssetHashType.OUTPUT, bundling });
}

/**
 * An execution role for Lambda with no managed policy, acknowledged for X-Ray's unavoidable `*`.
 * Grants are the caller's. May write to `logGroup`.
 */
export function functionRole(scope: Construct, id: string, description: string, logGroup: ILogGroup): Role {
  const role = new Role(scope, id, { assumedBy: new ServicePrincipal('lambda.amazonaws.com'), description });
  logGroup.grantWrite(role);
  Validations.of(role).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason:
      'X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords do not support resource-level permissions, so CDK grants them on "*". Every other statement of this role names its resources.',
  });
  return role;
}

/** The log group a stack's functions share, with the configured retention. */
export function functionLogGroup(scope: Construct, id: string, days: LogRetentionDays): LogGroup {
  return new LogGroup(scope, id, { retention: retentionOf(days), removalPolicy: RemovalPolicy.DESTROY });
}

const retention: Record<LogRetentionDays, RetentionDays> = {
  7: RetentionDays.ONE_WEEK,
  14: RetentionDays.TWO_WEEKS,
  30: RetentionDays.ONE_MONTH,
  60: RetentionDays.TWO_MONTHS,
  90: RetentionDays.THREE_MONTHS,
  180: RetentionDays.SIX_MONTHS,
  365: RetentionDays.ONE_YEAR,
};

export const retentionOf = (days: LogRetentionDays): RetentionDays => retention[days];

/**
 * A Lambda function with the house defaults: explicit Node.js 22 runtime on arm64, a minified
 * ESM bundle with source maps (from the synthesis' one build, handler-bundles.ts, not an esbuild
 * run of its own as NodejsFunction would), X-Ray tracing, the stack's function log group, and a role that
 * may only write to that log group (no AWS managed policy): its own, or one shared by functions
 * with the same grants. Grants are added by the caller, from the route's access.
 */
export class HouseFunction extends LambdaFunction {
  readonly handlerFile: string;

  constructor(scope: Construct, id: string, props: HouseFunctionProps) {
    const { logGroup } = props;
    const role = props.role ?? functionRole(scope, `${id}Role`, `Runs ${props.handlerFile}`, logGroup);
    super(scope, id, {
      code: prebuiltCode(props.bundles ?? appBundles, {
        handler: props.handlerFile,
        usesS3: props.usesS3,
        ...(props.lazyChunks === undefined ? {} : { lazyChunks: props.lazyChunks }),
      }),
      handler: 'index.handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize,
      timeout: props.timeout,
      description: props.description,
      tracing: Tracing.ACTIVE,
      logGroup,
      role,
      environment: { ...props.environment, ...nodeOptions(props) },
    });
    this.handlerFile = props.handlerFile;
    (this.node.defaultChild as CfnFunction).addMetadata(HANDLER_METADATA_KEY, props.handlerFile);
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'The runtime is pinned on purpose to Node.js 22 (LTS, supported by Lambda into 2027): the project is built and tested on Node 20/22, and nothing has been verified on 24 yet. Move to NODEJS_24_X together with the CI Node version and the esbuild target in bundling-settings.ts.',
    });
  }
}
