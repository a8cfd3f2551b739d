import { deleteProjectRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { noContent } from '../../lib/http/reply.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';
import { projectParams } from '../../lib/projects/project.schema.js';
import { deleteProject } from '../../lib/projects/project.service.js';

export const schemas = { params: projectParams };

export const makeHandler = managementEndpoint(
  deleteProjectRoute,
  schemas,
  async ({ runtime, ports, params }) => {
    await deleteProject({ ...runtime, jobs: ports.jobs }, params.projectId);
    return noContent();
  },
  { jobs: containerJobQueue },
);

export const handler = makeHandler();
