import type { Category } from './category.js';

export interface CategoryReply {
  id: string;
  name: string;
  hierarchy: number;
  object: 'category';
  created_at: string;
  updated_at?: string;
}

export const toCategoryReply = (c: Category): CategoryReply => ({
  id: c.id,
  name: c.name,
  hierarchy: c.hierarchy,
  object: 'category',
  created_at: c.createdAt,
  ...(c.updatedAt ? { updated_at: c.updatedAt } : {}),
});
