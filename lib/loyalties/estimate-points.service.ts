import { getCustomerIdBySourceId } from '../customers/customer.repo.js';
import { orderPointsFor, type EarningOrder } from '../earning-rules/order-points.js';
import { orderMemberships } from './earning-memberships.js';
import { listEarningRulesOfCampaign } from '../earning-rules/earning-rule.repo.js';
import { ruleApplies } from '../earning-rules/earning-rule.js';
import { ORDER_PAID_EVENT } from '../earning-rules/order-paid-event.js';
import { itemsAmount, orderItemOf } from '../orders/order-lines.js';
import { lineRefOf, withCatalog } from '../orders/order-catalog.js';
import { readCatalog } from '../orders/order-catalog.repo.js';
import { getOrder } from '../orders/order.service.js';
import type { Runtime } from '../runtime.js';
import { getHeldVoucher } from '../vouchers/voucher-holder.repo.js';
import type { EstimatePointsBody } from './estimate-points.schema.js';
import { programEarnsAt } from './loyalty-earning.js';
import { cardAsOf, findLoyaltyCampaign } from './loyalty.service.js';
import { earnedPoints } from './tier.js';
import { cardTier } from './tier-period.js';
import { programTiers } from './tier.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

export interface PointsEstimate {
  campaign: { id: string; name: string };
  points: number;
}

/** The customer's id, from `id` or `source_id`; null when neither names a stored customer. */
async function customerIdOf(deps: Deps, projectId: string, customer: EstimatePointsBody['customer']): Promise<string | null> {
  if (customer?.id) return customer.id;
  if (customer?.source_id) return getCustomerIdBySourceId(deps, projectId, customer.source_id);
  return null;
}

/** The order to estimate: inline when it has amount or items (lines with the catalog's values), else the stored order its `id` or `source_id` names. */
async function orderOf(deps: Deps, projectId: string, order: EstimatePointsBody['order']): Promise<EarningOrder> {
  const ref = order?.id ?? order?.source_id;
  if (order && order.amount === undefined && order.items === undefined && ref !== undefined) return getOrder(deps, projectId, ref);
  const sent = order?.items?.map(orderItemOf) ?? [];
  // Lines take the catalog's values, as an order written with them would.
  const catalog = await readCatalog(deps, projectId, sent.map(lineRefOf));
  const items = sent.map((i, n) => withCatalog(i, catalog, n));
  return { amount: order?.amount ?? itemsAmount(items), items, metadata: order?.metadata ?? {} };
}

/**
 * POST /v1/loyalties/{campaignId}/qualifications (estimate-points): the points the program's
 * active `order.paid` rules would give the order, each mapped by the tier the customer's card is in
 * now (none without a card). Reads only: nothing is earned or joined.
 * @throws NotFoundError (campaign; order, for a stored order named and not found).
 */
export async function estimatePoints(deps: Deps, projectId: string, campaignRef: string, body: EstimatePointsBody): Promise<PointsEstimate> {
  const campaign = await findLoyaltyCampaign(deps, projectId, campaignRef);
  const now = deps.clock.now();
  const at = now.toISOString();
  const estimate = (points: number): PointsEstimate => ({ campaign: { id: campaign.id, name: campaign.name }, points });
  if (!programEarnsAt(campaign, at)) return estimate(0);
  const [rules, order, customerId, tiers] = await Promise.all([
    listEarningRulesOfCampaign(deps, projectId, campaign.id),
    orderOf(deps, projectId, body.order),
    customerIdOf(deps, projectId, body.customer),
    programTiers(deps, projectId, campaign.id),
  ]);
  const held = customerId !== null && tiers.tiers.length > 0 ? (await getHeldVoucher(deps, projectId, customerId, campaign.id)).voucher : null;
  const card = held?.loyaltyCard ? (await cardAsOf(deps, held, now)).loyaltyCard : null;
  const tier = card ? cardTier(card, tiers, at) : null;
  const earning = rules.filter((r) => r.event === ORDER_PAID_EVENT && ruleApplies(r, at));
  const memberships = await orderMemberships(deps, projectId, order.items, earning);
  const points = earning.reduce((sum, r) => sum + earnedPoints(orderPointsFor(r.loyalty, order, memberships), tier, r.id), 0);
  return estimate(points);
}
