import { COMMANDS, GROUPS, commandsOf, type Command } from './commands.js';
import { STAGES } from './target.js';

const PROG = 'npm run admin --';

const table = (rows: ReadonlyArray<readonly [string, string]>): string[] => {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`);
};

const TARGET_HELP = [
  "Target (default: the local runtime's data: the running `npm start`, else DATA_DIR or .data/ opened directly):",
  ...table([
    ['--endpoint <url> [--table <name>]', 'a DynamoDB Local endpoint (table default promo-engine)'],
    [`--stage <${STAGES.join('|')}> --table <name> --region <region>`, "a deployed stage's table, with the default AWS credentials"],
    ['', 'PROMO_TABLE_NAME and AWS_REGION stand in for --table and --region'],
  ]),
];

const firstSentence = (summary: string): string => summary.split('. ')[0]!.replace(/\.$/, '');

const usageLine = (c: Command): string => [c.group, c.name, ...c.args, c.synopsis].filter(Boolean).join(' ');

const commandList = (commands: readonly Command[]): string[] => commands.flatMap((c) => [`  ${usageLine(c)}`, `      ${firstSentence(c.summary)}`]);

export function topUsage(): string {
  return [
    `Usage: ${PROG} <command> [options] [target]`,
    '',
    'Makes and manages projects and application keys, and runs one-off data backfills. Prints JSON on stdout; the target used and errors go to stderr.',
    'Exit status: 0 done, 1 failed (e.g. an unknown app id), 2 bad command line.',
    '',
    'Commands:',
    ...commandList(COMMANDS),
    '',
    ...TARGET_HELP,
    '',
    `Every command takes -h, --help: ${PROG} key permissions --help`,
  ].join('\n');
}

export function groupUsage(group: keyof typeof GROUPS): string {
  return [
    `Usage: ${PROG} ${group} <command> [options] [target]`,
    '',
    `Commands for ${GROUPS[group]}:`,
    ...commandList(commandsOf(group)),
    '',
    ...TARGET_HELP,
    '',
    `Every command takes -h, --help: ${PROG} ${group} ${commandsOf(group)[0]!.name} --help`,
  ].join('\n');
}

export function commandUsage(command: Command): string {
  return [
    `Usage: ${PROG} ${usageLine(command)} [target]`,
    '',
    command.summary,
    '',
    'Options:',
    ...table([...command.optionHelp, ['-h, --help', 'show this help']]),
    '',
    ...TARGET_HELP,
  ].join('\n');
}
