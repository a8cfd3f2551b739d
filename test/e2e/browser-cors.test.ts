import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientKey, createProject, setClientSwitches } from '../../lib/app-keys/app-key.service.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { testRuntime } from '../support/runtime.js';

/**
 * The one test that shows CORS as browsers enforce it: a real headless Chromium (Debian's
 * `chromium` package, which .ci/run installs) opens a page served from a trusted origin on
 * loopback, and the page calls the client-side API with `fetch` and the client key. From an
 * untrusted origin the browser itself withholds the response. Without a Chromium on the machine
 * the test is skipped, unless REQUIRE_BROWSER=1 (.ci/run sets it) makes that a failure.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const required = process.env.REQUIRE_BROWSER === '1';

let runtime: OwnLocalRuntime;
let browser: Browser;
const pages: Server[] = [];
let trusted = '';
let untrusted = '';
let clientKey = { app_id: '', app_token: '' };

/** A page server on loopback: its own origin, serving an empty page the test scripts through. */
async function pageServer(): Promise<string> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>shop</title><p>shop</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  pages.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe.skipIf(!CHROMIUM && !required)('a browser page calling the client-side API', () => {
  beforeAll(async () => {
    if (!CHROMIUM) throw new Error('REQUIRE_BROWSER=1 but no Chromium found: install Debian package chromium, or set CHROMIUM_PATH');
    runtime = await startLocalWithOwnQueue('browser-cors');
    [trusted, untrusted] = await Promise.all([pageServer(), pageServer()]);
    const project = await createProject(testRuntime(), 'browser shop');
    await setClientSwitches(testRuntime(), project.project_id, { clientRedeemEnabled: true });
    clientKey = await createClientKey(testRuntime(), project.project_id, { origins: [trusted] });
    const created = await fetch(`${runtime.local.apiUrl}/v1/vouchers/BROWSER-10`, {
      method: 'POST',
      headers: { 'X-App-Id': project.app_id, 'X-App-Token': project.app_token, 'Content-Type': 'application/json' },
      body: JSON.stringify({ type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 1000 }, redemption: { quantity: 1 } }),
    });
    expect(created.status).toBe(200);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    for (const server of pages) server.close();
    await runtime?.stop();
  });

  /** Runs `fetch` of the client route from a page of `origin`; returns what the page could read, or the browser's error. */
  async function fetchFrom(origin: string, path: string, body: unknown): Promise<{ status?: number; json?: Record<string, unknown>; error?: string }> {
    const page = await browser.newPage();
    try {
      await page.goto(origin);
      return await page.evaluate(
        async ({ url, key, token, payload }) => {
          try {
            const reply = await fetch(url, {
              method: 'POST',
              headers: { 'X-Client-Application-Id': key, 'X-Client-Token': token, 'Content-Type': 'application/json' },
              body: JSON.stringify(payload),
            });
            return { status: reply.status, json: (await reply.json()) as Record<string, unknown> };
          } catch (error) {
            return { error: String(error) };
          }
        },
        { url: `${runtime.local.apiUrl}${path}`, key: clientKey.app_id, token: clientKey.app_token, payload: body },
      );
    } finally {
      await page.close();
    }
  }

  const cart = { redeemables: [{ object: 'voucher', id: 'BROWSER-10' }], order: { amount: 5000 }, customer: { source_id: 'browser-ann' } };

  it('validates and redeems a code through fetch from the trusted origin (preflight, then the call)', async () => {
    const validated = await fetchFrom(trusted, '/client/v1/validations', cart);
    expect(validated.error).toBeUndefined();
    expect(validated.status).toBe(200);
    expect(validated.json).toMatchObject({ valid: true, order: { total_amount: 4000 } });
    const redeemed = await fetchFrom(trusted, '/client/v1/redemptions', cart);
    expect(redeemed.status).toBe(200);
    expect(redeemed.json).toMatchObject({ order: { total_amount: 4000 } });
    // The page can read a refusal too: the one use is gone.
    const again = await fetchFrom(trusted, '/client/v1/redemptions', cart);
    expect(again.status).toBe(400);
  }, 60_000);

  it('lets the browser withhold the response from an untrusted origin', async () => {
    const blocked = await fetchFrom(untrusted, '/client/v1/validations', cart);
    expect(blocked.status).toBeUndefined();
    expect(blocked.error).toMatch(/Failed to fetch|TypeError/);
  }, 60_000);
});
