import { validateStackedDiscounts } from './validation.service.js';

/**
 * POST /client/v1/validations: the server-side validation itself, for a client-side key's project.
 * The reference's client request and reply bodies are the server's (docs/decisions.md "Client-side
 * API: what a reply carries"), so one engine answers both and they can never disagree on a cart.
 */
export const validateStackedDiscountsClientSide: typeof validateStackedDiscounts = (...args) => validateStackedDiscounts(...args);
