import { type QueueName, queueUrlVariables, resources } from './api/resources.js';
import * as z from './zod.js';

/*
 * The environment is checked by hand, not with a zod object: every function built that schema at load (44 zod
 * instances, 21 with shared leaves) and a Lambda parses it at load too, where zod's first schema of each kind costs
 * 0.3-0.6 ms (docs/benchmarks.md "Cold start: schemas built and never parsed"). The messages are zod's English ones,
 * word for word (test/unit/runtime/config-messages.test.ts), and URLs still go through zod's own `z.url()`, built the
 * first time a URL variable is set (in AWS: the functions that send to a queue or show an export).
 */

/** What a variable's check reports, in zod's words; loadConfig prefixes the variable's name. */
class Bad {
  constructor(readonly messages: string[]) {}
}
type Check<T> = (value: string | undefined) => T;

const typeName = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const text: Check<string> = (v) => {
  if (typeof v !== 'string') throw new Bad([`Invalid input: expected string, received ${typeName(v)}`]);
  return v;
};
const nonEmpty: Check<string> = (v) => {
  if (text(v).length < 1) throw new Bad(['Too small: expected string to have >=1 characters']);
  return text(v);
};
const matching =
  (pattern: RegExp, message: string): Check<string> =>
  (v) => {
    if (!pattern.test(text(v))) throw new Bad([message]);
    return text(v);
  };
const oneOf =
  <const T extends readonly string[]>(values: T): Check<T[number]> =>
  (v) => {
    const found = values.find((x) => x === v);
    if (found === undefined) throw new Bad([`Invalid option: expected one of ${values.map((x) => JSON.stringify(x)).join('|')}`]);
    return found;
  };
const withDefault =
  <T>(check: Check<T>, fallback: T): Check<T> =>
  (v) =>
    v === undefined ? fallback : check(v);
const optional =
  <T>(check: Check<T>): Check<T | undefined> =>
  (v) =>
    v === undefined ? undefined : check(v);

let urlSchema: ReturnType<typeof z.url> | undefined;
const url: Check<string> = (v) => {
  urlSchema ??= z.url();
  const parsed = urlSchema.safeParse(v);
  if (!parsed.success) throw new Bad(parsed.error.issues.map((i) => i.message));
  return parsed.data;
};
const optionalUrl = optional(url);

export interface Config {
  tableName: string;
  region: string;
  dynamoDbEndpoint: string | undefined;
  cluster: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** Each job queue's URL, present on the functions that send to it; whoever sends to a queue without one fails loudly. */
  queueUrls?: Partial<Record<QueueName, string>> | undefined;
  sqsEndpoint?: string | undefined;
  /** Absent on functions without bucket access; the export file store fails loudly without it. */
  bucketName?: string | undefined;
  s3Endpoint?: string | undefined;
  /** Absent on functions that show no export; GET /v1/exports fails loudly without it. */
  downloadBaseUrl?: string | undefined;
  /** Per-project request budget; absent (or `limit` 0) = no limit and no X-Rate-Limit headers. */
  rateLimit?: RateLimitSettings | undefined;
  /** `local`: webhook targets may be http: and loopback (the local runtime); `public` (default): https: and public addresses only. */
  webhookTargets?: 'public' | 'local' | undefined;
  webhooksDeadLetterUrl?: string | undefined;
}

export interface RateLimitSettings {
  /** Requests per window; 0 = off. */
  limit: number;
  windowSeconds: number;
}

/**
 * Parses the process environment once, at container start. A missing or malformed value
 * fails loudly here rather than as an odd error on the first request.
 * @throws Error naming every bad variable, in the order below.
 */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const issues: string[] = [];
  const read = <T>(name: string, check: Check<T>): T | undefined => {
    try {
      return check(env[name]);
    } catch (e) {
      if (!(e instanceof Bad)) throw e;
      issues.push(...e.messages.map((m) => `${name}: ${m}`));
      return undefined;
    }
  };
  const tableName = read('TABLE_NAME', nonEmpty);
  const region = read('AWS_REGION', withDefault(nonEmpty, 'eu-central-1'));
  /** Set only by the local runtime and tests; in AWS the SDK's default endpoint is right. */
  const dynamoDbEndpoint = read('DYNAMODB_ENDPOINT', optionalUrl);
  /** The cluster label of this deployment: api, us1, as1. */
  const cluster = read('CLUSTER', withDefault(nonEmpty, 'api'));
  const logLevel = read('LOG_LEVEL', withDefault(oneOf(['debug', 'info', 'warn', 'error']), 'info'));
  /** The job queues (`JOBS_QUEUE_URL`, `EXPORT_JOBS_QUEUE_URL`, one per `resources.queues`); set only on the functions that enqueue on them (routes' `sendsTo`). */
  const queueUrls = Object.fromEntries(
    resources.queues.flatMap((q) => {
      const queueUrl = read(queueUrlVariables(q).queue, optionalUrl);
      return queueUrl === undefined ? [] : [[q.name, queueUrl]];
    }),
  );
  /** Set only by the local runtime and tests, like DYNAMODB_ENDPOINT. */
  const sqsEndpoint = read('SQS_ENDPOINT', optionalUrl);
  /** The export bucket; set only on the functions with bucket access (routes / workers with `bucket`). */
  const bucketName = read('BUCKET_NAME', optional(nonEmpty));
  /** Set only by the local runtime and tests (s3rver), like DYNAMODB_ENDPOINT. */
  const s3Endpoint = read('S3_ENDPOINT', optionalUrl);
  /** Base URL of this region's download cluster, for export `result.url`; set on the export endpoints. */
  const downloadBaseUrl = read('DOWNLOAD_BASE_URL', optionalUrl);
  /** The webhooks dead-letter queue; set only on the webhook delivery worker (it dead-letters a delivery past its retry bound itself). */
  const webhooksDeadLetterUrl = read('WEBHOOKS_DLQ_URL', optionalUrl);
  /** `local` on the local runtime only: webhooks may use http: and loopback addresses (lib/webhooks/target-guard.ts). */
  const webhookTargets = read('WEBHOOK_TARGETS', withDefault(oneOf(['public', 'local']), 'public'));
  /** Requests a project may send per rate-limit window, across all containers; 0 turns the limit off. */
  const rateLimitRequests = read('RATE_LIMIT_REQUESTS', withDefault(matching(/^\d{1,9}$/, 'a whole number'), '6000'));
  /** 1 to 3600. */
  const rateLimitWindow = read(
    'RATE_LIMIT_WINDOW_SECONDS',
    withDefault(matching(/^([1-9]\d{0,2}|[1-2]\d{3}|3[0-5]\d\d|3600)$/, 'a whole number of seconds from 1 to 3600'), '60'),
  );
  if (issues.length > 0) throw new Error(`Invalid configuration: ${issues.join('; ')}`);
  return {
    tableName: tableName as string,
    region: region as string,
    dynamoDbEndpoint,
    cluster: cluster as string,
    logLevel: logLevel as Config['logLevel'],
    queueUrls: queueUrls as Partial<Record<QueueName, string>>,
    sqsEndpoint,
    bucketName,
    s3Endpoint,
    downloadBaseUrl: downloadBaseUrl?.replace(/\/+$/, ''),
    webhookTargets,
    webhooksDeadLetterUrl,
    rateLimit: { limit: Number(rateLimitRequests), windowSeconds: Number(rateLimitWindow) },
  };
}
