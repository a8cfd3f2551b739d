import { validateVoucher } from './legacy-validation.service.js';

/** GET /client/v1/validate: the server's single-code validation (POST /v1/vouchers/{code}/validate) of the query's code and request. */
export const validateVoucherClientSide: typeof validateVoucher = (...args) => validateVoucher(...args);
