import type { EarningRule } from '../earning-rules/earning-rule.js';
import { earningCollections, type InCollection } from '../earning-rules/order-points.js';
import type { OrderItem } from '../orders/order.js';
import { inCollection, lineRefOf } from '../orders/order-catalog.js';
import { readCatalog } from '../orders/order-catalog.repo.js';
import type { Runtime } from '../runtime.js';

/**
 * Whether an order's lines (their catalog ids, as the order was written) are in the product
 * collections its `order.paid` rules name: each collection read with those memberships in one
 * BatchGetItem, as a validation reads them (a filter change seen whole or not at all). Undefined
 * when no rule names a collection (nothing is read).
 */
export async function orderMemberships(
  deps: Pick<Runtime, 'ddb' | 'tableName'>,
  projectId: string,
  items: readonly OrderItem[],
  rules: readonly Pick<EarningRule, 'loyalty'>[],
): Promise<InCollection | undefined> {
  const collections = earningCollections(rules.map((r) => r.loyalty));
  if (collections.length === 0) return undefined;
  const catalog = await readCatalog(
    deps,
    projectId,
    items.map((i) => ({ ...lineRefOf(i), priced: true })),
    collections,
  );
  return (ids, collectionId) => inCollection(catalog, ids, collectionId);
}
