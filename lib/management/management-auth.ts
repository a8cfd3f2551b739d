import { ipAllowed } from '../auth/ip-allow-list.js';
import type { Principal } from '../auth/principal.js';
import { hashSecret, secretMatches } from '../auth/secrets.js';
import { ForbiddenError, UnauthorizedError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { managementSpaceOf } from './management-key.js';
import { getManagementKey } from './management-key.repo.js';

/** Compared against when the id is unknown, so the time taken does not reveal which ids exist. */
const UNKNOWN_KEY_HASH = hashSecret('unknown-management-key');
/** Ids are `mgmt_<uuid>`; a longer value is no id and is not looked up. */
const MAX_MANAGEMENT_ID_LENGTH = 256;

export const MANAGEMENT_UNAUTHORIZED = {
  missing: 'Send X-Management-Id and X-Management-Token',
  halfPair: 'Send both X-Management-Id and X-Management-Token',
  badPair: 'The X-Management-Id and X-Management-Token pair is not valid',
  blocked: 'The management key is blocked',
} as const;

/**
 * Checks an X-Management-Id / X-Management-Token pair against a fresh, strongly consistent read
 * of the key (blocking, deleting or regenerating takes effect on the next request), then its IP
 * allow-list. The principal acts in the key's own space (managementSpaceOf), never a project's.
 * @throws UnauthorizedError (unknown id, wrong token, blocked key), ForbiddenError (IP allow-list).
 */
export async function authenticateManagementKey(
  deps: Pick<Runtime, 'ddb' | 'tableName'>,
  managementId: string,
  managementToken: string,
  sourceIp: string | undefined,
): Promise<Principal> {
  const key = managementId.length <= MAX_MANAGEMENT_ID_LENGTH ? await getManagementKey(deps, managementId) : null;
  const matches = secretMatches(managementToken, key?.tokenHash ?? UNKNOWN_KEY_HASH);
  if (!key || !matches) throw new UnauthorizedError(MANAGEMENT_UNAUTHORIZED.badPair);
  if (key.status !== 'ACTIVE') throw new UnauthorizedError(MANAGEMENT_UNAUTHORIZED.blocked);
  if (!ipAllowed(key.ipAllowList, sourceIp))
    throw new ForbiddenError(`Requests with this management key are not allowed from ${sourceIp ?? 'an unknown address'}`);
  return { projectId: managementSpaceOf(key.managementId), appId: key.managementId, via: 'management_key', keyPermissions: null, tokenScopes: null };
}
