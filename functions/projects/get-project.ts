import { getProjectRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toManagementProjectReply } from '../../lib/projects/project.mapper.js';
import { projectParams } from '../../lib/projects/project.schema.js';
import { getProject } from '../../lib/projects/project.service.js';

export const schemas = { params: projectParams };

export const makeHandler = managementEndpoint(getProjectRoute, schemas, async ({ runtime, params }) =>
  ok(toManagementProjectReply(await getProject(runtime, params.projectId))),
);

export const handler = makeHandler();
