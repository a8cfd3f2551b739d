import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { lambdaContext, toApiGatewayEvent, type HttpRequestParts } from '../../infra/local/api-gateway-event.js';
import type { ApiHandler } from '../../lib/http/endpoint.js';
import { multipartBody } from '../../lib/http/multipart.js';
import type { RouteDef } from '../../lib/api/route.js';
import { assertReplyMatchesContract, assertReplyMatchesSomeRoute } from './reply-contract.js';

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** Parsed body as a plain record, for property assertions. */
  json: Record<string, unknown>;
  /** The body as sent ('' when none): a CSV download is not JSON. */
  text: string;
}

/** Whether a reply's Content-Type says JSON (an export download is CSV). */
export const isJsonReply = (headers: Record<string, string | undefined>): boolean =>
  !/^text\//i.test(Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '');

export interface CallOptions {
  method?: string;
  path: string;
  query?: string;
  headers?: Record<string, string>;
  form?: Record<string, string>;
  /** A multipart/form-data body: each entry a part; `file` goes as a CSV file, as curl -F file=@x.csv sends it. */
  multipart?: Record<string, string>;
  json?: unknown;
  body?: string;
  sourceIp?: string;
  pathParameters?: Record<string, string>;
  /**
   * The route whose documented responses the reply must match (docs/openapi.json). Default: the
   * route(s) of the method and path. `false` only for test-only routes that are not in the table.
   */
  contract?: RouteDef | false;
}

/** Invokes a handler with the API Gateway event of the described request. */
export async function call(handler: ApiHandler, options: CallOptions): Promise<Reply> {
  const headers = { ...options.headers };
  let body: string | Buffer | undefined = options.body;
  if (options.multipart) {
    const boundary = '----vitest-boundary-7f3a';
    headers['content-type'] ??= `multipart/form-data; boundary=${boundary}`;
    body = multipartBody(
      boundary,
      Object.entries(options.multipart).map(([name, data]) =>
        name === 'file' ? { name, filename: 'import.csv', contentType: 'text/csv', data } : { name, data },
      ),
    );
  } else if (options.form) {
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(options.json);
  }
  const parts: HttpRequestParts = {
    method: options.method ?? 'POST',
    rawPath: options.path,
    rawQueryString: options.query ?? '',
    headers,
    ...(body !== undefined ? { body } : {}),
    ...(options.sourceIp ? { sourceIp: options.sourceIp } : {}),
    ...(options.pathParameters ? { pathParameters: options.pathParameters } : {}),
  };
  const result: APIGatewayProxyStructuredResultV2 = await handler(toApiGatewayEvent(parts), lambdaContext('test'));
  const contractReply = { status: result.statusCode ?? 200, headers: (result.headers ?? {}) as Record<string, string>, body: result.body };
  if (options.contract) assertReplyMatchesContract(options.contract, contractReply);
  else if (options.contract === undefined) assertReplyMatchesSomeRoute(parts.method, options.path, contractReply);
  const replyHeaders = (result.headers ?? {}) as Record<string, string>;
  const parsed: unknown = result.body && isJsonReply(replyHeaders) ? JSON.parse(result.body) : undefined;
  return {
    status: result.statusCode ?? 200,
    headers: replyHeaders,
    body: parsed ?? result.body,
    json: (parsed ?? {}) as Record<string, unknown>,
    text: result.body ?? '',
  };
}
