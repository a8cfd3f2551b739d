import { randomUUID } from 'node:crypto';
import { LOCAL_TARGET_POLICY } from '../../../lib/webhooks/target-policy.js';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type * as z from '../../../lib/zod.js';
import { lambdaContext, toApiGatewayEvent, type HttpRequestParts } from '../../../infra/local/api-gateway-event.js';
import { routeNotFoundRoute, routes } from '../../../lib/api/routes.js';
import { ManualClock, type Clock } from '../../../lib/clock.js';
import { createDocumentClient } from '../../../lib/db/client.js';
import type { ExportFileReader, ExportFiles } from '../../../lib/exports/export-files.js';
import { createS3ExportFiles } from '../../../lib/exports/s3-export-files.js';
import { createS3Presigner } from '../../../lib/exports/s3-presigner.js';
import type { ApiHandler, HandlerFactory } from '../../../lib/http/endpoint.js';
import type { RouteDef } from '../../../lib/api/route.js';
import { randomIds } from '../../../lib/ids.js';
import type { JobQueue } from '../../../lib/jobs/job.js';
import { silentLogger, type Logger } from '../../../lib/logger.js';
import { createRuntime, type Runtime } from '../../../lib/runtime.js';
import { ensureTable } from '../../../infra/local/engines.js';
import { isWellFormed, showLoneSurrogates } from '../../../lib/http/unicode.js';
import { isDotSegment } from '../../../lib/vouchers/code-generator.js';
import { RecordingJobQueue } from '../api.js';
import { isJsonReply } from '../invoke.js';
import { engines } from '../runtime.js';

export const DOWNLOAD_BASE = 'http://download.hostile.test';

/** Every row of the route table plus the `$default` fallback: a new route is covered without editing a test. */
export const allRoutes: readonly RouteDef[] = [...routes, routeNotFoundRoute];

/** What a handler module exports (functions/<resource>/<verb>-<resource>.ts). */
export interface HandlerModule {
  schemas: { params?: z.core.$ZodType; query?: z.core.$ZodType; body?: z.core.$ZodType };
  makeHandler: HandlerFactory;
}

export async function loadRoute(route: RouteDef): Promise<HandlerModule> {
  const mod = (await import(new URL(`../../../${route.handler}`, import.meta.url).href)) as HandlerModule;
  if (typeof mod.makeHandler !== 'function' || typeof mod.schemas !== 'object') {
    throw new Error(`${route.handler} must export schemas and makeHandler(ports)`);
  }
  return mod;
}

/** The test stand-ins of the container's ports: the jobs queue and the presigner (the download base is DOWNLOAD_BASE). */
export interface HandlerExtras {
  jobs: JobQueue;
  links: ExportFileReader;
  /** The export bucket (s3rver), for the routes that delete export files. */
  files?: ExportFiles;
}

export function defaultExtras(): HandlerExtras {
  const e = engines();
  const bucket = { region: e.region, bucketName: e.bucketName, s3Endpoint: e.s3Endpoint };
  return { jobs: new RecordingJobQueue(), links: createS3Presigner(bucket), files: createS3ExportFiles(bucket) };
}

/** Builds the route's handler on `runtime`, every port a stand-in: all handlers take the same ports, each uses its own. */
export function handlerFor(_route: RouteDef, mod: HandlerModule, runtime: Runtime, extras: HandlerExtras): ApiHandler {
  return mod.makeHandler({
    runtime,
    jobs: extras.jobs,
    links: extras.links,
    ...(extras.files ? { files: extras.files } : {}),
    downloadBaseUrl: () => DOWNLOAD_BASE,
    webhookTargets: () => LOCAL_TARGET_POLICY,
  });
}

/** Path parameter names of a template, in order: `/v1/a/{x}/b/{y}` → [x, y]. */
export const pathParamNames = (path: string): string[] => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);

/** encodeURIComponent that survives lone surrogates (they cannot travel in UTF-8; API Gateway would see U+FFFD). */
export function safeEncode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
  }
}

export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => safeEncode(params[name] ?? ''));
}

