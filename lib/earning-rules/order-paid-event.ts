/**
 * The built-in event of a paid order: its rules earn from the order (lib/loyalties/order-earning.service.ts).
 * A module of its own so that the redemption handlers, which earn on paid orders, do not load the rule schemas.
 */
export const ORDER_PAID_EVENT = 'order.paid';
