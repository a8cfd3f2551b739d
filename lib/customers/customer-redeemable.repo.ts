import { voucher as voucherEntity, voucherByHolder } from '../db/entities.js';
import { queryAll } from '../db/query.js';
import { ENTITY_ATTR, tableDesign } from '../db/table.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from '../vouchers/voucher.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** Every voucher a customer holds (`holder_id`): one Query of the holder's GSI2 partition, all pages, eventually consistent. */
export async function heldVouchers(deps: Deps, projectId: string, customerId: string): Promise<Voucher[]> {
  const { gsi2 } = tableDesign.indexes;
  const items = await queryAll(deps.ddb, {
    TableName: deps.tableName,
    IndexName: gsi2.name,
    KeyConditionExpression: `${gsi2.partitionKey} = :pk`,
    FilterExpression: '#entity = :voucher',
    ExpressionAttributeNames: { '#entity': ENTITY_ATTR },
    ExpressionAttributeValues: { ':pk': voucherByHolder.partition(projectId, customerId), ':voucher': voucherEntity.name },
  });
  return items.map((item) => voucherEntity.fromItem(item));
}