export interface RawRequest {
  method: string;
  path: string;
  pathParameters?: Record<string, string>;
  query?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface RawReply {
  status: number;
  headers: Record<string, string>;
  text: string | undefined;
  body: unknown;
}

/** One invocation with a hand-built API Gateway event; `mutate` can touch the event the way API Gateway never would (header case). */
export async function invokeRaw(handler: ApiHandler, req: RawRequest, mutate?: (event: APIGatewayProxyEventV2) => void): Promise<RawReply> {
  const parts: HttpRequestParts = {
    method: req.method,
    rawPath: req.path,
    rawQueryString: req.query ?? '',
    headers: req.headers ?? {},
    ...(req.body !== undefined ? { body: req.body } : {}),
    ...(req.pathParameters ? { pathParameters: req.pathParameters } : {}),
  };
  const event = toApiGatewayEvent(parts);
  mutate?.(event);
  const result = await handler(event, lambdaContext('hostile'));
  const text = result.body;
  const headers = (result.headers ?? {}) as Record<string, string>;
  let body: unknown;
  if (text !== undefined && text !== '') body = isJsonReply(headers) ? (JSON.parse(text) as unknown) : text;
  return { status: result.statusCode ?? 200, headers, text, body };
}

/**
 * The first string of a parsed reply, key or value, that is not well-formed Unicode (undefined if
 * none): JSON.stringify writes a lone surrogate as a `\ud800` escape, which strict JSON readers refuse.
 */
export function illFormedStringIn(value: unknown): string | undefined {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'string') {
      if (!isWellFormed(node)) return node;
    } else if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
    } else if (node !== null && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (!isWellFormed(k)) return k;
        stack.push(v);
      }
    }
  }
  return undefined;
}

/** A voucher `code` in a reply that is a path dot-segment (`.` or `..`): no client could ever address that voucher. */
export function dotSegmentCodeIn(value: unknown): string | undefined {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
    } else if (node !== null && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (k === 'code' && typeof v === 'string' && isDotSegment(v)) return v;
        stack.push(v);
      }
    }
  }
  return undefined;
}

/**
 * Why a reply breaks the contract (undefined when it keeps it): a success, or a 4xx error object
 * whose code is the status; either way holding only well-formed Unicode.
 */
export function contractViolation(reply: RawReply): string | undefined {
  const { status, body } = reply;
  if (status >= 500) return `server error ${status}`;
  const illFormed = illFormedStringIn(body);
  if (illFormed !== undefined) return `a ${status} reply holding a string that is not well-formed Unicode: ${showLoneSurrogates(illFormed).slice(0, 200)}`;
  if (status >= 400) {
    if (!body || typeof body !== 'object' || Array.isArray(body)) return `error ${status} without an error object`;
    const e = body as Record<string, unknown>;
    if (e.code !== status) return `error object code ${String(e.code)} differs from status ${status}`;
    for (const field of ['key', 'message', 'request_id'] as const) {
      if (typeof e[field] !== 'string' || e[field] === '') return `error object without a ${field} string`;
    }
    return undefined;
  }
  if (status === 204) return reply.text ? 'a 204 with a body' : undefined;
  if (status === 302) return reply.headers.Location ? undefined : 'a 302 without Location';
  // A file (an export download): text as its Content-Type says, checked against the document by the reply contract.
  if (status === 200 && !isJsonReply(reply.headers)) return typeof reply.text === 'string' ? undefined : 'a 200 file without a body';
  if (status >= 200 && status < 300) return body !== null && typeof body === 'object' ? undefined : `a ${status} without a JSON body`;
  return `unexpected status ${status}`;
}

/** A table of the test's own on DynamoDB Local (same design as the product's), so a scan sees only the test's items. */
export interface OwnTable {
  tableName: string;
  runtime(options?: { clock?: Clock; logger?: Logger }): Runtime;
  /** Every item of a project: keys under `P#<projectId>` and the credential items naming it. Sorted, comparable. */
  snapshot(projectId: string): Promise<string[]>;
  /** Every item of the table, serialised (for secrets-in-clear checks). */
  scanAll(): Promise<string[]>;
  /** Every item of the table as stored, to copy into another table. */
  items(): Promise<Record<string, unknown>[]>;
  /** Writes `items` as they are (BatchWrite, 25 at a time). */
  load(items: readonly Record<string, unknown>[]): Promise<void>;
  drop(): Promise<void>;
}

