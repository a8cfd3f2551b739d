import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../scripts/admin/commands.js';
import { UsageError } from '../../../scripts/admin/usage-error.js';
import { ManualClock } from '../../../lib/clock.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

type Json = Record<string, unknown>;
const create = COMMANDS.find((c) => c.group === 'location' && c.name === 'create');
const circle = (lat: number) => ({ type: 'circle', format: 'distance', distance: { center: `geo:${lat},21.01`, radius: '5 km' } });
const square = {
  type: 'polygon',
  format: 'geojson',
  geojson: {
    type: 'Polygon',
    coordinates: [
      [
        [0, 0],
        [0, 1],
        [1, 1],
        [0, 0],
      ],
    ],
  },
};

async function setup() {
  const clock = new ManualClock();
  const runtime = testRuntime({ clock });
  const [a, b] = await Promise.all([newProject(runtime, 'locations A'), newProject(runtime, 'locations B')]);
  const make = async (projectId: string, name: string, shape: unknown): Promise<Json> => {
    clock.advance(1000);
    return (await create?.prepare([projectId], { name, shape: JSON.stringify(shape) })(runtime)) as Json;
  };
  return { runtime, a, b, make, apiA: apiClient({ runtime }, keyPairHeaders(a)), apiB: apiClient({ runtime }, keyPairHeaders(b)) };
}

describe('Locations (GET /v1/locations, GET /v1/locations/{locationId}; made by `npm run admin -- location create`)', () => {
  it('reads a location the operator made, as the CLI printed it', async () => {
    const { a, make, apiA } = await setup();
    const made = await make(a.project_id, 'Warsaw centre', circle(52.23));
    expect(made).toEqual({
      id: expect.stringMatching(/^loc_/),
      object: 'location',
      name: 'Warsaw centre',
      shape: circle(52.23),
      created_at: expect.any(String),
      updated_at: null,
    });
    const got = await apiA.call('get-location', { params: { locationId: made.id as string } });
    expect(got.status, JSON.stringify(got.json)).toBe(200);
    expect(got.json).toEqual(made);
    const missing = await apiA.call('get-location', { params: { locationId: 'loc_nope' } });
    expect(missing.json).toMatchObject({ code: 404, key: 'not_found', resource_type: 'location', resource_id: 'loc_nope' });
  });

  it('lists by creation, either way, with limit, has_more, total and name filters', async () => {
    const { a, make, apiA } = await setup();
    const names = ['Store 1', 'Store 2', 'Depot', 'Store 3'];
    const ids: string[] = [];
    for (const [i, name] of names.entries()) ids.push((await make(a.project_id, name, i % 2 ? square : circle(50 + i))).id as string);
    const all = await apiA.call('list-locations');
    expect(all.status, JSON.stringify(all.json)).toBe(200);
    expect(all.json).toMatchObject({ object: 'list', data_ref: 'data', total: 4, has_more: false });
    expect((all.json.data as Json[]).map((l) => l.id)).toEqual(ids);
    const page = await apiA.call('list-locations', { query: 'limit=2&order=-created_at' });
    expect((page.json.data as Json[]).map((l) => l.name)).toEqual(['Store 3', 'Depot']);
    expect(page.json).toMatchObject({ total: 4, has_more: true });
    const stores = await apiA.call('list-locations', { query: 'filters[name][conditions][$starts_with]=Store&limit=2' });
    expect((stores.json.data as Json[]).map((l) => l.name)).toEqual(['Store 1', 'Store 2']);
    expect(stores.json).toMatchObject({ total: 3, has_more: true });
    for (const query of ['filters[created_at][conditions][$after]=2020-01-01T00:00:00Z', 'end_date=2020-01-01', 'order=name', 'limit=0']) {
      expect((await apiA.call('list-locations', { query })).status, query).toBe(400);
    }
  });

  it("never shows one project's locations to another", async () => {
    const { a, make, apiB } = await setup();
    const made = await make(a.project_id, 'Only A', circle(10));
    expect((await apiB.call('get-location', { params: { locationId: made.id as string } })).status).toBe(404);
    expect((await apiB.call('list-locations')).json).toMatchObject({ data: [], total: 0, has_more: false });
  });

  it('refuses a malformed shape or name in the CLI, and a project that does not exist', async () => {
    const { runtime } = await setup();
    expect(() => create?.prepare(['proj_x'], { name: 'X', shape: '{' })).toThrow(UsageError);
    expect(() =>
      create?.prepare(['proj_x'], { name: 'X', shape: JSON.stringify({ type: 'circle', format: 'distance', distance: { center: 'Warsaw', radius: '1 km' } }) }),
    ).toThrow(UsageError);
    expect(() => create?.prepare(['proj_x'], { name: '', shape: JSON.stringify(circle(1)) })).toThrow(UsageError);
    await expect(create?.prepare(['proj_nope'], { name: 'X', shape: JSON.stringify(circle(1)) })(runtime)).rejects.toMatchObject({ status: 404 });
  });
});
