import { updateProjectRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toManagementProjectReply } from '../../lib/projects/project.mapper.js';
import { projectParams, updateProjectBody } from '../../lib/projects/project.schema.js';
import { updateProject } from '../../lib/projects/project.service.js';

export const schemas = { params: projectParams, body: updateProjectBody };

export const makeHandler = managementEndpoint(updateProjectRoute, schemas, async ({ runtime, params, body }) =>
  ok(toManagementProjectReply(await updateProject(runtime, params.projectId, body))),
);

export const handler = makeHandler();
