import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { MAX_CATEGORIES_PER_PROJECT } from '../../../lib/categories/category.js';
import { countCategories } from '../../../lib/categories/category.repo.js';
import { ManualClock } from '../../../lib/clock.js';
import { keys } from '../../../lib/db/keys.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 9, 5, 10, 0, 0);
const MINUTE = 60_000;

async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const create = (json: unknown) => api.call('create-category', { json });
  const get = (categoryId: string) => api.call('get-category', { params: { categoryId } });
  const update = (categoryId: string, json: unknown) => api.call('update-category', { params: { categoryId }, json });
  const remove = (categoryId: string) => api.call('delete-category', { params: { categoryId } });
  const list = () => api.call('list-categories');
  const names = async () => ((await list()).json.data as { name: string }[]).map((c) => c.name);
  return { clock, runtime, pair, api, create, get, update, remove, list, names, campaigns: campaignApi(runtime, pair) };
}

describe('categories: create, get, list, update, delete', () => {
  it('creates a category, reads it back, renames and re-ranks it, and deletes it', async () => {
    const { clock, create, get, update, remove, list } = await setup();
    const made = await create({ name: 'Summer', hierarchy: 3 });
    expect(made.status).toBe(200);
    expect(made.json).toEqual({ id: expect.stringMatching(/^cat_/), name: 'Summer', hierarchy: 3, object: 'category', created_at: new Date(at).toISOString() });
    const id = made.json.id as string;
    expect((await get(id)).json).toEqual(made.json);

    clock.advance(MINUTE);
    const updated = await update(id, { name: 'Winter', hierarchy: 1 });
    expect(updated.status).toBe(200);
    expect(updated.json).toEqual({ ...made.json, name: 'Winter', hierarchy: 1, updated_at: new Date(at + MINUTE).toISOString() });
    expect((await get(id)).json).toEqual(updated.json);
    expect((await list()).json).toEqual({ object: 'list', data_ref: 'data', data: [updated.json], total: 1 });

    const deleted = await remove(id);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    const gone = await get(id);
    expect(gone.status).toBe(404);
    expect(gone.json).toMatchObject({ code: 404, key: 'not_found', resource_type: 'category', resource_id: id, details: `Cannot find category with id ${id}` });
    expect((await list()).json).toEqual({ object: 'list', data_ref: 'data', data: [], total: 0 });
  });

  it('refreshes updated_at on every update, even one that changes nothing', async () => {
    const { clock, create, update } = await setup();
    const id = (await create({ name: 'Same', hierarchy: 2 })).json.id as string;
    clock.advance(MINUTE);
    expect((await update(id, { name: 'Same', hierarchy: 2 })).json.updated_at).toBe(new Date(at + MINUTE).toISOString());
    clock.advance(MINUTE);
    expect((await update(id, { name: 'Same', hierarchy: 2 })).json.updated_at).toBe(new Date(at + 2 * MINUTE).toISOString());
  });

  it('lists categories by hierarchy, highest first, newest first among equals', async () => {
    const { clock, create, names } = await setup();
    for (const [name, hierarchy] of [
      ['One', 1],
      ['Ten', 10],
      ['Two', 2],
      ['Two again', 2],
      ['Zero', 0],
      ['Hundred', 100],
    ] as const) {
      expect((await create({ name, hierarchy })).status).toBe(200);
      clock.advance(1000);
    }
    expect(await names()).toEqual(['Hundred', 'Ten', 'Two again', 'Two', 'One', 'Zero']);
  });

  it('pages the list with limit and page, total counting every category; no limit lists them all', async () => {
    const { api, clock, create } = await setup();
    for (const [name, hierarchy] of [
      ['A', 5],
      ['B', 4],
      ['C', 3],
      ['D', 2],
      ['E', 1],
    ] as const) {
      expect((await create({ name, hierarchy })).status).toBe(200);
      clock.advance(1000);
    }
    const page = async (query: string) => {
      const reply = await api.call('list-categories', { query });
      expect(reply.status, query).toBe(200);
      return { names: (reply.json.data as { name: string }[]).map((c) => c.name), total: reply.json.total };
    };
    expect(await page('limit=2')).toEqual({ names: ['A', 'B'], total: 5 });
    expect(await page('limit=2&page=2')).toEqual({ names: ['C', 'D'], total: 5 });
    expect(await page('limit=2&page=3')).toEqual({ names: ['E'], total: 5 });
    expect(await page('limit=2&page=4')).toEqual({ names: [], total: 5 });
    expect(await page('')).toEqual({ names: ['A', 'B', 'C', 'D', 'E'], total: 5 });
    expect(await page('page=1')).toEqual({ names: ['A', 'B', 'C', 'D', 'E'], total: 5 });
    // Without limit one page holds every category.
    expect(await page('page=2')).toEqual({ names: [], total: 5 });
    for (const query of ['limit=0', 'limit=101', 'page=0', 'page=100', 'limit=x']) {
      const reply = await api.call('list-categories', { query });
      expect(reply.status, query).toBe(400);
      expect(reply.json).toMatchObject({ key: 'invalid_query_params' });
    }
  });

  it('moves a category in the list when its hierarchy changes', async () => {
    const { create, update, names } = await setup();
    const low = (await create({ name: 'Low', hierarchy: 1 })).json.id as string;
    await create({ name: 'High', hierarchy: 5 });
    expect(await names()).toEqual(['High', 'Low']);
    await update(low, { name: 'Low', hierarchy: 9 });
    expect(await names()).toEqual(['Low', 'High']);
  });

  it('refuses a name another category has with 409 duplicate_found, case-sensitively', async () => {
    const { create, names } = await setup();
    expect((await create({ name: 'Shoes', hierarchy: 1 })).status).toBe(200);
    const dup = await create({ name: 'Shoes', hierarchy: 2 });
    expect(dup.status).toBe(409);
    expect(dup.json).toMatchObject({
      code: 409,
      key: 'duplicate_found',
      resource_type: 'category',
      resource_id: 'Shoes',
      details: 'Duplicated category exists with name Shoes',
    });
    expect((await create({ name: 'shoes', hierarchy: 2 })).status).toBe(200);
    expect((await names()).sort()).toEqual(['Shoes', 'shoes']);
  });

  it('requires name and hierarchy on create and update, hierarchy a whole number from 0', async () => {
    const { create, update } = await setup();
    const id = (await create({ name: 'Ok', hierarchy: 0 })).json.id as string;
    for (const body of [
      { hierarchy: 1 },
      { name: 'X' },
      { name: '', hierarchy: 1 },
      { name: 'X', hierarchy: -1 },
      { name: 'X', hierarchy: 1.5 },
      { name: 'X', hierarchy: '1' },
    ]) {
      for (const reply of [await create(body), await update(id, body)]) {
        expect(reply.status, JSON.stringify(body)).toBe(400);
        expect(reply.json).toMatchObject({ code: 400, key: 'invalid_payload' });
      }
    }
    expect((await create({ name: 'x'.repeat(201), hierarchy: 1 })).status).toBe(400);
    expect((await create({ name: 'Big', hierarchy: 2_147_483_648 })).status).toBe(400);
    expect((await create({ name: 'Big', hierarchy: 2_147_483_647 })).status).toBe(200);
  });

  it('answers 404 not_found to get, update and delete of an unknown category, and writes nothing', async () => {
    const { get, update, remove, list, runtime, pair } = await setup();
    for (const reply of [await get('cat_nope'), await update('cat_nope', { name: 'A', hierarchy: 1 }), await remove('cat_nope')]) {
      expect(reply.status).toBe(404);
      expect(reply.json).toMatchObject({ key: 'not_found', resource_type: 'category', resource_id: 'cat_nope' });
    }
    expect((await list()).json.total).toBe(0);
    expect(await countCategories(runtime, pair.project_id)).toBe(0);
  });

  it("answers 404 for another project's category and leaves it as it was", async () => {
    const { runtime, create, get } = await setup();
    const theirs = (await create({ name: 'Theirs', hierarchy: 4 })).json;
    const other = apiClient({ runtime }, keyPairHeaders(await newProject(runtime)));
    const id = theirs.id as string;
    expect((await other.call('get-category', { params: { categoryId: id } })).status).toBe(404);
    expect((await other.call('update-category', { params: { categoryId: id }, json: { name: 'Mine', hierarchy: 0 } })).status).toBe(404);
    expect((await other.call('delete-category', { params: { categoryId: id } })).status).toBe(404);
    expect((await other.call('list-categories')).json).toMatchObject({ data: [], total: 0 });
    // The other project may use the same name: names are unique per project.
    expect((await other.call('create-category', { json: { name: 'Theirs', hierarchy: 4 } })).status).toBe(200);
    expect((await get(id)).json).toEqual(theirs);
  });
});

