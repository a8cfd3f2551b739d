import { requireClientSwitch } from '../projects/client-switch.js';
import { createPublication } from './publication.service.js';

/**
 * POST /client/v1/publish: the server's publication (same bodies in the reference), once the
 * project has switched client-side publishing on (client_publish_enabled): a published key could
 * otherwise hand out every code of a campaign.
 * @throws ForbiddenError when it is off; otherwise as createPublication.
 */
export const createPublicationClientSide: typeof createPublication = async (deps, projectId, ...rest) => {
  await requireClientSwitch(deps, projectId, 'clientPublishEnabled', 'Publishing');
  return createPublication(deps, projectId, ...rest);
};
