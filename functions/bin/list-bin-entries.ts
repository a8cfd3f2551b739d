import { listBinEntriesRoute } from '../../lib/api/routes.js';
import { toBinListReply } from '../../lib/bin/bin.mapper.js';
import { listBinQuery } from '../../lib/bin/bin.schema.js';
import { listBinEntries } from '../../lib/bin/bin.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { query: listBinQuery };

export const makeHandler = endpoint(listBinEntriesRoute, schemas, async ({ runtime, principal, query }) =>
  ok(toBinListReply(await listBinEntries(runtime, principal.projectId, query))),
);

export const handler = makeHandler();
