import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOUD_TARGET_POLICY } from '../../../lib/webhooks/target-guard.js';
import { sendWebhook } from '../../../lib/webhooks/webhook-sender.js';
import { SIGNATURE_HEADER, verifySignature } from '../../../lib/webhooks/signature.js';

const LOCAL = { allowHttp: true, allowLoopback: true };
const noDns = async (host: string): Promise<string[]> => {
  throw new Error(`no DNS in this test (${host})`);
};

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}
const received: Received[] = [];
let server: Server;
let base: string;

/** A loopback receiver whose answer depends on the path: /ok 204, /fail 500, /hang never, /stream an endless 200. */
function receiver(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    if (req.url === '/ok') res.writeHead(204).end();
    else if (req.url === '/fail') res.writeHead(500).end('{"error":"down"}');
    else if (req.url === '/stream') {
      res.writeHead(200);
      const tick = setInterval(() => res.write('x'.repeat(16 * 1024)), 1);
      res.on('close', () => clearInterval(tick));
    }
    // /hang: no answer
  });
}

beforeAll(async () => {
  server = createServer(receiver);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const body = JSON.stringify({ id: 'evt_1', type: 'redemption.succeeded', data: { object: { id: 'r_1' } } });

describe('sending a webhook to a loopback receiver', () => {
  it('POSTs the exact body with its signature and event id; a 2xx is delivered', async () => {
    const outcome = await sendWebhook({ url: `${base}/ok`, body, secret: 's3cret', eventId: 'evt_1' }, { policy: LOCAL, resolve: noDns });
    expect(outcome).toEqual({ kind: 'answered', status: 204, delivered: true, replyBytes: 0 });
    const got = received.find((r) => r.path === '/ok');
    expect(got?.body).toBe(body);
    expect(got?.headers['x-voucherify-event-id']).toBe('evt_1');
    expect(verifySignature(got?.body ?? '', 's3cret', String(got?.headers[SIGNATURE_HEADER]))).toBe(true);
    expect(verifySignature(got?.body ?? '', 'other', String(got?.headers[SIGNATURE_HEADER]))).toBe(false);
  });

  it('reports a 500 as answered but not delivered', async () => {
    const outcome = await sendWebhook({ url: `${base}/fail`, body, secret: 's', eventId: 'evt_2' }, { policy: LOCAL, resolve: noDns });
    expect(outcome).toMatchObject({ kind: 'answered', status: 500, delivered: false });
  });

  it('gives up on a receiver that never answers, at the time limit', async () => {
    const started = Date.now();
    const outcome = await sendWebhook(
      { url: `${base}/hang`, body, secret: 's', eventId: 'evt_3' },
      { policy: LOCAL, resolve: noDns, limits: { timeoutMs: 300, maxReplyBytes: 1024 } },
    );
    expect(outcome).toEqual({ kind: 'failed', reason: 'no complete answer within 300 ms' });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('reads no more than the bound of an endless reply', async () => {
    const outcome = await sendWebhook(
      { url: `${base}/stream`, body, secret: 's', eventId: 'evt_4' },
      { policy: LOCAL, resolve: noDns, limits: { timeoutMs: 5_000, maxReplyBytes: 64 * 1024 } },
    );
    expect(outcome).toMatchObject({ kind: 'answered', status: 200, delivered: true });
    if (outcome.kind !== 'answered') throw new Error('not answered');
    expect(outcome.replyBytes).toBeGreaterThanOrEqual(64 * 1024);
    expect(outcome.replyBytes).toBeLessThan(64 * 1024 + 64 * 1024);
  });

  it('refuses loopback under the cloud policy without sending anything', async () => {
    const before = received.length;
    const outcome = await sendWebhook({ url: `https://127.0.0.1:1/ok`, body, secret: 's', eventId: 'evt_5' }, { policy: CLOUD_TARGET_POLICY, resolve: noDns });
    expect(outcome.kind).toBe('refused');
    const rebound = await sendWebhook(
      { url: 'https://shop.example.com/ok', body, secret: 's', eventId: 'evt_6' },
      { policy: CLOUD_TARGET_POLICY, resolve: async () => ['169.254.169.254'] },
    );
    expect(rebound).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/resolves to 169\.254\.169\.254/) });
    expect(received.length).toBe(before);
  });

  it('connects to the address it checked, not to a second lookup of the name', async () => {
    const port = (server.address() as AddressInfo).port;
    let lookups = 0;
    const outcome = await sendWebhook(
      { url: `http://shop.test:${port}/ok`, body, secret: 's', eventId: 'evt_7' },
      {
        policy: LOCAL,
        resolve: async (host) => {
          lookups += 1;
          return host === 'shop.test' ? ['127.0.0.1'] : [];
        },
      },
    );
    // shop.test exists in no DNS: only the pinned, checked address can have reached the receiver.
    expect(outcome).toMatchObject({ kind: 'answered', delivered: true });
    expect(lookups).toBe(1);
    expect(received.at(-1)?.headers.host).toBe(`shop.test:${port}`);
  });
});
