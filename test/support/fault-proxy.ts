import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * What the proxy does with one DynamoDB request:
 * - `pass`: forward it to the real engine and relay the reply;
 * - `throttle` / `provisioned` / `request-limit`: answer as DynamoDB does when it throttles
 *   (HTTP 400, `ThrottlingException` / `ProvisionedThroughputExceededException` / `RequestLimitExceeded`);
 * - `transaction-throttled`: a TransactionCanceledException whose reasons say `ThrottlingError`;
 * - `server-error`: HTTP 500 `InternalServerError`;
 * - `hang`: accept the request and never answer;
 * - `reset`: drop the connection without a reply;
 * - `lost-reply`: forward it (the engine applies it) and drop the connection instead of relaying
 *   the reply: a write that committed while its caller saw a network failure.
 */
export type FaultAction = 'pass' | 'throttle' | 'provisioned' | 'request-limit' | 'transaction-throttled' | 'server-error' | 'hang' | 'reset' | 'lost-reply';

/** The DynamoDB operation (X-Amz-Target without its prefix, e.g. `TransactWriteItems`) and the JSON request. */
export type FaultRule = (operation: string, body: string) => FaultAction;

export interface FaultProxy {
  /** Endpoint to give the SDK client instead of DynamoDB Local's. */
  url: string;
  /** Replaces the rule for the requests that follow. */
  setRule(rule: FaultRule): void;
  /** Requests answered with a fault, by action, and requests passed through. */
  readonly counts: Record<FaultAction, number>;
  /** Operations seen, in order, with what was done to each and the request's body (DynamoDB JSON). */
  readonly log: { operation: string; action: FaultAction; body: string }[];
  close(): Promise<void>;
}

const PREFIX = 'com.amazonaws.dynamodb.v20120810#';

function dynamoError(res: ServerResponse, status: number, type: string, message: string, extra: Record<string, unknown> = {}): void {
  res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': `fault-${Date.now()}` });
  res.end(JSON.stringify({ __type: `${PREFIX}${type}`, message, ...extra }));
}

/**
 * A small HTTP proxy in front of DynamoDB Local that answers chosen requests with DynamoDB's own
 * wire-format faults, so the SDK's retries and the API's error mapping are tested as they run in
 * AWS. Every rule decision is counted.
 */
export async function startFaultProxy(target: string, initialRule: FaultRule = () => 'pass'): Promise<FaultProxy> {
  let rule = initialRule;
  const counts: Record<FaultAction, number> = {
    pass: 0,
    throttle: 0,
    provisioned: 0,
    'request-limit': 0,
    'transaction-throttled': 0,
    'server-error': 0,
    hang: 0,
    reset: 0,
    'lost-reply': 0,
  };
  const log: { operation: string; action: FaultAction; body: string }[] = [];
  const sockets = new Set<Socket>();
  const upstream = new URL(target);

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, loseReply = false): void => {
    const out = httpRequest({ hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (reply) => {
      if (loseReply) {
        reply.resume();
        reply.on('end', () => req.socket.destroy());
        return;
      }
      res.writeHead(reply.statusCode ?? 500, reply.headers);
      reply.pipe(res);
    });
    out.on('error', () => res.destroy());
    out.end(body);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const target = String(req.headers['x-amz-target'] ?? '');
      const operation = target.slice(target.indexOf('.') + 1);
      const action = rule(operation, body.toString('utf8'));
      counts[action] += 1;
      log.push({ operation, action, body: body.toString('utf8') });
      switch (action) {
        case 'pass':
          return forward(req, res, body);
        case 'throttle':
          return dynamoError(res, 400, 'ThrottlingException', 'Rate of requests exceeds the allowed throughput.');
        case 'provisioned':
          return dynamoError(res, 400, 'ProvisionedThroughputExceededException', 'The level of configured provisioned throughput for the table was exceeded.');
        case 'request-limit':
          return dynamoError(res, 400, 'RequestLimitExceeded', 'Throughput exceeds the current throughput limit for your account.');
        case 'transaction-throttled': {
          const items = (JSON.parse(body.toString('utf8')) as { TransactItems?: unknown[] }).TransactItems ?? [];
          const reasons = items.map((_, i) =>
            i === 0
              ? { Code: 'ThrottlingError', Message: 'Throughput exceeds the current capacity for one or more global secondary indexes.' }
              : { Code: 'None' },
          );
          return dynamoError(
            res,
            400,
            'TransactionCanceledException',
            `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`,
            {
              CancellationReasons: reasons,
            },
          );
        }
        case 'server-error':
          return dynamoError(res, 500, 'InternalServerError', 'Internal server error');
        case 'hang':
          return undefined;
        case 'reset':
          return req.socket.destroy();
        case 'lost-reply':
          return forward(req, res, body, true);
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setRule: (next) => {
      rule = next;
    },
    counts,
    log,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A local port nothing listens on (bound, then released), for "DynamoDB unreachable". */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
