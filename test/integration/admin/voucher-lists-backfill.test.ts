import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
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

const { gsi2, gsi3, gsi4, gsi5 } = tableDesign.indexes;

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

  it('gives publishable vouchers written before the pool their pool entry, so a campaign publication finds them; held and disabled ones get none', async () => {
    const { runtime, projectId, campaignWith, publish, api } = await publicationSetup();
    // STATIC: an AUTO_UPDATE campaign would generate a code on the spot instead of reading the pool.
    await campaignWith('Older', ['POOL-1', 'POOL-2', 'POOL-3'], { type: 'STATIC' });
    expect((await api.call('disable-voucher', { params: { code: 'POOL-3' } })).status).toBe(200);
    // The layout before publications: no GSI2 entry on any of them (and no GSI3 entry either).
    for (const code of ['POOL-1', 'POOL-2', 'POOL-3']) {
      await runtime.ddb.send(
        new UpdateCommand({
          TableName: runtime.tableName,
          Key: voucherEntity.key(projectId, code),
          UpdateExpression: 'REMOVE #l, #ls, #h, #hs',
          ExpressionAttributeNames: { '#l': gsi3.partitionKey, '#ls': gsi3.sortKey, '#h': gsi2.partitionKey, '#hs': gsi2.sortKey },
        }),
      );
    }
    // Nothing in the pool: the campaign has no voucher to publish.
    const before = await publish({ campaign: { name: 'Older' }, customer: { source_id: 'cat' } });
    expect(before.status).toBe(400);
    expect(before.json.key).toBe('no_voucher_suitable_for_publication');

    // POOL-3 (disabled) lacks only its GSI3 entry: found and given that, but no pool entry.
    expect((await admin(['backfill', 'voucher-lists', '--project', projectId])).json).toEqual({ found: 3, updated: 3, gone: 0 });
    const pooled = async (code: string) => {
      const item = await runtime.ddb.send(new GetCommand({ TableName: runtime.tableName, Key: voucherEntity.key(projectId, code) }));
      return item.Item?.[gsi2.partitionKey] === voucherEntity.sparse.partition(projectId, String(item.Item?.campaignId));
    };
    expect([await pooled('POOL-1'), await pooled('POOL-2'), await pooled('POOL-3')]).toEqual([true, true, false]);

    const given = new Set<string>();
    for (const who of ['dan', 'eve']) {
      const res = await publish({ campaign: { name: 'Older' }, customer: { source_id: who } });
      expect(res.status).toBe(200);
      given.add(String((res.json.voucher as { code: string }).code));
    }
    expect([...given].sort()).toEqual(['POOL-1', 'POOL-2']);
    expect((await publish({ campaign: { name: 'Older' }, customer: { source_id: 'fay' } })).json.key).toBe('no_voucher_suitable_for_publication');
    expect((await admin(['backfill', 'voucher-lists', '--project', projectId])).json).toEqual({ found: 0, updated: 0, gone: 0 });
  });

  it("gives categorised vouchers written before category lists their category's GSI4 entry, and a rerun finds nothing", async () => {
    const { runtime, projectId, api } = await publicationSetup();
    const discount = { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } };
    for (const [code, category] of [
      ['CAT-1', 'Seasonal'],
      ['CAT-2', 'Seasonal'],
      ['NONE', undefined],
    ] as const) {
      const reply = await api.call('create-voucher', { params: { code }, json: { ...discount, ...(category ? { category } : {}) } });
      expect(reply.status).toBe(200);
    }
    // The layout before category lists: no GSI4 entry.
    for (const code of ['CAT-1', 'CAT-2']) {
      await runtime.ddb.send(
        new UpdateCommand({
          TableName: runtime.tableName,
          Key: voucherEntity.key(projectId, code),
          UpdateExpression: 'REMOVE #c, #cs',
          ExpressionAttributeNames: { '#c': gsi4.partitionKey, '#cs': gsi4.sortKey },
        }),
      );
    }
    const codes = async (query = '') => ((await api.call('list-vouchers', { query })).json.vouchers as { code: string }[]).map((v) => v.code).sort();
    expect(await codes('category=Seasonal')).toEqual([]);
    expect((await admin(['backfill', 'voucher-lists', '--project', projectId])).json).toEqual({ found: 2, updated: 2, gone: 0 });
    expect(await codes('category=Seasonal')).toEqual(['CAT-1', 'CAT-2']);
    expect((await admin(['backfill', 'voucher-lists', '--project', projectId])).json).toEqual({ found: 0, updated: 0, gone: 0 });
  });

  it('gives vouchers written before the change list their GSI5 entry at their last change (a changed one keeps the entry its change set), and a rerun finds nothing', async () => {
    const { runtime, projectId, api, clock } = await publicationSetup();
    const discount = { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } };
    for (const code of ['OLD-A', 'OLD-B', 'OLD-C']) {
      expect((await api.call('create-voucher', { params: { code }, json: discount })).status).toBe(200);
      clock.advance(60_000);
    }
    expect((await api.call('update-voucher', { params: { code: 'OLD-A' }, json: { metadata: { n: 1 } } })).status).toBe(200);
    // The layout before the change list: no GSI5 entry.
    for (const code of ['OLD-A', 'OLD-B', 'OLD-C']) {
      await runtime.ddb.send(
        new UpdateCommand({
          TableName: runtime.tableName,
          Key: voucherEntity.key(projectId, code),
          UpdateExpression: 'REMOVE #u, #us',
          ExpressionAttributeNames: { '#u': gsi5.partitionKey, '#us': gsi5.sortKey },
        }),
      );
    }
    const codes = async (query: string) => ((await api.call('list-vouchers', { query })).json.vouchers as { code: string }[]).map((v) => v.code);
    expect(await codes('order=-updated_at')).toEqual([]);
    // A change before the backfill puts its voucher back in the list by itself.
    clock.advance(60_000);
    expect((await api.call('disable-voucher', { params: { code: 'OLD-C' } })).status).toBe(200);
    expect(await codes('order=-updated_at')).toEqual(['OLD-C']);

    expect((await admin(['backfill', 'voucher-lists', '--project', projectId])).json).toEqual({ found: 2, updated: 2, gone: 0 });
    expect(await codes('order=-updated_at')).toEqual(['OLD-C', 'OLD-A', 'OLD-B']);
    expect((await admin(['backfill', 'voucher-lists', '--project', projectId])).json).toEqual({ found: 0, updated: 0, gone: 0 });
  });
});
