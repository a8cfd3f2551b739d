import { createSegmentRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toSegmentReply } from '../../lib/segments/segment.mapper.js';
import { createSegmentBody } from '../../lib/segments/segment.schema.js';
import { createSegment } from '../../lib/segments/segment.service.js';

export const schemas = { body: createSegmentBody };

export const makeHandler = endpoint(createSegmentRoute, schemas, async ({ runtime, principal, body }) =>
  ok(toSegmentReply(await createSegment(runtime, principal.projectId, body))),
);

export const handler = makeHandler();