describe('category names: one reservation per name, moved and freed with the category', () => {
  it('refuses a rename to a name another category has, and changes nothing', async () => {
    const { create, update, get } = await setup();
    const a = (await create({ name: 'A', hierarchy: 1 })).json;
    await create({ name: 'B', hierarchy: 2 });
    const refused = await update(a.id as string, { name: 'B', hierarchy: 7 });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ key: 'duplicate_found', resource_type: 'category', resource_id: 'B' });
    expect((await get(a.id as string)).json).toEqual(a);
  });

  it('frees the old name on a rename: a new category may take it, the renamed one keeps its id', async () => {
    const { create, update, get, names } = await setup();
    const id = (await create({ name: 'Old', hierarchy: 1 })).json.id as string;
    expect((await update(id, { name: 'New', hierarchy: 1 })).status).toBe(200);
    expect((await create({ name: 'New', hierarchy: 1 })).status).toBe(409);
    const taker = await create({ name: 'Old', hierarchy: 2 });
    expect(taker.status).toBe(200);
    expect(taker.json.id).not.toBe(id);
    expect((await get(id)).json.name).toBe('New');
    expect(await names()).toEqual(['Old', 'New']);
  });

  it('frees the name of a deleted category: the same name makes a new category with a new id', async () => {
    const { create, remove, get } = await setup();
    const first = (await create({ name: 'Again', hierarchy: 1 })).json.id as string;
    expect((await remove(first)).status).toBe(204);
    const second = await create({ name: 'Again', hierarchy: 1 });
    expect(second.status).toBe(200);
    expect(second.json.id).not.toBe(first);
    expect((await get(first)).status).toBe(404);
  });

  it('makes one category of 20 parallel creates with one name; the others get 409', async () => {
    const { create, list, runtime, pair } = await setup();
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => create({ name: 'Race', hierarchy: i })));
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(19).fill(409)]);
    for (const r of replies.filter((x) => x.status === 409)) expect(r.json).toMatchObject({ key: 'duplicate_found' });
    const winner = replies.find((r) => r.status === 200)?.json;
    expect((await list()).json).toMatchObject({ data: [winner], total: 1 });
    expect(await countCategories(runtime, pair.project_id)).toBe(1);
  });

  it('gives a name to exactly one of 10 parallel renames to it', async () => {
    const { create, update, names } = await setup();
    const ids = await Promise.all(Array.from({ length: 10 }, async (_, i) => (await create({ name: `C${i}`, hierarchy: i })).json.id as string));
    const replies = await Promise.all(ids.map((id) => update(id, { name: 'Crown', hierarchy: 0 })));
    expect(replies.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    const list = await names();
    expect(list.filter((n) => n === 'Crown')).toHaveLength(1);
    expect(list).toHaveLength(10);
  });

  it('deletes a category once under 10 parallel deletes: one 204, the rest 404, and the counter drops by one', async () => {
    const { create, remove, runtime, pair } = await setup();
    const id = (await create({ name: 'Once', hierarchy: 0 })).json.id as string;
    await create({ name: 'Stays', hierarchy: 0 });
    const replies = await Promise.all(Array.from({ length: 10 }, () => remove(id)));
    expect(replies.map((r) => r.status).sort()).toEqual([204, ...Array(9).fill(404)]);
    expect(await countCategories(runtime, pair.project_id)).toBe(1);
  });

  it('keeps the last of concurrent updates of one category whole: name and hierarchy of one request, one name reserved', async () => {
    const { create, update, get, names } = await setup();
    const id = (await create({ name: 'Start', hierarchy: 0 })).json.id as string;
    const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => update(id, { name: `N${i}`, hierarchy: i })));
    expect(replies.every((r) => r.status === 200)).toBe(true);
    const final = (await get(id)).json;
    expect(final.name).toBe(`N${final.hierarchy as number}`);
    expect(await names()).toEqual([final.name]);
    // Every other name is free again: only the final one is reserved.
    for (let i = 0; i < 8; i += 1) if (`N${i}` !== final.name) expect((await create({ name: `N${i}`, hierarchy: 0 })).status).toBe(200);
    expect((await create({ name: final.name as string, hierarchy: 0 })).status).toBe(409);
    expect((await create({ name: 'Start', hierarchy: 0 })).status).toBe(200);
  });
});

