import { describe, expect, it } from 'vitest';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

/*
 * Issue 35, counted race: an AUTO_UPDATE collection whose filter flips between two halves of a cart
 * while validations read it. Each reply is classified by the lines its 50 % collection voucher
 * touched: the old half, the new half, or a mix (both halves, or part of one). A mix must never be.
 */

type Json = Record<string, unknown>;

describe('a collection changing while validations read it', () => {
  it('each validation sees the old membership or the new one, never a mix', async () => {
    const runtime = testRuntime();
    const api = apiClient({ runtime }, keyPairHeaders(await newProject(runtime)));
    const ok = async (id: string, opts: Parameters<typeof api.call>[1]) => {
      const reply = await api.call(id, opts);
      if (reply.status >= 300) throw new Error(`${id}: ${reply.status} ${JSON.stringify(reply.json)}`);
      return reply.json as Json & { id: string };
    };
    const brands = ['acme', 'other'] as const;
    const ids: Record<(typeof brands)[number], string[]> = { acme: [], other: [] };
    for (const brand of brands) {
      for (let n = 0; n < 6; n += 1) ids[brand].push((await ok('create-product', { json: { name: `${brand} ${n}`, price: 100, metadata: { brand } } })).id);
    }
    const filter = (brand: string) => ({ junction: 'and', 'metadata.brand': { conditions: { $is: [brand] } } });
    const col = await ok('create-product-collection', { json: { type: 'AUTO_UPDATE', name: 'Flip', filter: filter('acme') } });
    const voucher = await ok('create-voucher', {
      params: { code: 'FLIP50' },
      json: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 50, effect: 'APPLY_TO_ITEMS' } },
    });
    const rule = await ok('create-validation-rules', {
      json: { name: 'flip', rules: {}, applicable_to: { included: [{ object: 'products_collection', id: col.id }], excluded: [] } },
    });
    await ok('create-validation-rule-assignment', {
      params: { validationRuleId: rule.id },
      json: { related_object_type: 'voucher', related_object_id: voucher.id },
    });
    // One line per product, by id only (catalog price 100): six of each brand.
    const items = [...ids.acme, ...ids.other].map((product_id) => ({ product_id, quantity: 1 }));
    const acmeSet = ids.acme.map((_, i) => i);
    const otherSet = ids.other.map((_, i) => i + ids.acme.length);

    const seen = { acme: 0, other: 0, mix: 0 };
    const mixes: number[][] = [];
    let flipping = true;
    const validations = async () => {
      while (flipping) {
        const reply = await api.call('validate-stacked-discounts', { json: { redeemables: [{ object: 'voucher', id: 'FLIP50' }], order: { items } } });
        expect(reply.status).toBe(200);
        const entry = (reply.json as { redeemables: { order?: { items?: { discount_amount?: number }[] } }[] }).redeemables[0];
        const touched = (entry?.order?.items ?? []).flatMap((l, i) => ((l.discount_amount ?? 0) > 0 ? [i] : []));
        if (JSON.stringify(touched) === JSON.stringify(acmeSet)) seen.acme += 1;
        else if (JSON.stringify(touched) === JSON.stringify(otherSet)) seen.other += 1;
        else {
          seen.mix += 1;
          mixes.push(touched);
        }
      }
    };
    const flips = async () => {
      for (let n = 0; n < 6; n += 1)
        await ok('put-product-collection', { params: { productCollectionId: col.id }, json: { filter: filter(brands[(n + 1) % 2] as string) } });
      flipping = false;
    };
    await Promise.all([flips(), validations(), validations(), validations()]);
    expect({ mixes: mixes.slice(0, 3), ...seen }).toMatchObject({ mixes: [], mix: 0 });
    // The race was run: both answers were seen.
    expect(seen.acme).toBeGreaterThan(0);
    expect(seen.other).toBeGreaterThan(0);
    // After the last flip (to acme), the list of the collection's products is acme's.
    const listed = (await ok('list-products-in-collection', { params: { productCollectionId: col.id } })) as unknown as { data: { id: string }[] };
    expect(listed.data.map((p) => p.id).sort()).toEqual([...ids.acme].sort());
  }, 120_000);
});
