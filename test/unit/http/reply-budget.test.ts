import { describe, expect, it } from 'vitest';
import { InvalidQueryParamsError } from '../../../lib/errors.js';
import { assertReplyFits, escapedBytes, REPLY_BUDGET_BYTES } from '../../../lib/http/reply-budget.js';

const page = (count: number, itemChars: number) => ({
  object: 'list',
  data_ref: 'orders',
  orders: Array.from({ length: count }, (_, i) => ({ id: `ord_${i}`, note: 'x'.repeat(itemChars) })),
  total: count,
  has_more: false,
});

describe('assertReplyFits', () => {
  it('lets a list within the budget through, and any reply that is not a list, however large', () => {
    const small = page(25, 1_000);
    expect(() => assertReplyFits(small, JSON.stringify(small))).not.toThrow();
    const huge = { id: 'x', note: 'y'.repeat(REPLY_BUDGET_BYTES + 10) };
    expect(() => assertReplyFits(huge, JSON.stringify(huge))).not.toThrow();
  });

  it('refuses a page over the budget with invalid_query_params naming a limit that fits', () => {
    const big = page(25, 290_000);
    let error: unknown;
    try {
      assertReplyFits(big, JSON.stringify(big));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidQueryParamsError);
    const details = (error as InvalidQueryParamsError).details ?? '';
    const limit = Number(/limit=(\d+) or fewer/.exec(details)?.[1]);
    expect(limit).toBeGreaterThan(0);
    const fitting = page(limit, 290_000);
    expect(escapedBytes(JSON.stringify(fitting))).toBeLessThanOrEqual(REPLY_BUDGET_BYTES);
    expect(() => assertReplyFits(fitting, JSON.stringify(fitting))).not.toThrow();
  });

  it('counts the body as Lambda carries it: escaped quotes and line breaks make a page over the budget that its raw size is not', () => {
    // Each `"` and newline takes two bytes once escaped: a raw size under the budget, an escaped one over it.
    const quoted = page(10, 0);
    for (const item of quoted.orders) item.note = '"\n'.repeat(Math.ceil(REPLY_BUDGET_BYTES / 30));
    const text = JSON.stringify(quoted);
    expect(Buffer.byteLength(text)).toBeLessThan(REPLY_BUDGET_BYTES * 1.5);
    expect(escapedBytes(text)).toBeGreaterThan(REPLY_BUDGET_BYTES);
    expect(() => assertReplyFits(quoted, text)).toThrow(InvalidQueryParamsError);
  });
});
