import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocal } from '../../../infra/local/start-local.js';
import { silentLogger } from '../../../lib/logger.js';
import { engines } from '../../support/runtime.js';

/** Issue 34, item 6: a port in use is reported by the setting it came from, so a newcomer knows what to change. */

let taken: Server;
let takenPort: number;

beforeAll(async () => {
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const address = taken.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  takenPort = address.port;
});

afterAll(async () => {
  await new Promise((resolve) => taken.close(resolve));
});

describe('the local runtime on a port in use', () => {
  it.each([
    ['the API', 'PORT', { downloadPort: 0 }],
    ['the download cluster', 'DOWNLOAD_PORT', { port: 0 }],
  ] as const)('names the variable for %s (%s)', async (_, variable, free) => {
    // The other server gets a free port, so the taken one is the only failure.
    const ports = { port: takenPort, downloadPort: takenPort, ...free };
    await expect(startLocal({ dataDir: null, ...ports, engines: engines(), logger: silentLogger, workers: [], scheduledWorkers: [] })).rejects.toThrow(
      `Port ${takenPort} is already in use: set ${variable} to a free port (0 = any free port)`,
    );
  });
});
