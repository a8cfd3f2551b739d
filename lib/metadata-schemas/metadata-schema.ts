/** Types a metadata property can have (the reference's metadata schema definition types). */
export const METADATA_TYPES = ['string', 'number', 'object', 'date', 'datetime', 'geopoint', 'boolean', 'image_url'] as const;
export type MetadataType = (typeof METADATA_TYPES)[number];

/** The objects whose writes this deployment checks against their schema (docs/decisions.md "Metadata schemas"). */
export const ENFORCED_OBJECTS = ['customer', 'campaign', 'voucher', 'product', 'order'] as const;
export type EnforcedObject = (typeof ENFORCED_OBJECTS)[number];

/** One property of a metadata schema; a constraint the operator did not set is null. */
export interface MetadataPropertyDefinition {
  type: MetadataType;
  /** false = every object the schema describes must carry the property. */
  optional: boolean;
  /** true = the value is an array whose every element has `type` and the constraints. */
  array: boolean;
  /** A deleted property is kept in the schema (and shown) but no longer checked nor defined. */
  deleted: boolean;
  /** The custom schema a nested object follows (shown only: nested objects are not checked). */
  objectType: string | null;
  minLength: number | null;
  maxLength: number | null;
  exactLength: number | null;
  /** Allowed values (strings or numbers). */
  eq: (string | number)[] | null;
  /** Refused numbers. */
  ne: number[] | null;
  lt: number | null;
  lte: number | null;
  gt: number | null;
  gte: number | null;
}

/** A project's metadata schema of one related object (`customer`, `order`, … or a custom name). */
export interface MetadataSchema {
  id: string;
  projectId: string;
  /** Unique per project, case-sensitive. */
  relatedObject: string;
  properties: Record<string, MetadataPropertyDefinition>;
  /** true = keys the schema does not define are refused; null = never set (treated as false). */
  allowDefinedOnly: boolean | null;
  createdAt: string;
  updatedAt: string | null;
  /** Bumped by every update: an update holds only if the schema is still as read. */
  revision: number;
}
