import { heldVoucher, voucher as voucherEntity, voucherByHolder } from '../db/entities.js';
import { queryAll } from '../db/query.js';
import { ENTITY_ATTR, tableDesign } from '../db/table.js';
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
  /** The publication that gave the voucher (null: none, e.g. a referee reward); only with `voucher`. */
  publicationId: string | null;
}

/** The customer's voucher in the campaign, read consistently. */
export async function getHeldVoucher(deps: Deps, projectId: string, customerId: string, campaignId: string): Promise<HeldVoucher> {
  const held = await heldVoucher.get(deps, heldVoucher.key(projectId, customerId, campaignId));
  if (!held) return { voucher: null, staleVoucherId: null, publicationId: null };
  const voucher = await getVoucherByCode(deps, projectId, held.code);
  return voucher?.id === held.voucherId
    ? { voucher, staleVoucherId: null, publicationId: held.publicationId }
    : { voucher: null, staleVoucherId: held.voucherId, publicationId: null };
}

/**
 * The transaction item recording that `voucher.holderId` holds `voucher` in its campaign (given
 * by `publicationId`, when a publication gave it). Its condition fails when the customer already
 * holds a voucher there (a concurrent publication won), unless the item it would replace names
 * `staleVoucherId`, a voucher that is gone.
 */
export function putHeldVoucherItem(deps: Deps, voucher: Voucher, staleVoucherId: string | null, publicationId: string | null = null): TransactItem {
  if (!voucher.holderId || !voucher.campaignId) throw new Error(`Voucher ${voucher.id} has no holder or campaign`);
  return {
    Put: {
      TableName: deps.tableName,
      Item: heldVoucher.toItem(
        {
          customerId: voucher.holderId,
          campaignId: voucher.campaignId,
          code: voucher.code,
          voucherId: voucher.id,
          createdAt: voucher.createdAt,
          publicationId,
        },
        voucher.projectId,
      ),
      ...(staleVoucherId === null
        ? { ConditionExpression: 'attribute_not_exists(PK)' }
        : { ConditionExpression: 'attribute_not_exists(PK) OR voucherId = :stale', ExpressionAttributeValues: { ':stale': staleVoucherId } }),
    },
  };
}

/**
 * The loyalty cards a customer holds: one Query of the holder's GSI2 partition (every voucher
 * they hold, eventually consistent), filtered to loyalty cards on the server, all pages.
 */
export async function heldLoyaltyCards(deps: Deps, projectId: string, customerId: string): Promise<Voucher[]> {
  const { gsi2 } = tableDesign.indexes;
  const items = await queryAll(deps.ddb, {
    TableName: deps.tableName,
    IndexName: gsi2.name,
    KeyConditionExpression: `${gsi2.partitionKey} = :pk`,
    FilterExpression: '#type = :card AND #entity = :voucher',
    ExpressionAttributeNames: { '#type': 'type', '#entity': ENTITY_ATTR },
    ExpressionAttributeValues: { ':pk': voucherByHolder.partition(projectId, customerId), ':card': 'LOYALTY_CARD', ':voucher': voucherEntity.name },
  });
  return items.map((item) => voucherEntity.fromItem(item));
}
