import { checkEligibility } from './qualification.service.js';

/** POST /client/v1/qualifications: the server-side qualification, for a client-side key's project (same bodies in the reference). */
export const checkEligibilityClientSide: typeof checkEligibility = (...args) => checkEligibility(...args);
