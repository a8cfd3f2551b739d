import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { SignatureV4 } from '@smithy/signature-v4';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSqsSender, SqsSendError } from '../../../lib/aws/sqs-send.js';
import { Sha256 } from '../../../lib/aws/sha256.js';
import { createQueueWithDlq, deleteQueues } from '../../support/queues.js';
import { engines } from '../../support/runtime.js';

/**
 * The hand-made SQS SendMessage of the API functions (lib/aws/sqs-send.ts): against the local SQS engine, and against
 * a loopback server that answers what SQS answers when it fails (throttling, 5xx, a refusal, a wrong checksum).
 */

const CREDENTIALS = { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret-test', sessionToken: 'token-test' };
const md5 = (text: string) => createHash('md5').update(text).digest('hex');

interface Seen {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A loopback "SQS" answering each request with the next of `replies` (the last one repeats). */
async function fakeSqs(replies: ((seen: Seen) => { status: number; body: string } | 'hang-up')[]): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(s);
      const reply = (replies[seen.length - 1] ?? replies[replies.length - 1])?.(s) ?? { status: 500, body: '{}' };
      if (reply === 'hang-up') {
        req.socket.destroy();
        return;
      }
      res.writeHead(reply.status, { 'content-type': 'application/x-amz-json-1.0' }).end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

const ok = (seen: Seen) => {
  const { MessageBody } = JSON.parse(seen.body) as { MessageBody: string };
  return { status: 200, body: JSON.stringify({ MessageId: 'm-1', MD5OfMessageBody: md5(MessageBody) }) };
};
const error = (status: number, type: string) => () => ({ status, body: JSON.stringify({ __type: `com.amazonaws.sqs#${type}`, message: `${type} says no` }) });

const servers: Server[] = [];
const queueUrls: string[] = [];
let sqs: SQSClient | undefined;
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});
afterAll(async () => {
  if (sqs) await deleteQueues(sqs, queueUrls);
  sqs?.destroy();
});

const sender = (endpoint: string, maxAttempts = 4) =>
  createSqsSender({ region: 'eu-central-1', endpoint, credentials: CREDENTIALS, maxAttempts, backoffBaseMs: 1, attemptTimeoutMs: 500 });

describe('SQS SendMessage without the SDK client', () => {
  it('puts the message on a queue of the local SQS engine, body unchanged', async () => {
    const e = engines();
    sqs = new SQSClient({ region: e.region, endpoint: e.sqsEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    const queue = await createQueueWithDlq(sqs, `sqs-send-${randomUUID().slice(0, 8)}`, { visibilityTimeoutSeconds: 30 });
    queueUrls.push(queue.url, queue.dlqUrl);
    const body = JSON.stringify({ type: 'generate-vouchers', projectId: 'p_send', note: 'ünïcødé 🎟' });
    const send = createSqsSender({
      region: e.region,
      endpoint: e.sqsEndpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      maxAttempts: 1,
    });
    expect(await send(queue.url, body)).toMatch(/\S/);
    const got = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queue.url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
    expect((got.Messages ?? []).map((m) => m.Body)).toEqual([body]);
  });

  it('sends a SigV4 request that the signer itself verifies: service sqs, the JSON target, the session token', async () => {
    const fake = await fakeSqs([ok]);
    await sender(fake.url)('https://sqs.eu-central-1.amazonaws.com/000000000000/q', '{"a":1}');
    const [request] = fake.seen;
    expect(request?.headers['x-amz-target']).toBe('AmazonSQS.SendMessage');
    expect(request?.headers['content-type']).toBe('application/x-amz-json-1.0');
    expect(request?.headers['x-amz-security-token']).toBe('token-test');
    expect(JSON.parse(request?.body ?? '')).toEqual({ QueueUrl: 'https://sqs.eu-central-1.amazonaws.com/000000000000/q', MessageBody: '{"a":1}' });
    const url = new URL(fake.url);
    const signedHeaders = /SignedHeaders=([^,]+)/.exec(String(request?.headers.authorization))?.[1]?.split(';') ?? [];
    expect(signedHeaders).toEqual(expect.arrayContaining(['host', 'content-type', 'x-amz-target', 'x-amz-date']));
    const amzDate = String(request?.headers['x-amz-date']);
    const signingDate = new Date(
      `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
    );
    const again = await new SignatureV4({ service: 'sqs', region: 'eu-central-1', credentials: CREDENTIALS, sha256: Sha256 }).sign(
      {
        method: 'POST',
        protocol: 'http:',
        hostname: url.hostname,
        port: Number(url.port),
        path: '/',
        query: {},
        // Exactly the headers the request signed, as the server received them (the signer adds date, token and hash).
        headers: Object.fromEntries(
          signedHeaders.filter((h) => !['x-amz-date', 'x-amz-security-token', 'x-amz-content-sha256'].includes(h)).map((h) => [h, String(request?.headers[h])]),
        ),
        body: request?.body,
      },
      { signingDate },
    );
    expect(request?.headers.authorization).toBe(again.headers.authorization);
    expect(request?.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/eu-central-1\/sqs\/aws4_request, SignedHeaders=.*x-amz-target/,
    );
  });

  it('tries again after throttling, a 5xx and a dropped connection, and succeeds on the fourth attempt', async () => {
    const fake = await fakeSqs([error(400, 'RequestThrottled'), error(503, 'ServiceUnavailable'), () => 'hang-up', ok]);
    expect(await sender(fake.url)(`${fake.url}/000000000000/q`, 'job')).toBe('m-1');
    expect(fake.seen).toHaveLength(4);
  });

  it('gives up after maxAttempts, with the last error', async () => {
    const fake = await fakeSqs([error(500, 'InternalError')]);
    const failure = await sender(fake.url, 3)(`${fake.url}/000000000000/q`, 'job').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SqsSendError);
    expect(failure).toMatchObject({ code: 'InternalError', statusCode: 500 });
    expect(fake.seen).toHaveLength(3);
  });

  it('does not try again when SQS refuses the message (a 4xx that is not throttling)', async () => {
    const fake = await fakeSqs([error(400, 'QueueDoesNotExist'), ok]);
    await expect(sender(fake.url)(`${fake.url}/000000000000/q`, 'job')).rejects.toMatchObject({ code: 'QueueDoesNotExist', retryable: false });
    expect(fake.seen).toHaveLength(1);
  });

  it('fails when the MD5 SQS returns is not the body sent (what the SDK middleware checks)', async () => {
    const fake = await fakeSqs([() => ({ status: 200, body: JSON.stringify({ MessageId: 'm-2', MD5OfMessageBody: md5('something else') }) })]);
    await expect(sender(fake.url)(`${fake.url}/000000000000/q`, 'job')).rejects.toMatchObject({ code: 'InvalidChecksum' });
  });

  it('fails with a named error, once, on a 2xx reply that is not JSON', async () => {
    const fake = await fakeSqs([() => ({ status: 200, body: '<html>proxy</html>' })]);
    await expect(sender(fake.url)(`${fake.url}/000000000000/q`, 'job')).rejects.toMatchObject({ code: 'InvalidReply', retryable: false });
    expect(fake.seen).toHaveLength(1);
  });

  it('sends to the queue URL origin when no endpoint is configured (the SDK default)', async () => {
    const fake = await fakeSqs([ok]);
    const send = createSqsSender({ region: 'eu-central-1', credentials: CREDENTIALS, maxAttempts: 1 });
    expect(await send(`${fake.url}/000000000000/q`, 'job')).toBe('m-1');
    expect(fake.seen).toHaveLength(1);
  });
});
