import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import type { APIGatewayProxyResultV2 } from 'aws-lambda';
import { BadRequestError, PayloadTooLargeError, RequestTimeoutError } from '../../lib/errors.js';
import type { ApiHandler } from '../../lib/http/endpoint.js';
import { errorReply } from '../../lib/http/error-responder.js';
import type { HttpReply } from '../../lib/http/reply.js';
import { MAX_BODY_BYTES } from '../../lib/http/request.js';
import type { RouteDef } from '../../lib/api/route.js';
import { findRoute } from '../../lib/http/route-match.js';
import { randomIds } from '../../lib/ids.js';
import type { Logger } from '../../lib/logger.js';
import { lambdaContext, toApiGatewayEvent } from './api-gateway-event.js';

/** Imports a route's handler module (relative to the repository root) and returns its `handler` export. */
export type HandlerLoader = (route: RouteDef) => Promise<ApiHandler>;

export interface LocalHttpServerOptions {
  /** The routes this server serves (one cluster's); anything else goes to `fallback`. */
  routes: readonly RouteDef[];
  fallback: RouteDef;
  port: number;
  /** The setting the port came from (PORT, DOWNLOAD_PORT): a port in use is reported by it. */
  portVariable?: string;
  host: string;
  /** For lines the server writes itself (replies no handler made); handlers log their own. */
  logger: Pick<Logger, 'info' | 'error'>;
  loadHandler: HandlerLoader;
  /** Largest accepted body; defaults to the handlers' own limit. */
  maxBodyBytes?: number;
  /** Time for the whole request (headers and body) to arrive; default REQUEST_TIMEOUT_MS. */
  requestTimeoutMs?: number;
}

/**
 * A request that has not fully arrived after API Gateway's integration limit (29 s) is answered
 * 408 and its connection closed, instead of being held for Node's default five minutes.
 */
export const REQUEST_TIMEOUT_MS = 29_000;
/** The headers alone get less (Node's default is 60 s): a client that has not sent them in 10 s is not sending a request. */
export const HEADERS_TIMEOUT_MS = 10_000;

export interface LocalHttpServer {
  port: number;
  /** The limits Node's server applies (read back from it), in ms. */
  timeouts: { headers: number; request: number };
  /** Stops accepting, lets requests in flight finish (cut after 5 s), and resolves once closed. */
  close(): Promise<void>;
}

/** Imports handler modules as Lambda would: each route's file, its `handler` export, once. */
export function moduleHandlerLoader(repoRoot: string): HandlerLoader {
  const cache = new Map<string, Promise<ApiHandler>>();
  return (route) => {
    let loaded = cache.get(route.handler);
    if (!loaded) {
      loaded = import(pathToFileURL(join(repoRoot, route.handler)).href).then((mod: Record<string, unknown>) => {
        if (typeof mod.handler !== 'function') throw new Error(`${route.handler} has no handler export`);
        return mod.handler as ApiHandler;
      });
      cache.set(route.handler, loaded);
    }
    return loaded;
  };
}

class BodyTooLargeError extends Error {
  constructor(readonly read: number) {
    super('body too large');
  }
}

/** The most of a refused upload read and thrown away before its connection is cut: API Gateway's own payload limit. */
const MAX_DRAINED_BYTES = 10 * 1024 * 1024;

/** Collects the body, giving up (without reading further) as soon as it passes `limit`. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.pause();
        reject(new BodyTooLargeError(size));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
    req.once('aborted', () => reject(new Error('request aborted')));
  });
}

/** Headers as API Gateway passes them: one string per name, repeated values joined by commas. */
function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, values] of Object.entries(req.headersDistinct)) if (values) out[name] = values.join(',');
  return out;
}

function sourceIpOf(req: IncomingMessage): string {
  const ip = req.socket.remoteAddress ?? '127.0.0.1';
  return ip.startsWith('::ffff:') ? ip.slice('::ffff:'.length) : ip;
}

