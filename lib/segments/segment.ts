/** How a segment's membership is kept (the reference's `type`). */
export type SegmentType = 'static' | 'auto-update' | 'passive';

/** The most segments a project holds: a customer write reads them all in one Query to recompute its auto-update memberships. */
export const MAX_SEGMENTS_PER_PROJECT = 100;
/** The most customers a static segment lists, and the most a new auto-update or passive segment scans for its first members. */
export const MAX_SEGMENT_SCAN = 1000;

/** A segment of the project's customers (`seg_...`). */
export interface Segment {
  id: string;
  name: string;
  type: SegmentType;
  /** The filter as sent (auto-update and passive); null for static segments. */
  filter: Record<string, unknown> | null;
  /** A static segment's customers (ids); empty for the others. */
  customerIds: string[];
  createdAt: string;
}
