import type { Runtime } from '../../lib/runtime.js';

/**
 * Counts the sequential rounds of DynamoDB calls the runtime's client sends: a call started while
 * another is still in flight joins that round; one started when none is in flight opens a new
 * round. `take()` returns the rounds (each the command names it held) since the last take.
 */
export function readRounds(runtime: Runtime): { take: () => string[][] } {
  let rounds: string[][] = [];
  let inFlight = 0;
  const send = runtime.ddb.send.bind(runtime.ddb);
  runtime.ddb.send = (async (command: { constructor: { name: string } }, ...rest: unknown[]) => {
    const name = command.constructor.name.replace(/Command$/, '');
    if (inFlight === 0) rounds.push([name]);
    else rounds[rounds.length - 1]?.push(name);
    inFlight += 1;
    try {
      return await (send as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
    } finally {
      inFlight -= 1;
    }
  }) as typeof runtime.ddb.send;
  return {
    take: () => {
      const seen = rounds;
      rounds = [];
      return seen;
    },
  };
}
