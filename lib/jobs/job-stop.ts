/**
 * A job stopped at a checkpoint because its host is shutting down (the local runtime on Ctrl-C).
 * Not a failure: the job's subject stays open (its progress kept), the message is left for
 * redelivery and the next start of the runtime puts the job back on the queue.
 */
export class JobStoppedError extends Error {
  override readonly name = 'JobStoppedError';

  constructor(what: string) {
    super(`${what} stopped at a checkpoint: the runtime is shutting down`);
  }
}

/**
 * Called by a job between checkpoints.
 * @throws JobStoppedError when `signal` (the host's stop signal, if any) has been raised.
 */
export function stopIfAsked(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted) throw new JobStoppedError(what);
}

/**
 * When a scheduled run stops starting new work (ms since the epoch): `marginMs` before its host's
 * time limit, or half the time left when that is shorter; none when the host gives no limit.
 */
export function runDeadline(remainingMs: number | undefined, marginMs: number, now = Date.now()): number | undefined {
  return remainingMs === undefined ? undefined : now + Math.max(remainingMs - marginMs, remainingMs / 2);
}
