import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, onTestFinished } from 'vitest';
import { newAsyncAction } from '../../../lib/async-actions/async-action.js';
import { backfillAsyncActionList } from '../../../lib/async-actions/async-action-list-backfill.js';
import { insertAsyncAction } from '../../../lib/async-actions/async-action.repo.js';
import { ManualClock } from '../../../lib/clock.js';
import { asyncAction } from '../../../lib/db/entities.js';
import { RecordingJobQueue } from '../../support/api.js';
import { createOwnTable } from '../../support/hostile/route-harness.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

type Json = Record<string, unknown>;

/** `tableName`: a table of the test's own, for the backfill (it Scans: on the suite's shared table that is every test's items). */
async function setup(tableName?: string) {
  const clock = new ManualClock(new Date('2026-03-01T10:00:00.000Z'));
  const runtime = testRuntime({ clock, ...(tableName ? { tableName } : {}) });
  const pair = await newProject(runtime);
  const jobs = new RecordingJobQueue();
  const api = apiClient({ runtime, jobs }, keyPairHeaders(pair));
  /** Starts an import of one voucher (a VOUCHERS.IMPORT action), a second after the last. @returns its id. */
  const importOne = async (code: string): Promise<string> => {
    clock.advance(1000);
    const reply = await api.call('import-vouchers', { json: [{ code, type: 'GIFT_VOUCHER', gift: { amount: 100 } }] });
    expect(reply.status, JSON.stringify(reply.json)).toBe(202);
    return reply.json.async_action_id as string;
  };
  return { runtime, clock, projectId: pair.project_id, api, jobs, importOne };
}

const idsOf = (reply: { json: Json }): string[] => (reply.json.async_actions as Json[]).map((a) => a.id as string);

describe('GET /v1/async-actions', () => {
  it('lists the project’s actions newest first, limit at a time, paged on with end_date = the last created_at', async () => {
    const { api, importOne, jobs, runtime } = await setup();
    const made = [await importOne('A-1'), await importOne('A-2'), await importOne('A-3')];
    await jobs.deliver(runtime);
    const first = await api.call('list-async-actions', { query: 'limit=2' });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ object: 'list', data_ref: 'async_actions', has_more: true });
    expect(idsOf(first)).toEqual([made[2], made[1]]);
    const done = await api.call('get-async-action', { params: { asyncActionId: made[2] ?? '' } });
    // The list shows each action as GET shows it, without its result.
    const { result: _result, ...withoutResult } = done.json;
    expect((first.json.async_actions as Json[])[0]).toEqual(withoutResult);
    expect(done.json).toHaveProperty('result');

    const last = (first.json.async_actions as Json[])[1]?.created_at as string;
    const second = await api.call('list-async-actions', { query: `limit=2&end_date=${encodeURIComponent(last)}` });
    expect(idsOf(second)).toEqual([made[0]]);
    expect(second.json.has_more).toBe(false);
    expect(idsOf(await api.call('list-async-actions'))).toEqual([...made].reverse());
  });

  it('end_date as a date keeps the actions created before that day; a bad date or limit is a 400 naming it', async () => {
    const { api, importOne, clock } = await setup();
    const before = await importOne('B-1');
    clock.advance(24 * 3600 * 1000);
    await importOne('B-2');
    expect(idsOf(await api.call('list-async-actions', { query: 'end_date=2026-03-02' }))).toEqual([before]);
    for (const [query, named] of [
      ['end_date=yesterday', /end_date/],
      ['limit=0', /limit/],
      ['limit=101', /limit/],
      ['page=2', /page/],
    ] as const) {
      const reply = await api.call('list-async-actions', { query });
      expect(reply.status).toBe(400);
      expect(JSON.stringify(reply.json)).toMatch(named);
    }
  });

  it('an empty project lists nothing; another project’s actions are not listed', async () => {
    const { importOne } = await setup();
    await importOne('C-1');
    const other = await setup();
    expect((await other.api.call('list-async-actions')).json).toEqual({ object: 'list', data_ref: 'async_actions', async_actions: [], has_more: false });
  });

  it('an action written before the list existed is listed once `backfill async-actions` gave it its entry', async () => {
    const table = await createOwnTable('async-backfill');
    onTestFinished(() => table.drop());
    const { api, runtime, projectId, importOne } = await setup(table.tableName);
    const listed = await importOne('D-1');
    const old = newAsyncAction(
      { id: 'aa_old0000000000000', projectId, type: 'VOUCHERS.IMPORT', requestId: 'req-old', campaignId: 'none', requested: 1 },
      '2026-01-01T00:00:00.000Z',
    );
    // As an action was written before: no GSI1 attributes.
    const { GSI1PK: _pk, GSI1SK: _sk, ...item } = asyncAction.toItem(old) as Record<string, unknown>;
    await runtime.ddb.send(new PutCommand({ TableName: runtime.tableName, Item: item }));
    expect(idsOf(await api.call('list-async-actions'))).toEqual([listed]);
    expect(await backfillAsyncActionList(runtime, projectId)).toEqual({ found: 1, updated: 1, gone: 0 });
    expect(idsOf(await api.call('list-async-actions'))).toEqual([listed, old.id]);
    expect(await backfillAsyncActionList(runtime, projectId)).toEqual({ found: 0, updated: 0, gone: 0 });
    // An action written now carries its entry from the start.
    const fresh = newAsyncAction(
      { id: 'aa_new0000000000000', projectId, type: 'VOUCHERS.IMPORT', requestId: 'req-new', campaignId: 'none', requested: 1 },
      '2026-01-02T00:00:00.000Z',
    );
    await insertAsyncAction(runtime, fresh);
    expect(idsOf(await api.call('list-async-actions'))).toEqual([listed, fresh.id, old.id]);
  });
});
