import { examineCampaignQualificationRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { examineQualificationBody } from '../../lib/qualifications/deprecated-qualification.schema.js';
import { examineCampaignQualification } from '../../lib/qualifications/deprecated-qualification.service.js';

export const schemas = { body: examineQualificationBody };

export const makeHandler = endpoint(examineCampaignQualificationRoute, schemas, async () => examineCampaignQualification());

export const handler = makeHandler();