export async function createOwnTable(prefix: string): Promise<OwnTable> {
  const e = engines();
  const tableName = `${prefix}-${randomUUID().slice(0, 8)}`;
  const client = new DynamoDBClient({ region: e.region, endpoint: e.dynamoEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await ensureTable(client, tableName);
  const doc = createDocumentClient({ region: e.region, endpoint: e.dynamoEndpoint });
  const rawScan = async (filter?: { expression: string; values: Record<string, unknown> }): Promise<Record<string, unknown>[]> => {
    const out: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const res = await doc.send(
        new ScanCommand({
          TableName: tableName,
          ConsistentRead: true,
          ExclusiveStartKey: start,
          ...(filter ? { FilterExpression: filter.expression, ExpressionAttributeValues: filter.values } : {}),
        }),
      );
      out.push(...(res.Items ?? []));
      start = res.LastEvaluatedKey;
    } while (start);
    return out;
  };
  const scan = async (filter?: { expression: string; values: Record<string, unknown> }): Promise<string[]> =>
    (await rawScan(filter)).map((item) => JSON.stringify(item, Object.keys(item).sort())).sort();
  return {
    tableName,
    runtime: (options = {}) =>
      createRuntime(
        { tableName, region: e.region, dynamoDbEndpoint: e.dynamoEndpoint, cluster: 'api', logLevel: 'error' },
        { ddb: doc, clock: options.clock ?? new ManualClock(), ids: randomIds, logger: options.logger ?? silentLogger },
      ),
    snapshot: (projectId) => scan({ expression: 'begins_with(PK, :p) OR projectId = :id', values: { ':p': `P#${projectId}`, ':id': projectId } }),
    scanAll: () => scan(),
    items: () => rawScan(),
    load: async (items) => {
      const chunks: Record<string, unknown>[][] = [];
      for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25));
      await Promise.all(
        chunks.map(async (chunk) => {
          let pending: { PutRequest: { Item: Record<string, unknown> } }[] = chunk.map((Item) => ({ PutRequest: { Item } }));
          while (pending.length > 0) {
            const res = await doc.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
            pending = (res.UnprocessedItems?.[tableName] ?? []) as typeof pending;
          }
        }),
      );
    },
    drop: async () => {
      await client.send(new DeleteTableCommand({ TableName: tableName })).catch(() => undefined);
      client.destroy();
    },
  };
}

/** A logger that keeps every line (all levels), to look for secrets in what would reach CloudWatch. */
export function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const write = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines.push(JSON.stringify({ level, message, ...fields }));
  };
  return { lines, logger: { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') } };
}

export interface RouteCall {
  params?: Record<string, string>;
  query?: string;
  json?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
  /** Touches the event as API Gateway never would (raw header-name case). */
  mutate?: (event: APIGatewayProxyEventV2) => void;
}

/** Calls any row of the route table on one runtime, building (once) its handler from its module. */
export function routeClient(runtime: Runtime, extras: HandlerExtras = defaultExtras()) {
  const handlers = new Map<string, Promise<ApiHandler>>();
  const handlerOf = (route: RouteDef): Promise<ApiHandler> => {
    const key = `${route.operationId}:${route.cluster}`;
    let h = handlers.get(key);
    if (!h) {
      h = loadRoute(route).then((mod) => handlerFor(route, mod, runtime, extras));
      handlers.set(key, h);
    }
    return h;
  };
  return async (route: RouteDef, options: RouteCall = {}): Promise<RawReply> => {
    const headers = { ...options.headers };
    let body: string | undefined;
    if (options.form) {
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    } else if (options.json !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(options.json);
    }
    const params = options.params ?? {};
    return invokeRaw(
      await handlerOf(route),
      {
        method: route.method,
        path: fillPath(route.path, params),
        pathParameters: params,
        query: options.query ?? '',
        headers,
        ...(body !== undefined ? { body } : {}),
      },
      options.mutate,
    );
  };
}

export type RouteClient = ReturnType<typeof routeClient>;
