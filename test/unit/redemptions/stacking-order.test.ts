import { describe, expect, it } from 'vitest';
import { applicationOrder } from '../../../lib/redemptions/stacking-order.js';

const r = (id: string, ...hierarchies: number[]) => ({ id, categories: hierarchies.map((hierarchy) => ({ hierarchy })) });

describe('applicationOrder', () => {
  const sent = [r('none'), r('third', 3), r('first', 1), r('best-of-two', 5, 2), r('also-first', 1)];

  it('applies redeemables as sent under REQUESTED_ORDER, the default', () => {
    expect(applicationOrder(sent).map((x) => x.id)).toEqual(['none', 'third', 'first', 'best-of-two', 'also-first']);
  });

  it('applies lower category hierarchies first under CATEGORY_HIERARCHY, uncategorised last, ties as sent', () => {
    expect(applicationOrder(sent, 'CATEGORY_HIERARCHY').map((x) => x.id)).toEqual(['first', 'also-first', 'best-of-two', 'third', 'none']);
  });

  it('leaves the array it was given as it was', () => {
    const copy = [...sent];
    applicationOrder(sent, 'CATEGORY_HIERARCHY');
    expect(sent).toEqual(copy);
  });
});
