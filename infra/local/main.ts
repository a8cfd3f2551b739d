import { setTimeout as sleep } from 'node:timers/promises';
import { JavaMissingError } from './engines.js';
import { bannerOf } from './banner.js';
import { parseCliOptions, USAGE, UsageError } from './cli-options.js';
import { dataDirFrom } from './runtime-file.js';
import { defaultDataDir, startLocal, type LocalRuntime } from './start-local.js';

// `npm start`: parse flags and environment, start everything, print the banner, stop on a signal.

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

/** A second signal this soon after the first is the same stop arriving by another route (see shutdown). */
const DUPLICATE_SIGNAL_MS = 1000;
/** How long the banner waits for the scheduled workers' first runs (a large table's sweep goes on after it). */
const FIRST_RUNS_WAIT_MS = 5000;

const fail = (message: string): never => {
  process.stderr.write(`${message}\n`);
  process.exit(1);
};

async function main(): Promise<void> {
  let options;
  try {
    options = parseCliOptions(process.argv.slice(2), process.env, defaultDataDir);
  } catch (error) {
    if (error instanceof UsageError) fail(error.message);
    throw error;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }

  let runtime: LocalRuntime | undefined;
  let stopRequested = false;
  let firstSignalAt = 0;
  const shutdown = (reason: string): void => {
    // Ctrl-C reaches this process twice: from the terminal (the whole process group) and from npm,
    // which passes the SIGINT it gets on to its script. That is one stop, not an impatient second one.
    if (stopRequested && Date.now() - firstSignalAt < DUPLICATE_SIGNAL_MS) return;
    if (stopRequested) {
      // A second Ctrl-C: leave now; the engines' exit hook still ends DynamoDB Local.
      process.stderr.write(`${reason} again: exiting without waiting\n`);
      process.exit(130);
    }
    stopRequested = true;
    firstSignalAt = Date.now();
    process.stderr.write(`${reason}: stopping...\n`);
    if (!runtime) return; // start-up finishes first, then stops (see below)
    void runtime.stop().then(
      () => process.exit(0),
      (error: unknown) => fail(`Stopping failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => shutdown(signal));
  // `npm start` execs this process in place of npm's `sh -c` (package.json), so npm's SIGINT and
  // SIGTERM reach it; if npm itself dies without passing one on (SIGKILL), this process is
  // re-parented: stop rather than leave DynamoDB Local behind.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) shutdown('parent process gone');
  }, 1000).unref();

  try {
    runtime = await startLocal({
      port: options.port,
      downloadPort: options.downloadPort,
      dataDir: options.dataDir,
      // In memory, the run is still announced in the data folder, so `npm run admin` finds it.
      ...(options.dataDir === null ? { announceIn: dataDirFrom(process.env) } : {}),
      logLevel: options.logLevel,
      ...(options.devKey ? { devKey: options.devKey } : {}),
      ...(options.devClientKey ? { devClientKey: options.devClientKey } : {}),
      ...(options.devManagementKey ? { devManagementKey: options.devManagementKey } : {}),
      ...(options.devClientOrigins ? { devClientOrigins: options.devClientOrigins } : {}),
    });
  } catch (error) {
    if (error instanceof JavaMissingError) fail(error.message);
    // A failure after a stop was asked for (e.g. SIGTERM to the whole process tree, DynamoDB Local included) is not news.
    if (stopRequested) process.exit(130);
    const message = error instanceof Error ? error.message : String(error);
    if (options.logLevel === 'debug' && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    fail(`Could not start the local runtime: ${message}`);
    return;
  }
  // The scheduled workers' first runs log their progress: let them finish (briefly) so those lines
  // come before the banner rather than push the key pair off the screen.
  await Promise.race([Promise.all([...runtime.schedules.values()].map((s) => s.firstRun)), sleep(FIRST_RUNS_WAIT_MS)]);
  if (stopRequested) {
    await runtime.stop();
    process.exit(0);
  }
  process.stdout.write(`${bannerOf(runtime, options.dataDir)}\n`);
}

main().catch((error: unknown) => fail(`Local runtime failed: ${error instanceof Error ? error.message : String(error)}`));
