/**
 * What the redemption doors `import()` when a redemption leaves its order PAID (redeem.service.ts). A module of
 * its own, naming only this function, because a lazily loaded module keeps every export (the caller may read any),
 * while its imports keep only what is read: importing order-earning.service.ts itself would carry the take-back and
 * the order loyalty sweep into the chunk, and their shared code into the cold part of the package
 * (docs/decisions.md "Lazy chunks on the redemption doors").
 */
export { earnFromPaidOrder } from '../loyalties/order-earning.service.js';
