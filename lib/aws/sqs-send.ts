import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import { http, https, sleep } from '../builtins.js';
import { Sha256 } from './sha256.js';

/**
 * SQS `SendMessage` over its JSON protocol, signed with SigV4: all that an API function enqueueing a job needs of SQS.
 * The SDK's SQS client cost each enqueueing handler about 24 KiB and 5 ms of cold start (its module evaluation;
 * docs/benchmarks.md "The SQS client in API handlers"), 2/3 of the 1.3 × budget, for this one call. Workers, which send
 * batches, keep the SDK client.
 */
export interface SqsSenderOptions {
  region: string;
  /** Where requests go (a local engine); otherwise the queue URL's own origin, as the SDK's `useQueueUrlAsEndpoint`. */
  endpoint?: string | undefined;
  credentials: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  /** Attempts per message, the first included: network errors, 5xx and throttling are tried again. */
  maxAttempts: number;
  /** Time one attempt may take, from connecting to the last byte of the reply. */
  attemptTimeoutMs?: number;
  /** Base of the full-jitter backoff between attempts (the SDK's standard retry uses 100 ms). */
  backoffBaseMs?: number;
}

/** SQS refused a message, or every attempt failed: `code` is SQS's error type (or `NetworkError`, `InvalidChecksum`). */
export class SqsSendError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly statusCode: number | undefined,
    readonly retryable: boolean,
  ) {
    super(`SQS SendMessage failed: ${code}: ${message}`);
    this.name = 'SqsSendError';
  }
}

interface RawReply {
  status: number;
  text: string;
}

const md5Hex = (text: string): string => createHash('md5').update(text, 'utf8').digest('hex');

/** Whether SQS's error type is one of its throttling errors, which the SDK tries again too. */
const isThrottling = (code: string): boolean => /Throttl|RequestThrottled|TooManyRequests/i.test(code);

/** The error a non-2xx reply carries: JSON `{ __type, message }`, the type possibly namespaced (`com.amazonaws...#Name`). */
function errorOf(reply: RawReply): SqsSendError {
  let type = `HTTP${reply.status}`;
  let message = reply.text.slice(0, 200);
  try {
    const body = JSON.parse(reply.text) as { __type?: unknown; message?: unknown; Message?: unknown };
    if (typeof body.__type === 'string') type = body.__type.slice(body.__type.lastIndexOf('#') + 1);
    const m = body.message ?? body.Message;
    if (typeof m === 'string') message = m;
  } catch {
    // Not JSON (a proxy's page): the status and the text's start say enough.
  }
  return new SqsSendError(type, message, reply.status, reply.status >= 500 || reply.status === 429 || isThrottling(type));
}

/** Sends one signed request and reads the reply whole; a network failure or timeout rejects. */
function exchange(url: URL, headers: Record<string, string>, body: string, timeoutMs: number, agents: Agents): Promise<RawReply> {
  const secure = url.protocol === 'https:';
  const transport = secure ? https() : http();
  return new Promise((resolve, reject) => {
    const req = transport.request(
      {
        method: 'POST',
        protocol: url.protocol,
        hostname: url.hostname,
        ...(url.port ? { port: Number(url.port) } : {}),
        path: '/',
        headers,
        agent: secure ? agents.https() : agents.http(),
        timeout: timeoutMs,
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no reply within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

interface Agents {
  https: () => import('node:https').Agent;
  http: () => import('node:http').Agent;
}

/** A sender of messages to SQS queues; resolves to the message's id once SQS has it (MD5 of the body checked). */
export function createSqsSender(options: SqsSenderOptions): (queueUrl: string, body: string) => Promise<string> {
  const signer = new SignatureV4({ service: 'sqs', region: options.region, credentials: options.credentials, sha256: Sha256 });
  const timeoutMs = options.attemptTimeoutMs ?? 3000;
  const backoffBaseMs = options.backoffBaseMs ?? 100;
  // Kept alive across invocations of a warm function, as the SDK's handler does.
  let httpsAgent: import('node:https').Agent | undefined;
  let httpAgent: import('node:http').Agent | undefined;
  const agents: Agents = {
    https: () => (httpsAgent ??= new (https().Agent)({ keepAlive: true })),
    http: () => (httpAgent ??= new (http().Agent)({ keepAlive: true })),
  };

  const attempt = async (queueUrl: string, body: string): Promise<string> => {
    const url = new URL(options.endpoint ?? new URL(queueUrl).origin);
    const payload = JSON.stringify({ QueueUrl: queueUrl, MessageBody: body });
    const signed = await signer.sign({
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port ? { port: Number(url.port) } : {}),
      path: '/',
      query: {},
      headers: {
        host: url.host,
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'AmazonSQS.SendMessage',
        'content-length': String(Buffer.byteLength(payload)),
      },
      body: payload,
    });
    let reply: RawReply;
    try {
      reply = await exchange(url, signed.headers, payload, timeoutMs, agents);
    } catch (err) {
      throw new SqsSendError('NetworkError', err instanceof Error ? err.message : String(err), undefined, true);
    }
    if (reply.status < 200 || reply.status >= 300) throw errorOf(reply);
    let sent: { MessageId?: unknown; MD5OfMessageBody?: unknown };
    try {
      sent = JSON.parse(reply.text) as typeof sent;
    } catch {
      // A 2xx that is not SQS's JSON (a proxy's page): whether the message was taken is unknown, so it is not sent again.
      throw new SqsSendError('InvalidReply', `a ${reply.status} reply that is not JSON: ${reply.text.slice(0, 200)}`, reply.status, false);
    }
    // What the SDK's SQS middleware checks: SQS received the body that was sent.
    if (sent.MD5OfMessageBody !== md5Hex(body)) {
      throw new SqsSendError('InvalidChecksum', `MD5 of the message body does not match (SQS says ${String(sent.MD5OfMessageBody)})`, reply.status, false);
    }
    return String(sent.MessageId ?? '');
  };

  return async (queueUrl, body) => {
    for (let n = 1; ; n += 1) {
      try {
        return await attempt(queueUrl, body);
      } catch (err) {
        if (!(err instanceof SqsSendError) || !err.retryable || n >= options.maxAttempts) throw err;
        await sleep(Math.random() * Math.min(20_000, backoffBaseMs * 2 ** (n - 1)));
      }
    }
  };
}
