/** Types a custom event's metadata property can have (Voucherify's custom event schema types). */
export const PROPERTY_TYPES = ['string', 'number', 'boolean', 'date', 'datetime'] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

export interface EventPropertyDefinition {
  type: PropertyType;
  /** false = every event of this name must carry the property. */
  optional: boolean;
  /** A deleted property is kept in the schema but no longer checked. */
  deleted: boolean;
}

/** One custom event the project accepts on POST /v1/events, and the metadata it carries. */
export interface CustomEventSchema {
  id: string;
  projectId: string;
  /** The event name: unique per project, case-sensitive, 1 to 300 characters. */
  name: string;
  properties: Record<string, EventPropertyDefinition>;
  createdAt: string;
  updatedAt: string | null;
}
