import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { randomIds } from '../../lib/ids.js';

export interface HttpRequestParts {
  method: string;
  /** Path without the query string, still percent-encoded. */
  rawPath: string;
  rawQueryString?: string;
  /** Header names in any case; repeated headers joined with commas, as API Gateway does. */
  headers?: Record<string, string>;
  body?: Buffer | string;
  sourceIp?: string;
  pathParameters?: Record<string, string>;
  routeKey?: string;
}

const isTextual = (contentType: string | undefined): boolean =>
  !contentType || /^(text\/|application\/(json|x-www-form-urlencoded|[\w.+-]*\+json))/i.test(contentType);

/**
 * Builds the API Gateway HTTP API (payload 2.0) event Lambda would receive for a request, so
 * the local server and tests call handlers exactly as AWS does. Like API Gateway, non-text
 * bodies arrive base64-encoded.
 */
export function toApiGatewayEvent(req: HttpRequestParts): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase()] = v;
  const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body, 'utf8');
  // Text that is not UTF-8 travels base64-encoded, bytes intact: decoding it here would hide the
  // bad bytes behind U+FFFD, and the handler refuses such a body (lib/http/request.ts).
  const textual = isTextual(headers['content-type']) && (body === undefined || isUtf8(body));
  const now = new Date();
  // API Gateway's id becomes the reply's request_id. This stand-in issues Voucherify-looking ids
  // (v- + 18 hex), not a real gateway's (e.g. JKJaXmPLoAMEScg=), so local replies keep that look.
  const requestId = randomIds.requestId();
  return {
    version: '2.0',
    routeKey: req.routeKey ?? '$default',
    rawPath: req.rawPath,
    rawQueryString: req.rawQueryString ?? '',
    headers,
    queryStringParameters: queryParams(req.rawQueryString ?? ''),
    pathParameters: req.pathParameters,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: req.method.toUpperCase(),
        path: req.rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: req.sourceIp ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey: req.routeKey ?? '$default',
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body: body === undefined || body.length === 0 ? undefined : textual ? body.toString('utf8') : body.toString('base64'),
    isBase64Encoded: body !== undefined && body.length > 0 && !textual,
  };
}

/** API Gateway joins repeated query parameters with commas in `queryStringParameters`. */
function queryParams(raw: string): Record<string, string> | undefined {
  if (!raw) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(raw)) out[k] = out[k] === undefined ? v : `${out[k]},${v}`;
  return out;
}

/** A Lambda context for one local invocation, with the function's time limit. */
export function lambdaContext(functionName: string, timeoutMs = 29_000): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
