import { deleteSegmentRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { noContent } from '../../lib/http/reply.js';
import { segmentParams } from '../../lib/segments/segment.schema.js';
import { deleteSegment } from '../../lib/segments/segment.service.js';

export const schemas = { params: segmentParams };

export const makeHandler = endpoint(deleteSegmentRoute, schemas, async ({ runtime, principal, params }) => {
  await deleteSegment(runtime, principal.projectId, params.segmentId);
  return noContent();
});

export const handler = makeHandler();
