import { deleteBinEntryRoute } from '../../lib/api/routes.js';
import { binEntryParams } from '../../lib/bin/bin.schema.js';
import { deleteBinEntry } from '../../lib/bin/bin.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { noContent } from '../../lib/http/reply.js';

export const schemas = { params: binEntryParams };

export const makeHandler = endpoint(deleteBinEntryRoute, schemas, async ({ runtime, principal, params }) => {
  await deleteBinEntry(runtime, principal.projectId, params.binEntryId);
  return noContent();
});

export const handler = makeHandler();
