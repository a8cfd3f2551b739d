import { NotFoundError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { removeSessionHold } from './session-lock.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock'>;

/**
 * DELETE /v1/vouchers/{code}/sessions/{sessionKey}: frees the use and the gift credits a LOCK
 * session holds on the voucher, at once. A session that has expired has freed itself already:
 * 404 like one that never held the voucher (its leftover entry is removed on the way).
 * @throws NotFoundError (voucher, session).
 */
export async function releaseValidationSession(deps: Deps, projectId: string, code: string, sessionKey: string): Promise<void> {
  const outcome = await removeSessionHold(deps, projectId, code, sessionKey);
  if (outcome === 'no_voucher') throw new NotFoundError('voucher', code);
  if (outcome !== 'released') throw new NotFoundError('session', sessionKey);
}
