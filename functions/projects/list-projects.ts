import { listProjectsRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toManagementProjectListReply } from '../../lib/projects/project.mapper.js';
import { listProjects } from '../../lib/projects/project.service.js';

export const schemas = {};

export const makeHandler = managementEndpoint(listProjectsRoute, schemas, async ({ runtime }) => ok(toManagementProjectListReply(await listProjects(runtime))));

export const handler = makeHandler();
