import { type QueueName, queueUrlVariables, resources } from './api/resources.js';
import * as z from './zod.js';

/*
 * Leaves shared by several variables: every handler builds this schema at load (in Lambda it also parses it there), each
 * zod instance costs a few µs, and one instance checks any number of fields (44 instances before, docs/benchmarks.md
 * "Cold start: schemas built and never parsed").
 */
const nonEmpty = z.string().check(z.minLength(1));
const optionalUrl = z.optional(z.url());

const envSchema = z.object({
  TABLE_NAME: nonEmpty,
  AWS_REGION: z._default(nonEmpty, 'eu-central-1'),
  /** Set only by the local runtime and tests; in AWS the SDK's default endpoint is right. */
  DYNAMODB_ENDPOINT: optionalUrl,
  /** The cluster label of this deployment: api, us1, as1. */
  CLUSTER: z._default(nonEmpty, 'api'),
  LOG_LEVEL: z._default(z.enum(['debug', 'info', 'warn', 'error']), 'info'),
  /** The job queues (`JOBS_QUEUE_URL`, `EXPORT_JOBS_QUEUE_URL`, one per `resources.queues`); set only on the functions that enqueue on them (routes' `sendsTo`). */
  ...Object.fromEntries(resources.queues.map((q) => [queueUrlVariables(q).queue, optionalUrl])),
  /** Set only by the local runtime and tests, like DYNAMODB_ENDPOINT. */
  SQS_ENDPOINT: optionalUrl,
  /** The export bucket; set only on the functions with bucket access (routes / workers with `bucket`). */
  BUCKET_NAME: z.optional(nonEmpty),
  /** Set only by the local runtime and tests (s3rver), like DYNAMODB_ENDPOINT. */
  S3_ENDPOINT: optionalUrl,
  /** Base URL of this region's download cluster, for export `result.url`; set on the export endpoints. */
  DOWNLOAD_BASE_URL: optionalUrl,
  /** Requests a project may send per rate-limit window, across all containers; 0 turns the limit off. (Plain regexes: z.coerce would add 2 KiB to every bundle.) */
  /** The webhooks dead-letter queue; set only on the webhook delivery worker (it dead-letters a delivery past its retry bound itself). */
  WEBHOOKS_DLQ_URL: optionalUrl,
  /** `local` on the local runtime only: webhooks may use http: and loopback addresses (lib/webhooks/target-guard.ts). */
  WEBHOOK_TARGETS: z._default(z.enum(['public', 'local']), 'public'),
  RATE_LIMIT_REQUESTS: z._default(z.string().check(z.regex(/^\d{1,9}$/, 'a whole number')), '6000'),
  /** 1 to 3600. */
  RATE_LIMIT_WINDOW_SECONDS: z._default(
    z.string().check(z.regex(/^([1-9]\d{0,2}|[1-2]\d{3}|3[0-5]\d\d|3600)$/, 'a whole number of seconds from 1 to 3600')),
    '60',
  ),
});

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
 * @throws Error naming every bad variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const bad = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${bad}`);
  }
  const e = parsed.data;
  return {
    tableName: e.TABLE_NAME,
    region: e.AWS_REGION,
    dynamoDbEndpoint: e.DYNAMODB_ENDPOINT,
    cluster: e.CLUSTER,
    logLevel: e.LOG_LEVEL,
    queueUrls: Object.fromEntries(
      resources.queues.flatMap((q) => {
        const url = (e as Record<string, unknown>)[queueUrlVariables(q).queue];
        return typeof url === 'string' ? [[q.name, url]] : [];
      }),
    ),
    sqsEndpoint: e.SQS_ENDPOINT,
    bucketName: e.BUCKET_NAME,
    s3Endpoint: e.S3_ENDPOINT,
    downloadBaseUrl: e.DOWNLOAD_BASE_URL?.replace(/\/+$/, ''),
    webhookTargets: e.WEBHOOK_TARGETS,
    webhooksDeadLetterUrl: e.WEBHOOKS_DLQ_URL,
    rateLimit: { limit: Number(e.RATE_LIMIT_REQUESTS), windowSeconds: Number(e.RATE_LIMIT_WINDOW_SECONDS) },
  };
}
