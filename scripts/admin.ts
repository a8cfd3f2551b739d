/**
 * Operator CLI: `npm run admin -- --help`. The logic lives in scripts/admin/cli.ts so tests can
 * run it in-process; this file only wires it to the process.
 */
import { main } from './admin/cli.js';

// The SDK's multi-line notice about Node < 22 would bury the CLI's one-line stderr; Node 20 is this project's floor.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

// Exiting through process.exit runs the 'exit' hooks that stop a DynamoDB Local this command started.
process.once('SIGINT', () => process.exit(130));
process.once('SIGTERM', () => process.exit(143));

process.exitCode = await main(process.argv.slice(2), {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
});
