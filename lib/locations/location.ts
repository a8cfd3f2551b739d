/** A circle: its centre as `geo:<lat>,<lon>` and its radius as the reference writes it (e.g. `5 km`). */
export interface CircleShape {
  type: 'circle';
  format: 'distance';
  distance: { center: string; radius: string };
}

/** A polygon or a multi-polygon in GeoJSON's coordinates. */
export interface PolygonShape {
  type: 'polygon';
  format: 'geojson';
  geojson: { type: 'Polygon'; coordinates: number[][][] } | { type: 'MultiPolygon'; coordinates: number[][][][] };
}

/** A named area of a project (the reference's Location), made by the operator CLI (`location create`). */
export interface Location {
  /** `loc_…` */
  id: string;
  projectId: string;
  name: string;
  shape: CircleShape | PolygonShape;
  createdAt: string;
  updatedAt: string | null;
}

/** Locations one project may hold: list-locations reads them all to filter and order them. */
export const MAX_LOCATIONS_PER_PROJECT = 1000;
