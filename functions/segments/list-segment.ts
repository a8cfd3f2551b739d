import { listSegmentRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toSegmentListReply } from '../../lib/segments/segment.mapper.js';
import { listSegmentsQuery } from '../../lib/segments/segment.schema.js';
import { listSegment } from '../../lib/segments/segment.service.js';

export const schemas = { query: listSegmentsQuery };

export const makeHandler = endpoint(listSegmentRoute, schemas, async ({ runtime, principal, query }) =>
  ok(toSegmentListReply(await listSegment(runtime, principal.projectId, query))),
);

export const handler = makeHandler();
