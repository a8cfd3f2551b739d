import type { Category } from './category.js';
import type { CategoryReply } from './category.reply.js';

export type { CategoryReply };

export const toCategoryReply = (c: Category): CategoryReply => ({
  id: c.id,
  name: c.name,
  hierarchy: c.hierarchy,
  object: 'category',
  created_at: c.createdAt,
  ...(c.updatedAt ? { updated_at: c.updatedAt } : {}),
});
