import { location } from '../db/entities.js';
import { transact } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { Location } from './location.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** A location by id (strongly consistent); null if none. */
export function getLocation(deps: Deps, projectId: string, locationId: string): Promise<Location | null> {
  return location.get(deps, location.key(projectId, locationId));
}

/** Every location of a project, oldest first (GSI1: a location made a moment ago may be missing for a moment). */
export function listLocations(deps: Deps, projectId: string): Promise<Location[]> {
  return location.query(deps, { index: [projectId] });
}

/** How many locations the project holds (a Select COUNT of its GSI1 partition). */
export function countLocations(deps: Deps, projectId: string): Promise<number> {
  return location.count(deps, { index: [projectId] });
}

/** Writes a new location. @returns false when its id is taken (a bug: ids are random). */
export async function insertLocation(deps: Deps, value: Location): Promise<boolean> {
  return (await transact(deps, [location.putIfAbsent(deps, value)])).ok;
}
