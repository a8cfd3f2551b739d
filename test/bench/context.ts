import { performance } from 'node:perf_hooks';
import { BatchGetCommand, BatchWriteCommand, GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { lambdaContext, toApiGatewayEvent } from '../../infra/local/api-gateway-event.js';
import type { Engines } from '../../infra/local/engines.js';
import { createProject, type IssuedKeyPair } from '../../lib/app-keys/app-key.service.js';
import { createDocumentClient } from '../../lib/db/client.js';
import type { ApiHandler } from '../../lib/http/endpoint.js';
import type { RouteDef } from '../../lib/api/route.js';
import type { TransactItem } from '../../lib/db/transact.js';
import { matchPath } from '../../lib/http/route-match.js';
import { silentLogger } from '../../lib/logger.js';
import { createRuntime, type Runtime } from '../../lib/runtime.js';
import type { BenchOptions } from './stats.js';
import { watchCalls } from '../support/read-rounds.js';

export interface BenchContext {
  engines: Engines;
  options: BenchOptions;
  /** Progress lines go to stderr, so stdout holds only the table. */
  progress(message: string): void;
}

/** A runtime on the bench's engines with its own DynamoDB client, as one Lambda container has. */
export function benchRuntime(engines: Engines): Runtime {
  return createRuntime(
    { tableName: engines.tableName, region: engines.region, dynamoDbEndpoint: engines.dynamoEndpoint, cluster: 'api', logLevel: 'error' },
    { ddb: createDocumentClient({ region: engines.region, endpoint: engines.dynamoEndpoint }), logger: silentLogger },
  );
}

export const newBenchProject = (runtime: Runtime, name: string): Promise<IssuedKeyPair> => createProject(runtime, name);

export const keyPairHeaders = (pair: IssuedKeyPair): Record<string, string> => ({ 'x-app-id': pair.app_id, 'x-app-token': pair.app_token });

export interface BenchRequest {
  path: string;
  query?: string;
  headers?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
}

export interface BenchReply {
  status: number;
  json: Record<string, unknown>;
}

/** What Lambda hands a handler: the API Gateway event of the request on its route, and a context. */
export interface Invocation {
  event: ReturnType<typeof toApiGatewayEvent>;
  context: ReturnType<typeof lambdaContext>;
}

/** The API Gateway event (and Lambda context) of `request` on `route`: API Gateway's work, not the handler's. */
export function invocationOf(route: RouteDef, request: BenchRequest): Invocation {
  const params = matchPath(route.path, request.path);
  if (!params) throw new Error(`${request.path} does not match ${route.path}`);
  const headers = { ...request.headers };
  let body: string | undefined;
  if (request.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(request.form).toString();
  } else if (request.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.json);
  }
  const event = toApiGatewayEvent({
    method: route.method,
    rawPath: request.path,
    rawQueryString: request.query ?? '',
    headers,
    pathParameters: params,
    routeKey: `${route.method} ${route.path}`,
    ...(body !== undefined ? { body } : {}),
  });
  return { event, context: lambdaContext('bench') };
}

/**
 * Invokes a handler as Lambda would, with an invocation built by invocationOf (no reply-contract
 * checks or other test wrappers: only what runs in AWS is timed), and returns its reply as API
 * Gateway gets it: the status and the body text, not parsed (parsing is the client's work).
 */
export async function invokePrepared(handler: ApiHandler, invocation: Invocation): Promise<{ status: number; body: string }> {
  const result = await handler(invocation.event, invocation.context);
  return { status: result.statusCode ?? 200, body: result.body ?? '' };
}

/** invokePrepared of the request's invocation, built here. */
export async function invokeRaw(handler: ApiHandler, route: RouteDef, request: BenchRequest): Promise<{ status: number; body: string }> {
  return invokePrepared(handler, invocationOf(route, request));
}

/** invokeRaw, with the body parsed. */
export async function invoke(handler: ApiHandler, route: RouteDef, request: BenchRequest): Promise<BenchReply> {
  const { status, body } = await invokeRaw(handler, route, request);
  return { status, json: (body ? JSON.parse(body) : {}) as Record<string, unknown> };
}

/** Like invoke, but a reply other than `status` is an error naming the route and the reply. */
export async function invokeOk(handler: ApiHandler, route: RouteDef, request: BenchRequest, status = 200): Promise<Record<string, unknown>> {
  const reply = await invoke(handler, route, request);
  if (reply.status !== status) throw new Error(`${route.method} ${request.path} answered ${reply.status}: ${JSON.stringify(reply.json)}`);
  return reply.json;
}

