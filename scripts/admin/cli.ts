import { parseArgs } from 'node:util';
import { AppError } from '../../lib/errors.js';
import { COMMANDS, GROUPS, findCommand, type Action, type Command, type OptionsConfig, type Values } from './commands.js';
import { connect, targetSpecOf, type TargetSpec } from './target.js';
import { UsageError } from './usage-error.js';
import { commandUsage, groupUsage, topUsage } from './usage.js';

/** Where the CLI writes; tests pass collectors, the entry passes the process streams. */
export interface Io {
  stdout(line: string): void;
  stderr(line: string): void;
}

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

const TARGET_OPTIONS = {
  endpoint: { type: 'string' },
  stage: { type: 'string' },
  table: { type: 'string' },
  region: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies OptionsConfig;

/** Every flag any command knows, to find the command words wherever the flags are placed. */
const ALL_OPTIONS: OptionsConfig = Object.assign({}, TARGET_OPTIONS, ...COMMANDS.map((c) => c.options));

const isGroup = (word: string): word is keyof typeof GROUPS => Object.hasOwn(GROUPS, word);

/** parseArgs' messages go on to explain `--`; the first sentence is the useful part. */
const firstSentence = (message: string): string => message.split(/\.\s/)[0]!.replace(/\.$/, '');

/** One line: the CLI never prints a stack trace, and an AppError's details say what went wrong. */
function errorLine(error: unknown): string {
  if (error instanceof AppError) return `error: ${error.message}${error.details ? ` (${error.details})` : ''}`;
  if (error instanceof Error) {
    const name = error.name && error.name !== 'Error' ? `${error.name}: ` : '';
    return `error: ${name}${error.message}`.replace(/\s*\n\s*/g, ' ');
  }
  return `error: ${String(error)}`;
}

function usageFailure(io: Io, message: string, usage: string): number {
  io.stderr(`error: ${message}`);
  io.stderr('');
  io.stderr(usage);
  return EXIT_USAGE;
}

interface Located {
  words: string[];
  help: boolean;
}

/** A lenient first pass: only the command words and --help matter here. */
function locate(argv: string[]): Located {
  const { values, positionals } = parseArgs({ args: argv, options: ALL_OPTIONS, strict: false, allowPositionals: true });
  return { words: positionals, help: values.help === true };
}

async function runCommand(command: Command, argv: string[], io: Io, env: NodeJS.ProcessEnv): Promise<number> {
  let values: Values;
  let positionals: string[];
  try {
    const parsed = parseArgs({
      args: argv,
      options: { ...TARGET_OPTIONS, ...command.options },
      strict: true,
      allowPositionals: true,
    });
    values = parsed.values as Values;
    positionals = parsed.positionals;
  } catch (error) {
    return usageFailure(io, firstSentence((error as Error).message), commandUsage(command));
  }
  const args = positionals.slice(2);
  if (args.length !== command.args.length) {
    const message =
      args.length < command.args.length ? `missing ${command.args.slice(args.length).join(' ')}` : `unexpected argument '${args[command.args.length]}'`;
    return usageFailure(io, message, commandUsage(command));
  }
  let action: Action;
  let spec: TargetSpec;
  try {
    action = command.prepare(args, values);
    spec = targetSpecOf(
      {
        endpoint: values.endpoint as string | undefined,
        stage: values.stage as string | undefined,
        table: values.table as string | undefined,
        region: values.region as string | undefined,
      },
      env,
    );
  } catch (error) {
    if (error instanceof UsageError) return usageFailure(io, error.message, commandUsage(command));
    io.stderr(errorLine(error));
    return EXIT_FAILED;
  }

  try {
    const connection = await connect(spec);
    io.stderr(connection.description);
    try {
      const result = await action(connection.deps);
      io.stdout(JSON.stringify(result, null, 2));
    } finally {
      await connection.close();
    }
    return EXIT_OK;
  } catch (error) {
    io.stderr(errorLine(error));
    return EXIT_FAILED;
  }
}

/**
 * Runs one CLI invocation (`argv` without node and script) and returns the exit status:
 * 0 done, 1 the command failed (one `error:` line on stderr), 2 the command line is wrong
 * (usage on stderr). Help goes to stdout with status 0.
 */
export async function main(argv: string[], io: Io, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let located: Located;
  try {
    located = locate(argv);
  } catch (error) {
    return usageFailure(io, firstSentence((error as Error).message), topUsage());
  }
  const [group, name] = located.words;

  if (group === undefined) {
    if (located.help) {
      io.stdout(topUsage());
      return EXIT_OK;
    }
    return usageFailure(io, 'no command given', topUsage());
  }
  if (!isGroup(group)) return usageFailure(io, `unknown command '${group}'`, topUsage());
  if (name === undefined) {
    if (located.help) {
      io.stdout(groupUsage(group));
      return EXIT_OK;
    }
    return usageFailure(io, `'${group}' needs a command`, groupUsage(group));
  }
  const command = findCommand(group, name);
  if (!command) return usageFailure(io, `unknown command '${group} ${name}'`, groupUsage(group));
  if (located.help) {
    io.stdout(commandUsage(command));
    return EXIT_OK;
  }
  return runCommand(command, argv, io, env);
}
