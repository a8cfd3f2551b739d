import { getSegmentRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toSegmentReply } from '../../lib/segments/segment.mapper.js';
import { segmentParams } from '../../lib/segments/segment.schema.js';
import { getSegment } from '../../lib/segments/segment.service.js';

export const schemas = { params: segmentParams };

export const makeHandler = endpoint(getSegmentRoute, schemas, async ({ runtime, principal, params }) =>
  ok(toSegmentReply(await getSegment(runtime, principal.projectId, params.segmentId))),
);

export const handler = makeHandler();