describe('at most 1,000 categories per project', () => {
  /** Sets the project's category counter as if it had `count` categories. */
  const fill = async (runtime: ReturnType<typeof testRuntime>, projectId: string, count: number) =>
    runtime.ddb.send(new PutCommand({ TableName: runtime.tableName, Item: { ...keys.categoryCounter(projectId), entity: 'category_counter', v: 1, count } }));

  it('creates the 1,000th category and refuses the next with 400 too_many_categories; a deletion makes room', async () => {
    const { runtime, pair, create, remove } = await setup();
    await fill(runtime, pair.project_id, MAX_CATEGORIES_PER_PROJECT - 1);
    const last = await create({ name: 'Last', hierarchy: 0 });
    expect(last.status).toBe(200);
    const over = await create({ name: 'Over', hierarchy: 0 });
    expect(over.status).toBe(400);
    expect(over.json).toMatchObject({ code: 400, key: 'too_many_categories', resource_type: 'category' });
    expect((await remove(last.json.id as string)).status).toBe(204);
    expect((await create({ name: 'Over', hierarchy: 0 })).status).toBe(200);
  });

  it('refuses a campaign or voucher that would make a new category past the cap, and writes neither', async () => {
    const { runtime, pair, campaigns, names } = await setup();
    const host = await newCampaign(campaigns, campaignBodies.DISCOUNT_COUPONS('Host'));
    await fill(runtime, pair.project_id, MAX_CATEGORIES_PER_PROJECT);
    const campaign = await campaigns.createCampaign({ ...campaignBodies.DISCOUNT_COUPONS('Tagged'), category: 'New tag' });
    expect(campaign.status).toBe(400);
    expect(campaign.json).toMatchObject({ key: 'too_many_categories' });
    const voucher = await campaigns.addVoucher(host.id as string, { code: 'V-1', category: 'New tag' });
    expect(voucher.status).toBe(400);
    expect((await campaigns.getCampaign('Tagged')).status).toBe(404);
    expect((await campaigns.getVoucher('V-1')).status).toBe(404);
    expect(await names()).toEqual([]);
  });

  it('gives the last free place to one of 10 parallel creates with different names', async () => {
    const { runtime, pair, create } = await setup();
    await fill(runtime, pair.project_id, MAX_CATEGORIES_PER_PROJECT - 1);
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => create({ name: `P${i}`, hierarchy: 0 })));
    expect(replies.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(400)]);
    expect(await countCategories(runtime, pair.project_id)).toBe(MAX_CATEGORIES_PER_PROJECT);
  });
});

