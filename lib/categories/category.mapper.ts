import type { Category } from './category.js';
import type { CategoryPage } from './category.service.js';
import type { CategoryListReply, CategoryReply } from './category.reply.js';

export type { CategoryReply };

/** Voucherify's category object; `updated_at` only once the category was updated. */
export const toCategoryReply = (c: Category): CategoryReply => ({
  id: c.id,
  name: c.name,
  hierarchy: c.hierarchy,
  object: 'category',
  created_at: c.createdAt,
  ...(c.updatedAt ? { updated_at: c.updatedAt } : {}),
});

export const toCategoryListReply = (page: CategoryPage): CategoryListReply => ({
  object: 'list',
  data_ref: 'data',
  data: page.categories.map(toCategoryReply),
  total: page.total,
});
