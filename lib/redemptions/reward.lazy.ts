/**
 * What POST /v1/redemptions `import()`s for a loyalty card paying for a reward (redeem.service.ts): only the reward
 * redemption, not the rest of reward-redemption.service.ts, for the reason given in order-earning.lazy.ts.
 */
export { redeemReward } from '../loyalties/reward-redemption.service.js';
