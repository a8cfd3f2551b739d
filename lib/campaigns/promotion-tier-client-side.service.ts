import { listPromotionTiers } from './promotion-tier.service.js';

/** GET /client/v1/promotions/tiers: the server-side list, for a client-side key's project (same reply in the reference). */
export const listPromotionTiersClientSide: typeof listPromotionTiers = (...args) => listPromotionTiers(...args);
