import type { Category } from '../categories/category.js';
import { toCategoryReply } from '../categories/category.mapper.js';
import type { PromotionStack } from './promotion-stack.js';
import type { PromotionStackListReply, PromotionStackReply } from './promotion-stack.reply.js';

/** A stack with the category it names as it is now (none when it names none or the category is gone). */
export interface StackWithCategory {
  stack: PromotionStack;
  category: Category | null;
}

export const toPromotionStackReply = ({ stack: s, category }: StackWithCategory): PromotionStackReply => ({
  id: s.id,
  name: s.name,
  created_at: s.createdAt,
  ...(s.updatedAt ? { updated_at: s.updatedAt } : {}),
  campaign_id: s.campaignId,
  object: 'promotion_stack',
  tiers: { ids: s.tierIds, hierarchy_mode: s.hierarchyMode },
  category_id: s.categoryId,
  categories: category ? [toCategoryReply(category)] : [],
});

export const toPromotionStackListReply = (stacks: readonly StackWithCategory[], total: number): PromotionStackListReply => ({
  object: 'list',
  data_ref: 'data',
  data: stacks.map(toPromotionStackReply),
  total,
});
