import { heldVoucher } from '../db/entities.js';
import type { TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from './voucher.js';
import { getVoucherByCode } from './voucher.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/**
 * The voucher a customer holds in a campaign, found through the holder item (two GetItems, no
 * Query). `staleVoucherId` is set when the item names a voucher that is gone (deleted, or its
 * code re-created as another voucher): a new publication may then replace the item.
 */
export interface HeldVoucher {
  voucher: Voucher | null;
  staleVoucherId: string | null;
}

/** The customer's voucher in the campaign, read consistently. */
export async function getHeldVoucher(deps: Deps, projectId: string, customerId: string, campaignId: string): Promise<HeldVoucher> {
  const held = await heldVoucher.get(deps, heldVoucher.key(projectId, customerId, campaignId));
  if (!held) return { voucher: null, staleVoucherId: null };
  const voucher = await getVoucherByCode(deps, projectId, held.code);
  return voucher?.id === held.voucherId ? { voucher, staleVoucherId: null } : { voucher: null, staleVoucherId: held.voucherId };
}

/**
 * The transaction item recording that `voucher.holderId` holds `voucher` in its campaign. Its
 * condition fails when the customer already holds a voucher there (a concurrent publication
 * won), unless the item it would replace names `staleVoucherId`, a voucher that is gone.
 */
export function putHeldVoucherItem(deps: Deps, voucher: Voucher, staleVoucherId: string | null): TransactItem {
  if (!voucher.holderId || !voucher.campaignId) throw new Error(`Voucher ${voucher.id} has no holder or campaign`);
  return {
    Put: {
      TableName: deps.tableName,
      Item: heldVoucher.toItem(
        { customerId: voucher.holderId, campaignId: voucher.campaignId, code: voucher.code, voucherId: voucher.id, createdAt: voucher.createdAt },
        voucher.projectId,
      ),
      ...(staleVoucherId === null
        ? { ConditionExpression: 'attribute_not_exists(PK)' }
        : { ConditionExpression: 'attribute_not_exists(PK) OR voucherId = :stale', ExpressionAttributeValues: { ':stale': staleVoucherId } }),
    },
  };
}
