import type { Segment } from './segment.js';
import type { CustomerSegmentListReply, SegmentListReply, SegmentReply } from './segment.reply.js';

/** Voucherify's segment object. */
export const toSegmentReply = (s: Segment): SegmentReply => ({
  id: s.id,
  name: s.name,
  created_at: s.createdAt,
  updated_at: null,
  type: s.type,
  filter: s.filter,
  object: 'segment',
});

export const toSegmentListReply = (page: { segments: Segment[]; total: number }): SegmentListReply => ({
  object: 'list',
  data_ref: 'data',
  data: page.segments.map(toSegmentReply),
  total: page.total,
});

export const toCustomerSegmentListReply = (segments: Segment[]): CustomerSegmentListReply => ({
  object: 'list',
  data_ref: 'data',
  data: segments.map((s) => ({ id: s.id, name: s.name, object: 'segment' as const })),
  total: segments.length,
});