function splitTarget(target: string): { rawPath: string; rawQueryString: string } {
  let pathAndQuery = target;
  // An absolute-form target (proxies send these) carries scheme and host first.
  if (/^https?:\/\//i.test(target)) {
    const url = new URL(target);
    pathAndQuery = `${url.pathname}${url.search}`;
  }
  const q = pathAndQuery.indexOf('?');
  return q < 0 ? { rawPath: pathAndQuery || '/', rawQueryString: '' } : { rawPath: pathAndQuery.slice(0, q) || '/', rawQueryString: pathAndQuery.slice(q + 1) };
}

/** Writes a Lambda proxy result the way API Gateway (payload 2.0) turns it into an HTTP reply. */
function writeResult(res: ServerResponse, result: APIGatewayProxyResultV2): void {
  if (typeof result !== 'object' || result === null || result.statusCode === undefined) {
    // API Gateway's rule for a result that is not a proxy object: 200 with the value as JSON.
    const body = typeof result === 'string' ? result : JSON.stringify(result);
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(body);
    return;
  }
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  if (result.cookies && result.cookies.length > 0) headers['Set-Cookie'] = result.cookies;
  const body = result.body === undefined ? undefined : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  res.writeHead(result.statusCode, headers);
  res.end(body);
}

function writeReply(res: ServerResponse, reply: HttpReply, requestId: string, close: boolean): void {
  const body = JSON.stringify(reply.body);
  res.writeHead(reply.statusCode, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    'X-Request-Id': requestId,
    ...(close ? { Connection: 'close' } : {}),
    ...reply.headers,
  });
  res.end(body);
}

/**
 * The local API Gateway: turns each HTTP request into the HTTP API (payload 2.0) event, picks
 * the route like API Gateway (path parameters, route key; unmatched requests go to the
 * fallback route, as to `$default`), and calls the route's Lambda handler module. Handlers log
 * their own request line; this server logs only the replies it makes itself (body too large,
 * a handler that failed outside its envelope, a malformed request), and never headers, query
 * strings or bodies. Every reply it makes is the spec's error object.
 */