export async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const value = await fn();
  return [performance.now() - started, value];
}

export interface SentCommand {
  name: string;
  input: Record<string, unknown>;
  /** Items the reply carried (Item, Items, BatchGet responses). */
  itemsRead: number;
  /** The sequential round it was sent in (test/support/read-rounds.ts): calls of one round went out side by side. */
  round: number;
}

/** Records every DynamoDB command a runtime sends and is answered (and how many items came back), for call counts. */
export function recordCommands(runtime: Runtime): { sent: SentCommand[]; reset(): void } {
  const sent: SentCommand[] = [];
  watchCalls(runtime, ({ name, input, output, round }) => {
    if (!output) return;
    const responses = (output.Responses ?? {}) as Record<string, unknown[]>;
    const itemsRead =
      (output.Item ? 1 : 0) +
      (Array.isArray(output.Items) ? output.Items.length : 0) +
      (Array.isArray(output.Responses) ? 0 : Object.values(responses).reduce((n, list) => n + (Array.isArray(list) ? list.length : 0), 0));
    sent.push({ name, input, itemsRead, round });
  });
  return { sent, reset: () => void sent.splice(0) };
}

/** Writes items with BatchWriteItem, 25 at a time on `lanes` parallel lanes, retrying unprocessed items. */
export async function batchPut(runtime: Runtime, items: readonly Record<string, unknown>[], lanes = 8): Promise<void> {
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < batches.length) {
      const batch = batches[next++] ?? [];
      let pending: Record<string, unknown>[] = batch.map((Item) => ({ PutRequest: { Item } }));
      while (pending.length > 0) {
        const res = await runtime.ddb.send(new BatchWriteCommand({ RequestItems: { [runtime.tableName]: pending as never } }));
        pending = (res.UnprocessedItems?.[runtime.tableName] ?? []) as Record<string, unknown>[];
      }
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
}

/**
 * Times `subject` and `floor` alternately (`runs` pairs after `warmup` pairs), swapping which goes
 * first on every pair, so drift and noise from other processes fall on both sides alike.
 */
export async function interleaved(
  runs: number,
  warmup: number,
  subject: (i: number) => Promise<unknown>,
  floor: (i: number) => Promise<unknown>,
): Promise<{ subject: number[]; floor: number[] }> {
  const out = { subject: [] as number[], floor: [] as number[] };
  for (let i = 0; i < warmup + runs; i += 1) {
    const order: Array<['subject' | 'floor', (i: number) => Promise<unknown>]> =
      i % 2 === 0
        ? [
            ['subject', subject],
            ['floor', floor],
          ]
        : [
            ['floor', floor],
            ['subject', subject],
          ];
    for (const [side, fn] of order) {
      const [t] = await timed(() => fn(i));
      if (i >= warmup) out[side].push(t);
    }
  }
  return out;
}

/**
 * A floor made of calls a handler sent (recordCommands), sent again raw: round after round, each
 * round's calls side by side, as the handler sent them. Reads go as recorded; a transaction goes
 * through `transaction` (a copy that can be written again: fresh keys for new items, a twin for
 * an optimistically locked one). Refuses any other kind of call, so a new kind of work in the
 * handler shows up as an error here, not as a floor that grew with it.
 */
export function replayOf(
  runtime: Runtime,
  sent: readonly SentCommand[],
  transaction: (items: TransactItem[], run: number) => TransactItem[] = () => {
    throw new Error('this floor replays no transaction');
  },
): () => Promise<void> {
  const { ddb } = runtime;
  const rounds = [...new Set(sent.map((c) => c.round))].sort((a, b) => a - b).map((r) => sent.filter((c) => c.round === r));
  let run = 0;
  const commandOf = (c: SentCommand) => {
    if (c.name === 'Get') return new GetCommand(c.input as never);
    if (c.name === 'Query') return new QueryCommand(c.input as never);
    if (c.name === 'BatchGet') return new BatchGetCommand(c.input as never);
    if (c.name === 'TransactWrite')
      return new TransactWriteCommand({
        ...(c.input as Record<string, unknown>),
        TransactItems: transaction(c.input.TransactItems as TransactItem[], run) as never,
      });
    throw new Error(`the floor cannot replay a ${c.name}`);
  };
  const other = sent.find((c) => !['Get', 'Query', 'BatchGet', 'TransactWrite'].includes(c.name));
  if (other) throw new Error(`the floor cannot replay a ${other.name}`);
  return async () => {
    run += 1;
    for (const round of rounds) await Promise.all(round.map((c) => ddb.send(commandOf(c) as never)));
  };
}
