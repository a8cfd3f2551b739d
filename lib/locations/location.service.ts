import { isOr, matchesFilters, givenFilters } from '../filter-conditions.js';
import { InvalidPayloadError, NotFoundError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { type Location, MAX_LOCATIONS_PER_PROJECT } from './location.js';
import * as repo from './location.repo.js';
import type { CreateLocationInput, ListLocationsQuery } from './location.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** get-location. @throws NotFoundError (location), also for another project's location. */
export async function getLocation(deps: Deps, projectId: string, locationId: string): Promise<Location> {
  const found = await repo.getLocation(deps, projectId, locationId);
  if (!found) throw new NotFoundError('location', locationId);
  return found;
}

/**
 * list-locations: the first `limit` locations that pass the name filters, by creation (`-created_at`
 * newest first); `total` counts every location that passes. A project holds at most
 * MAX_LOCATIONS_PER_PROJECT, so the whole partition is read: one Query page or a few.
 */
export async function listLocations(
  deps: Deps,
  projectId: string,
  query: ListLocationsQuery,
): Promise<{ locations: Location[]; total: number; hasMore: boolean }> {
  const given = givenFilters(query.filters, ['name'] as const);
  const or = isOr(query.filters?.junction);
  const all = (await repo.listLocations(deps, projectId)).filter((l) => matchesFilters(given, or, () => l.name));
  if (query.order === '-created_at') all.reverse();
  return { locations: all.slice(0, query.limit), total: all.length, hasMore: all.length > query.limit };
}

/**
 * The operator CLI's `location create`: a location of the project, for GET /v1/locations.
 * @throws InvalidPayloadError when the project holds MAX_LOCATIONS_PER_PROJECT already.
 */
export async function createLocation(deps: Deps & Pick<Runtime, 'clock' | 'ids'>, projectId: string, input: CreateLocationInput): Promise<Location> {
  if ((await repo.countLocations(deps, projectId)) >= MAX_LOCATIONS_PER_PROJECT)
    throw new InvalidPayloadError(`A project holds at most ${MAX_LOCATIONS_PER_PROJECT} locations`);
  const value: Location = {
    id: deps.ids.id('loc'),
    projectId,
    name: input.name,
    shape: input.shape,
    createdAt: deps.clock.now().toISOString(),
    updatedAt: null,
  };
  if (!(await repo.insertLocation(deps, value))) throw new Error(`Location id ${value.id} is already taken`);
  return value;
}