describe('categories stored before categories could be listed', () => {
  /** A category and its name as the code before the category endpoints wrote them: no GSI1 key, no revision, not counted. */
  async function legacy(runtime: ReturnType<typeof testRuntime>, projectId: string, id: string, name: string) {
    const put = (Item: Record<string, unknown>) => runtime.ddb.send(new PutCommand({ TableName: runtime.tableName, Item }));
    await put({ ...keys.categoryName(projectId, name), entity: 'category_name', v: 1, categoryId: id });
    await put({ ...keys.category(projectId, id), entity: 'category', v: 1, id, name, hierarchy: 0, createdAt: new Date(at).toISOString(), updatedAt: null });
  }

  it('reads them, lists and counts them from their first update on, and uncounts them when deleted', async () => {
    const { runtime, pair, get, update, remove, list } = await setup();
    await legacy(runtime, pair.project_id, 'cat_old1', 'Old one');
    await legacy(runtime, pair.project_id, 'cat_old2', 'Old two');
    expect((await get('cat_old1')).json).toMatchObject({ id: 'cat_old1', name: 'Old one', hierarchy: 0 });
    expect((await list()).json.total).toBe(0);

    expect((await update('cat_old1', { name: 'Renamed', hierarchy: 2 })).status).toBe(200);
    expect((await list()).json).toMatchObject({ total: 1, data: [{ id: 'cat_old1', name: 'Renamed', hierarchy: 2 }] });
    expect(await countCategories(runtime, pair.project_id)).toBe(1);

    // The unlisted one is deleted without touching the counter; the listed one takes its count with it.
    expect((await remove('cat_old2')).status).toBe(204);
    expect(await countCategories(runtime, pair.project_id)).toBe(1);
    expect((await remove('cat_old1')).status).toBe(204);
    expect(await countCategories(runtime, pair.project_id)).toBe(0);
  });
});
