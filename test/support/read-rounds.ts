import type { Runtime } from '../../lib/runtime.js';

/** One DynamoDB call the runtime's client sent, once answered (or failed: `output` null). */
export interface WatchedCall {
  /** The command's name without `Command`: `Get`, `Query`, `BatchGet`, … */
  name: string;
  input: Record<string, unknown>;
  output: Record<string, unknown> | null;
  /** The sequential round it was sent in, counted from 0 since the watch began. */
  round: number;
}

/**
 * Hands `seen` every call the runtime's client sends, with its round: a call started while another
 * is still in flight joins that round; one started when none is in flight opens the next round.
 */
export function watchCalls(runtime: Runtime, seen: (call: WatchedCall) => void): void {
  let round = -1;
  let inFlight = 0;
  const send = runtime.ddb.send.bind(runtime.ddb);
  runtime.ddb.send = (async (command: { constructor: { name: string }; input: Record<string, unknown> }, ...rest: unknown[]) => {
    if (inFlight === 0) round += 1;
    const call = { name: command.constructor.name.replace(/Command$/, ''), input: command.input, round };
    inFlight += 1;
    let output: Record<string, unknown> | null = null;
    try {
      output = (await (send as (...args: unknown[]) => Promise<unknown>)(command, ...rest)) as Record<string, unknown>;
      return output;
    } finally {
      inFlight -= 1;
      seen({ ...call, output });
    }
  }) as typeof runtime.ddb.send;
}

/** The sequential rounds of calls (watchCalls) the runtime sends: `take()` returns them (each the command names it held) since the last take. */
export function readRounds(runtime: Runtime): { take: () => string[][] } {
  let rounds = new Map<number, string[]>();
  watchCalls(runtime, ({ name, round }) => {
    const held = rounds.get(round);
    if (held) held.push(name);
    else rounds.set(round, [name]);
  });
  return {
    take: () => {
      const seen = [...rounds.entries()].sort(([a], [b]) => a - b).map(([, names]) => names);
      rounds = new Map();
      return seen;
    },
  };
}
