import { examineVouchersQualificationRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { examineQualificationBody } from '../../lib/qualifications/deprecated-qualification.schema.js';
import { examineVouchersQualification } from '../../lib/qualifications/deprecated-qualification.service.js';

export const schemas = { body: examineQualificationBody };

export const makeHandler = endpoint(examineVouchersQualificationRoute, schemas, async () => examineVouchersQualification());

export const handler = makeHandler();