export async function startHttpServer(options: LocalHttpServerOptions): Promise<LocalHttpServer> {
  const { routes, fallback, logger, loadHandler } = options;
  const maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  // Node refuses a headers limit above the whole request's.
  const headersTimeout = Math.min(HEADERS_TIMEOUT_MS, requestTimeout);
  /** The request each connection is receiving or answering, so a timeout can be answered on it. */
  const inFlight = new WeakMap<Socket, { req: IncomingMessage; res: ServerResponse; startedAt: number }>();

  const answerItself = (req: IncomingMessage, res: ServerResponse, error: unknown, startedAt: number, close = false): void => {
    const requestId = randomIds.requestId();
    const reply = errorReply(error, requestId, logger);
    const { rawPath } = splitTarget(req.url ?? '/');
    if (!res.headersSent) writeReply(res, reply, requestId, close);
    else res.destroy();
    logger.info('request', {
      method: req.method,
      path: rawPath,
      status: reply.statusCode,
      ms: Date.now() - startedAt,
      request_id: requestId,
    });
  };

  /** Answers a request whose body is still arriving (too large, too slow), then drops its connection. */
  const refuseUpload = (req: IncomingMessage, res: ServerResponse, error: unknown, startedAt: number): void => {
    answerItself(req, res, error, startedAt, true);
    res.once('finish', () => {
      // Give the client a moment to read the reply before the unread upload is cut off.
      setTimeout(() => req.socket.destroy(), 200).unref();
    });
  };
  /**
   * A body over the limit: the 413 goes out at once; an upload API Gateway would have carried (≤ 10 MiB in all) is
   * then read and thrown away, so the connection ends cleanly once the client has sent it. Closing a socket with
   * unread bytes makes the kernel send a reset, which a client still uploading sees instead of the 413 (issue 41
   * item 8). A larger upload, declared or streamed, is cut off as before.
   */
  const refuseBody = (req: IncomingMessage, res: ServerResponse, startedAt: number, read: number): void => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_DRAINED_BYTES || read > MAX_DRAINED_BYTES) {
      refuseUpload(req, res, new PayloadTooLargeError(maxBodyBytes), startedAt);
      return;
    }
    let drained = read;
    req.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > MAX_DRAINED_BYTES) req.socket.destroy();
    });
    req.resume();
    answerItself(req, res, new PayloadTooLargeError(maxBodyBytes), startedAt, false);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const startedAt = Date.now();
    const socket = req.socket;
    inFlight.set(socket, { req, res, startedAt });
    res.once('close', () => {
      if (inFlight.get(socket)?.res === res) inFlight.delete(socket);
    });
    try {
      const declared = Number(req.headers['content-length'] ?? 0);
      if (declared > maxBodyBytes) return refuseBody(req, res, startedAt, 0);
      let body: Buffer;
      try {
        body = await readBody(req, maxBodyBytes);
      } catch (error) {
        if (error instanceof BodyTooLargeError) return refuseBody(req, res, startedAt, error.read);
        res.destroy();
        return;
      }
      const method = (req.method ?? 'GET').toUpperCase();
      const { rawPath, rawQueryString } = splitTarget(req.url ?? '/');
      const found = findRoute(routes, method, rawPath);
      const route = 'match' in found ? found.match.route : fallback;
      const params = 'match' in found ? found.match.params : {};
      const event = toApiGatewayEvent({
        method,
        rawPath,
        rawQueryString,
        headers: headersOf(req),
        body,
        sourceIp: sourceIpOf(req),
        ...(Object.keys(params).length > 0 ? { pathParameters: params } : {}),
        routeKey: route === fallback ? '$default' : `${route.method} ${route.path}`,
      });
      const handler = await loadHandler(route);
      const result = await handler(event, lambdaContext(route.operationId));
      writeResult(res, result);
    } catch (error) {
      answerItself(req, res, error, startedAt);
    }
  };

  const server: Server = createServer(
    {
      requireHostHeader: false,
      requestTimeout,
      headersTimeout,
      // Node looks for expired requests on this interval (30 s by default), so a limit is kept only to within it.
      connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(requestTimeout / 10))),
    },
    (req, res) => void handle(req, res),
  );
  // Answer `Expect: 100-continue` ourselves, so an oversized upload is refused before it is sent.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    // The client waits for our word before sending the body: nothing to drain, so the connection can be closed.
    if (Number(req.headers['content-length'] ?? 0) > maxBodyBytes) return refuseUpload(req, res, new PayloadTooLargeError(maxBodyBytes), Date.now());
    res.writeContinue();
    void handle(req, res);
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    const current = inFlight.get(socket);
    if (current) {
      // The headers arrived and the handler waits for the body: answer through its response, which logs method and path.
      const refusal = timedOut
        ? new RequestTimeoutError('request', requestTimeout)
        : new BadRequestError('bad_request', 'Bad request', 'Malformed HTTP request');
      if (current.res.headersSent) socket.destroy();
      else refuseUpload(current.req, current.res, refusal, current.startedAt);
      return;
    }
    const requestId = randomIds.requestId();
    // With no request in flight the headers are incomplete, and their limit (never above the whole request's) is the one that ran out.
    const refusal = timedOut ? new RequestTimeoutError('headers', headersTimeout) : new BadRequestError('bad_request', 'Bad request', 'Malformed HTTP request');
    const reply = errorReply(refusal, requestId, logger);
    const body = JSON.stringify(reply.body);
    socket.end(
      `HTTP/1.1 ${reply.statusCode} ${timedOut ? 'Request Timeout' : 'Bad Request'}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
    // Half-open sockets stay readable after end(): a client that keeps trickling must not keep the connection.
    if (timedOut) socket.once('finish', () => setTimeout(() => socket.destroy(), 200).unref());
    logger.info('request', { status: reply.statusCode, request_id: requestId, error: error.code ?? 'malformed' });
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(
              options.portVariable
                ? `Port ${options.port} is already in use: set ${options.portVariable} to a free port (0 = any free port)`
                : `Port ${options.port} is already in use; choose another one`,
            )
          : error,
      );
    };
    server.once('error', onError);
    server.listen(options.port, options.host, () => {
      server.off('error', onError);
      resolve();
    });
  });

  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    port,
    timeouts: { headers: server.headersTimeout, request: server.requestTimeout },
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        const cut = setTimeout(() => server.closeAllConnections(), 5000);
        cut.unref();
        server.close(() => {
          clearTimeout(cut);
          resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
