import { createProjectRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { okCommitted } from '../../lib/http/reply.js';
import { toManagementProjectCreatedReply } from '../../lib/projects/project.mapper.js';
import { createProjectBody } from '../../lib/projects/project.schema.js';
import { createProject } from '../../lib/projects/project.service.js';

export const schemas = { body: createProjectBody };

export const makeHandler = managementEndpoint(createProjectRoute, schemas, async ({ runtime, body, idempotency }) =>
  okCommitted(await createProject(runtime, body, idempotency), toManagementProjectCreatedReply),
);

export const handler = makeHandler();
