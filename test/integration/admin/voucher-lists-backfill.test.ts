import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { voucher as voucherEntity } from '../../../lib/db/entities.js';
import { tableDesign } from '../../../lib/db/table.js';
import { main } from '../../../scripts/admin/cli.js';
import { engines } from '../../support/runtime.js';
import { publicationSetup } from '../publications/support.js';

async function admin(argv: string[]) {
  const stdout: string[] = [];
  const code = await main(
    [...argv, '--endpoint', engines().dynamoEndpoint, '--table', engines().tableName],
    { stdout: (l) => stdout.push(l), stderr: () => {} },
    {},
  );
  return { code, json: JSON.parse(stdout.join('\n')) as Record<string, unknown> };
}

const { gsi2, gsi3 } = tableDesign.indexes;

describe('npm run admin -- backfill voucher-lists', () => {
  it('lists vouchers written before the list entries once backfilled (unfiltered and by holder), and a rerun finds nothing', async () => {
    const { runtime, projectId, campaignWith, publish, api } = await publicationSetup();
    await campaignWith('Old', ['OLD-1', 'OLD-2', 'OLD-3']);
    const held = await publish({ voucher: 'OLD-2', customer: { source_id: 'ann' } });
    expect(held.status).toBe(200);
    // The layout older code wrote: no GSI3 entry, and a published voucher with no GSI2 entry at all.
    for (const code of ['OLD-1', 'OLD-2', 'OLD-3']) {
      await runtime.ddb.send(
        new UpdateCommand({
          TableName: runtime.tableName,
          Key: voucherEntity.key(projectId, code),
          UpdateExpression: code === 'OLD-2' ? 'REMOVE #l, #ls, #h, #hs' : 'REMOVE #l, #ls',
          ExpressionAttributeNames:
            code === 'OLD-2'
              ? { '#l': gsi3.partitionKey, '#ls': gsi3.sortKey, '#h': gsi2.partitionKey, '#hs': gsi2.sortKey }
              : { '#l': gsi3.partitionKey, '#ls': gsi3.sortKey },
        }),
      );
    }
    const codes = async (query = '') => ((await api.call('list-vouchers', { query })).json.vouchers as { code: string }[]).map((v) => v.code).sort();
    expect(await codes()).toEqual([]);
    expect(await codes('customer=ann')).toEqual([]);
    expect(await codes('campaign=Old')).toEqual(['OLD-1', 'OLD-2', 'OLD-3']);

    const run = await admin(['backfill', 'voucher-lists', '--project', projectId]);
    expect(run).toEqual({ code: 0, json: { found: 3, updated: 3, gone: 0 } });
    expect(await codes()).toEqual(['OLD-1', 'OLD-2', 'OLD-3']);
    expect(await codes('customer=ann')).toEqual(['OLD-2']);
    // The pool (GSI2 entries of the unpublished vouchers) is untouched: a campaign publication still finds them.
    expect((await publish({ campaign: { name: 'Old' }, customer: { source_id: 'ben' } })).status).toBe(200);

    expect((await admin(['backfill', 'voucher-lists', '--project', projectId])).json).toEqual({ found: 0, updated: 0, gone: 0 });
  });
});
