import * as z from '../zod.js';
import { stringFilters } from '../filter-conditions.schema.js';
import { nestQuery, queryInt } from '../http/query-params.js';
import { refusedField } from '../not-built.schema.js';

export const locationParams = z.strictObject({ locationId: z.string().check(z.minLength(1), z.maxLength(100)) });

/** Longest location name (the CLI refuses longer ones). */
export const MAX_LOCATION_NAME = 200;

/**
 * GET /v1/locations: `limit`, `order` by creation, and `filters` on `name` (FilterConditionsString).
 * The date filters (`filters[created_at|updated_at]`, `end_date`) are refused by name rather than
 * ignored: an ignored filter would list locations the client excluded.
 */
export const listLocationsQuery = z.preprocess(
  (q) => nestQuery(q as Record<string, string>),
  z.strictObject({
    limit: z._default(queryInt(1, 100), 10),
    order: z._default(z.enum(['created_at', '-created_at']), 'created_at'),
    filters: z.optional(stringFilters(['name'], MAX_LOCATION_NAME, 'locations')),
    end_date: refusedField('filtering locations by date is not served'),
  }),
);
export type ListLocationsQuery = z.output<typeof listLocationsQuery>;

const coordinate = z.number().check(z.minimum(-180), z.maximum(180));
const ring = z.array(z.array(coordinate).check(z.minLength(2), z.maxLength(3))).check(z.minLength(4), z.maxLength(10_000));
const polygon = z.array(ring).check(z.minLength(1), z.maxLength(100));

/** What `npm run admin -- location create` accepts as `--shape` (the reference's LocationShapeCircle / LocationShapePolygon). */
export const locationShape = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('circle'),
    format: z.literal('distance'),
    distance: z.strictObject({
      center: z.string().check(z.regex(/^geo:-?\d{1,2}(\.\d+)?,-?\d{1,3}(\.\d+)?$/, 'must be geo:<latitude>,<longitude>')),
      radius: z.string().check(z.minLength(1), z.maxLength(50)),
    }),
  }),
  z.strictObject({
    type: z.literal('polygon'),
    format: z.literal('geojson'),
    geojson: z.discriminatedUnion('type', [
      z.strictObject({ type: z.literal('Polygon'), coordinates: polygon }),
      z.strictObject({ type: z.literal('MultiPolygon'), coordinates: z.array(polygon).check(z.minLength(1), z.maxLength(100)) }),
    ]),
  }),
]);

export const createLocationInput = z.strictObject({
  name: z.string().check(z.minLength(1), z.maxLength(MAX_LOCATION_NAME)),
  shape: locationShape,
});
export type CreateLocationInput = z.output<typeof createLocationInput>;
