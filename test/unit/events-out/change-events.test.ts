import { describe, expect, it } from 'vitest';
import { outboxStreamWorker } from '../../../lib/api/workers.js';
import * as entities from '../../../lib/db/entities.js';
import { EMITTED_EVENTS, EVENT_ENTITIES, eventsOfChange } from '../../../lib/events-out/change-events.js';
import { WEBHOOK_EVENTS } from '../../../lib/webhooks/webhook.js';
import type { Campaign } from '../../../lib/campaigns/campaign.js';
import type { LoyaltyTier } from '../../../lib/loyalties/tier.js';
import { pendingEntry } from '../../support/pending-points.js';

const customer = (over: Record<string, unknown> = {}) =>
  entities.customer.toItem({
    id: 'cust_1',
    projectId: 'p1',
    sourceId: 'ann',
    name: 'Ann',
    email: null,
    phone: null,
    birthdate: null,
    description: null,
    address: null,
    metadata: {},
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: null,
    revision: 0,
    listed: true,
    ...over,
  } as never);

describe('the outbox mapping (item changes → webhook events)', () => {
  it('filters the stream to the entities it maps, and emits only reference event names', () => {
    expect([...outboxStreamWorker.entities]).toEqual([...EVENT_ENTITIES]);
    for (const e of EMITTED_EVENTS) expect(WEBHOOK_EVENTS).toContain(e);
  });

  it('gives a change the same event id however often it is read, and different changes different ids', () => {
    const created = eventsOfChange({ kind: 'INSERT', newItem: customer(), oldItem: null });
    expect(created.map((e) => e.type)).toEqual(['customer.created']);
    expect(eventsOfChange({ kind: 'INSERT', newItem: customer(), oldItem: null })[0]?.id).toBe(created[0]?.id);
    const deleted = eventsOfChange({ kind: 'REMOVE', newItem: null, oldItem: customer(), at: '2026-01-02T00:00:00.000Z' });
    expect(deleted.map((e) => e.type)).toEqual(['customer.deleted']);
    expect(deleted[0]?.id).not.toBe(created[0]?.id);
    expect(deleted[0]?.createdAt).toBe('2026-01-02T00:00:00.000Z');
  });

  it('sends nothing for items of other entities or for a customer update (the reference has no customer.updated)', () => {
    expect(eventsOfChange({ kind: 'MODIFY', newItem: customer({ name: 'Bea' }), oldItem: customer() })).toEqual([]);
    expect(eventsOfChange({ kind: 'INSERT', newItem: { PK: 'x', SK: 'y', entity: 'rate_limit_window' }, oldItem: null })).toEqual([]);
  });
});

const campaign = (over: Partial<Campaign> = {}) =>
  entities.campaign.toItem({
    id: 'camp_1',
    projectId: 'p1',
    name: 'Coupons',
    description: null,
    campaignType: 'DISCOUNT_COUPONS',
    type: 'AUTO_UPDATE',
    voucher: null,
    referralProgram: null,
    promotionTiers: null,
    autoJoin: false,
    joinOnce: false,
    useVoucherMetadataSchema: false,
    activityDurationAfterPublishing: null,
    vouchersCount: 0,
    active: true,
    metadata: {},
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: null,
    creationStatus: 'DONE',
    vouchersGenerationStatus: 'DONE',
    protected: false,
    category: null,
    startDate: null,
    expirationDate: null,
    validityTimeframe: null,
    validityDayOfWeek: null,
    validityHours: null,
    ...over,
  });

const types = (events: { type: string }[]) => events.map((e) => e.type);

describe('campaign events', () => {
  const changed = (over: Partial<Campaign>) => campaign({ updatedAt: '2026-01-02T00:00:00.000Z', revision: 1, ...over });

  it('created (and generation started when vouchers are being generated), deleted', () => {
    expect(types(eventsOfChange({ kind: 'INSERT', newItem: campaign(), oldItem: null }))).toEqual(['campaign.created']);
    const generating = campaign({ creationStatus: 'IN_PROGRESS', vouchersGenerationStatus: 'IN_PROGRESS' });
    expect(types(eventsOfChange({ kind: 'INSERT', newItem: generating, oldItem: null }))).toEqual(['campaign.created', 'campaign.vouchers.generation.started']);
    const deleted = eventsOfChange({ kind: 'REMOVE', newItem: null, oldItem: campaign(), at: '2026-01-03T00:00:00.000Z' });
    expect(deleted.map((e) => [e.type, e.createdAt])).toEqual([['campaign.deleted', '2026-01-03T00:00:00.000Z']]);
    expect(deleted[0]?.data).toMatchObject({ object: { id: 'camp_1', object: 'campaign' } });
  });

  it('names a change by the request that made it, one event per revision, and nothing for counters or tiers', () => {
    const enable = eventsOfChange({ kind: 'MODIFY', oldItem: campaign(), newItem: changed({ lastChange: 'enable' }) });
    expect(types(enable)).toEqual(['campaign.enabled']);
    // Enabling an enabled campaign is still an enable; the next revision is another event.
    const again = eventsOfChange({ kind: 'MODIFY', oldItem: changed({ lastChange: 'enable' }), newItem: changed({ lastChange: 'enable', revision: 2 }) });
    expect(types(again)).toEqual(['campaign.enabled']);
    expect(again[0]?.id).not.toBe(enable[0]?.id);
    expect(types(eventsOfChange({ kind: 'MODIFY', oldItem: campaign(), newItem: changed({ lastChange: 'disable', active: false }) }))).toEqual([
      'campaign.disabled',
    ]);
    expect(types(eventsOfChange({ kind: 'MODIFY', oldItem: campaign(), newItem: changed({ lastChange: 'update', description: 'x' }) }))).toEqual([
      'campaign.updated',
    ]);
    expect(eventsOfChange({ kind: 'MODIFY', oldItem: campaign(), newItem: campaign({ vouchersCount: 4 }) })).toEqual([]);
  });

  it('campaign.vouchers.aded once per addition recorded on the campaign, with its count; counts alone send nothing', () => {
    const addition = { id: 'aa_1', count: 3, at: '2026-01-02T00:00:00.000Z' };
    const added = eventsOfChange({ kind: 'MODIFY', oldItem: campaign(), newItem: campaign({ vouchersCount: 3, lastAddition: addition }) });
    expect(added.map((e) => [e.type, e.createdAt])).toEqual([['campaign.vouchers.aded', addition.at]]);
    expect(added[0]?.data).toMatchObject({ object: { id: 'camp_1', object: 'campaign' }, count: 3 });
    // Another count move (a publication generating a code) keeps the record: no event.
    const later = campaign({ vouchersCount: 4, lastAddition: addition });
    expect(eventsOfChange({ kind: 'MODIFY', oldItem: campaign({ vouchersCount: 3, lastAddition: addition }), newItem: later })).toEqual([]);
    const next = eventsOfChange({
      kind: 'MODIFY',
      oldItem: later,
      newItem: campaign({ vouchersCount: 5, lastAddition: { ...addition, id: 'vadd_2', count: 1 } }),
    });
    expect(types(next)).toEqual(['campaign.vouchers.aded']);
    expect(next[0]?.id).not.toBe(added[0]?.id);
  });

  it('generation completed or failed when the generation status ends', () => {
    const inProgress = campaign({ creationStatus: 'IN_PROGRESS', vouchersGenerationStatus: 'IN_PROGRESS' });
    expect(types(eventsOfChange({ kind: 'MODIFY', oldItem: inProgress, newItem: campaign({ vouchersCount: 5 }) }))).toEqual([
      'campaign.vouchers.generation.completed',
    ]);
    const failed = campaign({ creationStatus: 'FAILED', vouchersGenerationStatus: 'FAILED' });
    expect(types(eventsOfChange({ kind: 'MODIFY', oldItem: inProgress, newItem: failed }))).toEqual(['campaign.vouchers.generation.failed']);
  });
});

describe('pending points events', () => {
  const card = { projectId: 'p1', voucherId: 'v_1', code: 'CARD', campaignId: 'camp_1' };
  const entry = pendingEntry(card, { id: 'lopp_1' });
  const item = (over: Parameters<typeof pendingEntry>[1] = {}) => entities.pendingPoints.toItem({ ...entry, ...over });

  it('added, updated on a change of points, activated and canceled by the put of the ended entry; its removal sends nothing', () => {
    const added = eventsOfChange({ kind: 'INSERT', newItem: item(), oldItem: null });
    expect(types(added)).toEqual(['voucher.loyalty_card.pending_points.aded']);
    expect(added[0]?.data.object).toMatchObject({ id: 'lopp_1', voucher_id: 'v_1', points: 10 });
    const later = '2026-02-10T13:00:00.000Z';
    expect(types(eventsOfChange({ kind: 'MODIFY', oldItem: item(), newItem: item({ points: 7, updatedAt: later }) }))).toEqual([
      'voucher.loyalty_card.pending_points.updated',
    ]);
    expect(eventsOfChange({ kind: 'MODIFY', oldItem: item(), newItem: item({ updatedAt: later }) })).toEqual([]);
    expect(types(eventsOfChange({ kind: 'INSERT', newItem: item({ status: 'ACTIVATED', updatedAt: later }), oldItem: null }))).toEqual([
      'voucher.loyalty_card.pending_points.activated',
    ]);
    expect(types(eventsOfChange({ kind: 'INSERT', newItem: item({ status: 'CANCELED', updatedAt: later }), oldItem: null }))).toEqual([
      'voucher.loyalty_card.pending_points.canceled',
    ]);
    expect(eventsOfChange({ kind: 'REMOVE', newItem: null, oldItem: item() })).toEqual([]);
  });
});

describe('earning rule events', () => {
  const rule = (over: Record<string, unknown> = {}) =>
    entities.earningRule.toItem({
      id: 'ern_1',
      projectId: 'p1',
      campaignId: 'camp_1',
      event: 'order.paid',
      customEventSchemaId: null,
      loyalty: { type: 'FIXED', points: 10 },
      banner: null,
      active: true,
      startDate: null,
      expirationDate: null,
      expirationRules: null,
      metadata: {},
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: null,
      ...over,
    } as never);
  const t1 = '2026-01-02T00:00:00.000Z';

  it('assigned, updated, enabled/disabled by the switch of active, deleted; two changes in one millisecond keep distinct ids', () => {
    expect(types(eventsOfChange({ kind: 'INSERT', newItem: rule(), oldItem: null }))).toEqual(['campaign.earning_rule.assigned']);
    expect(types(eventsOfChange({ kind: 'MODIFY', oldItem: rule(), newItem: rule({ banner: 'x', updatedAt: t1 }) }))).toEqual([
      'campaign.earning_rule.updated',
    ]);
    const off = eventsOfChange({ kind: 'MODIFY', oldItem: rule(), newItem: rule({ active: false, updatedAt: t1 }) });
    expect(types(off)).toEqual(['campaign.earning_rule.disabled']);
    const on = eventsOfChange({ kind: 'MODIFY', oldItem: rule({ active: false, updatedAt: t1 }), newItem: rule({ updatedAt: t1 }) });
    expect(types(on)).toEqual(['campaign.earning_rule.enabled']);
    const offAgain = eventsOfChange({ kind: 'MODIFY', oldItem: rule({ updatedAt: t1 }), newItem: rule({ active: false, updatedAt: t1 }) });
    expect(offAgain[0]?.id).not.toBe(off[0]?.id);
    expect(types(eventsOfChange({ kind: 'REMOVE', oldItem: rule(), newItem: null }))).toEqual(['campaign.earning_rule.deleted']);
  });
});

describe('validation rule events (the reference names them business_validation_rule.*)', () => {
  const rule = (over: Record<string, unknown> = {}) =>
    entities.validationRule.toItem(
      {
        id: 'val_1',
        name: 'Big',
        rules: { logic: '', conditions: {} },
        error: null,
        applicableTo: { excluded: [], included: [], includedAll: false },
        type: 'basic',
        contextType: 'global',
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: null,
        revision: 0,
        assignmentsCount: 0,
        ...over,
      } as never,
      'p1',
    );
  const assignment = entities.validationRuleAssignment.toItem(
    { id: 'asgm_1', ruleId: 'val_1', relatedObjectType: 'campaign', relatedObjectId: 'camp_1', createdAt: '2026-01-01T00:00:00.000Z' },
    'p1',
  );

  it('created, updated per revision, deleted, with the project from the key; an assignment count change sends nothing', () => {
    const created = eventsOfChange({ kind: 'INSERT', newItem: rule(), oldItem: null });
    expect(created.map((e) => [e.type, e.projectId])).toEqual([['business_validation_rule.created', 'p1']]);
    expect(types(eventsOfChange({ kind: 'MODIFY', oldItem: rule(), newItem: rule({ name: 'Bigger', revision: 1 }) }))).toEqual([
      'business_validation_rule.updated',
    ]);
    expect(eventsOfChange({ kind: 'MODIFY', oldItem: rule(), newItem: rule({ assignmentsCount: 1 }) })).toEqual([]);
    expect(types(eventsOfChange({ kind: 'REMOVE', oldItem: rule(), newItem: null }))).toEqual(['business_validation_rule.deleted']);
    expect(types(eventsOfChange({ kind: 'INSERT', newItem: assignment, oldItem: null }))).toEqual(['business_validation_rule.assignment.created']);
    expect(types(eventsOfChange({ kind: 'REMOVE', oldItem: assignment, newItem: null }))).toEqual(['business_validation_rule.assignment.deleted']);
  });
});

describe('promotion tier events (the difference of the campaign item tier lists)', () => {
  const tier = (id: string, over: Record<string, unknown> = {}) =>
    ({
      id,
      name: id,
      banner: null,
      discount: null,
      metadata: {},
      active: true,
      hierarchy: 1,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: null,
      startDate: null,
      expirationDate: null,
      validityTimeframe: null,
      validityDayOfWeek: null,
      validityHours: null,
      ...over,
    }) as never;
  const promo = (tiers: unknown[]) => campaign({ campaignType: 'PROMOTION', promotionTiers: tiers as never });
  const t1 = '2026-01-02T00:00:00.000Z';

  it('created, updated, disabled, enabled, deleted, one per changed tier; the others send nothing', () => {
    const a = tier('promo_a');
    const change = (before: unknown[], after: unknown[]) => types(eventsOfChange({ kind: 'MODIFY', oldItem: promo(before), newItem: promo(after) }));
    expect(change([a], [a, tier('promo_b')])).toEqual(['campaign.promotion_tier.created']);
    expect(change([a], [tier('promo_a', { banner: 'x', updatedAt: t1 })])).toEqual(['campaign.promotion_tier.updated']);
    expect(change([a], [tier('promo_a', { active: false, updatedAt: t1 })])).toEqual(['campaign.promotion_tier.disabled']);
    expect(change([tier('promo_a', { active: false, updatedAt: t1 })], [tier('promo_a', { updatedAt: '2026-01-03T00:00:00.000Z' })])).toEqual([
      'campaign.promotion_tier.enabled',
    ]);
    expect(change([a, tier('promo_b')], [a])).toEqual(['campaign.promotion_tier.deleted']);
    expect(change([a], [a])).toEqual([]);
  });
});

describe('reward assignment events', () => {
  const a = (over: Record<string, unknown> = {}) =>
    entities.rewardAssignment.toItem({
      id: 'rewa_1',
      projectId: 'p1',
      rewardId: 'rew_1',
      campaignId: 'camp_1',
      points: 10,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: null,
      ...over,
    });

  it('created, updated, deleted; its pair copy sends nothing', () => {
    expect(types(eventsOfChange({ kind: 'INSERT', newItem: a(), oldItem: null }))).toEqual(['campaign.reward.assignment.created']);
    expect(types(eventsOfChange({ kind: 'MODIFY', oldItem: a(), newItem: a({ points: 12, updatedAt: '2026-01-02T00:00:00.000Z' }) }))).toEqual([
      'campaign.reward.assignment.updated',
    ]);
    expect(types(eventsOfChange({ kind: 'REMOVE', oldItem: a(), newItem: null }))).toEqual(['campaign.reward.assignment.deleted']);
    const pair = entities.rewardAssignmentPair.toItem(entities.rewardAssignment.fromItem(a()));
    expect(eventsOfChange({ kind: 'INSERT', newItem: pair, oldItem: null })).toEqual([]);
  });
});

describe('loyalty tier events (the difference of the program tier set lists)', () => {
  const tier = (id: string, over: Record<string, unknown> = {}): LoyaltyTier => ({
    id,
    campaignId: 'camp_1',
    name: id,
    points: { from: 0, to: null },
    earningRules: {},
    rewards: {},
    metadata: {},
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: null,
    ...over,
  });
  const set = (tiers: LoyaltyTier[], over: Record<string, unknown> = {}) =>
    entities.loyaltyTierSet.toItem({ projectId: 'p1', campaignId: 'camp_1', tiers, revision: 1, ...over });
  const change = (before: LoyaltyTier[] | null, after: LoyaltyTier[], over: Record<string, unknown> = {}) =>
    eventsOfChange({ kind: before ? 'MODIFY' : 'INSERT', oldItem: before ? set(before) : null, newItem: set(after, { revision: 2, ...over }) });

  it('created, updated, deleted, one per changed tier; the expiration setting and the others send nothing', () => {
    const a = tier('ltr_a');
    expect(types(change(null, [a, tier('ltr_b')]))).toEqual(['campaign.loyalty_tier.created', 'campaign.loyalty_tier.created']);
    expect(types(change([a], [a, tier('ltr_b')]))).toEqual(['campaign.loyalty_tier.created']);
    expect(types(change([a], [tier('ltr_a', { name: 'Gold', updatedAt: '2026-01-02T00:00:00.000Z' })]))).toEqual(['campaign.loyalty_tier.updated']);
    expect(types(change([a, tier('ltr_b')], [a]))).toEqual(['campaign.loyalty_tier.deleted']);
    expect(change([a], [a], { expiration: { qualification: 'POINTS_IN_PERIOD' } })).toEqual([]);
    expect(change(null, [])).toEqual([]);
    // A set removed whole goes with its program: campaign.deleted reports it.
    expect(eventsOfChange({ kind: 'REMOVE', oldItem: set([a]), newItem: null })).toEqual([]);
  });

  it('compares tiers by value, not by the order of their stored keys; the payload is the tier as GET shows it', () => {
    const a = tier('ltr_a', { points: { from: 1, to: 9 } });
    const reordered = { ...a, points: { to: 9, from: 1 } };
    expect(change([a], [reordered])).toEqual([]);
    const [made] = change(null, [a]);
    expect(made?.data).toMatchObject({ object: { id: 'ltr_a', object: 'loyalty_tier', campaign_id: 'camp_1', points: { from: 1, to: 9 } } });
    expect(made?.projectId).toBe('p1');
  });
});

describe('publication events', () => {
  const holder = entities.customer.fromItem(customer());
  const publication = (over: Record<string, unknown> = {}) =>
    entities.publication.toItem({
      id: 'pub_1',
      projectId: 'p1',
      createdAt: '2026-01-01T00:00:00.000Z',
      customerId: 'cust_1',
      customer: holder,
      metadata: {},
      channel: 'API',
      sourceId: null,
      campaignId: 'camp_1',
      voucherType: 'DISCOUNT_VOUCHER',
      isReferralCode: false,
      vouchers: [{ id: 'v_1', code: 'A1' }],
      voucher: {
        code: 'A1',
        campaignName: 'Coupons',
        type: 'DISCOUNT_VOUCHER',
        discount: { type: 'PERCENT', percentOff: 10 },
        gift: null,
        loyaltyCard: null,
        isReferralCode: false,
      },
      ...over,
    } as never);

  it('publication.succeeded and a voucher.published per voucher given, with the publication and its customer', () => {
    const one = eventsOfChange({ kind: 'INSERT', newItem: publication(), oldItem: null });
    expect(types(one)).toEqual(['publication.succeeded', 'voucher.published']);
    expect(one[1]?.data).toMatchObject({
      object: { id: 'v_1', code: 'A1', object: 'voucher', campaign: 'Coupons', campaign_id: 'camp_1', type: 'DISCOUNT_VOUCHER', discount: { percent_off: 10 } },
      publication: { id: 'pub_1', object: 'publication' },
      customer: { id: 'cust_1', object: 'customer' },
    });
    const several = eventsOfChange({
      kind: 'INSERT',
      newItem: publication({
        voucher: null,
        vouchers: [
          { id: 'v_1', code: 'A1' },
          { id: 'v_2', code: 'A2' },
        ],
      }),
      oldItem: null,
    });
    expect(types(several)).toEqual(['publication.succeeded', 'voucher.published', 'voucher.published']);
    expect(several.slice(1).map((e) => (e.data.object as { code: string }).code)).toEqual(['A1', 'A2']);
    expect(new Set(several.map((e) => e.id)).size).toBe(3);
    // Read twice, the same ids; a publication is never changed or sent again.
    expect(eventsOfChange({ kind: 'INSERT', newItem: publication(), oldItem: null }).map((e) => e.id)).toEqual(one.map((e) => e.id));
    expect(eventsOfChange({ kind: 'REMOVE', newItem: null, oldItem: publication() })).toEqual([]);
  });
});

describe('promotion stack events', () => {
  const weekend = { id: 'pc_1', name: 'Weekend', hierarchy: 1, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: null };
  const stack = (over: Record<string, unknown> = {}) =>
    entities.promotionStack.toItem(
      {
        id: 'stack_1',
        campaignId: 'camp_1',
        name: 'Both',
        tierIds: ['promo_a', 'promo_b'],
        hierarchyMode: 'MANUAL',
        categoryId: 'pc_1',
        category: weekend,
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: null,
        revision: 0,
        ...over,
      } as never,
      'p1',
    );

  it('created, updated per PUT (revision), the category from the copy on the item; a removal sends nothing', () => {
    const [made] = eventsOfChange({ kind: 'INSERT', newItem: stack(), oldItem: null });
    expect(made).toMatchObject({ type: 'campaign.promotion_stack.created', projectId: 'p1' });
    expect(made?.data).toMatchObject({
      object: { id: 'stack_1', object: 'promotion_stack', category_id: 'pc_1', categories: [{ id: 'pc_1', name: 'Weekend' }] },
    });
    const put = (revision: number) => stack({ name: 'One', revision, updatedAt: `2026-01-0${revision + 1}T00:00:00.000Z` });
    const first = eventsOfChange({ kind: 'MODIFY', oldItem: stack(), newItem: put(1) });
    const second = eventsOfChange({ kind: 'MODIFY', oldItem: put(1), newItem: put(2) });
    expect(types([...first, ...second])).toEqual(['campaign.promotion_stack.updated', 'campaign.promotion_stack.updated']);
    expect(first[0]?.id).not.toBe(second[0]?.id);
    expect(eventsOfChange({ kind: 'MODIFY', oldItem: put(1), newItem: put(1) })).toEqual([]);
    expect(eventsOfChange({ kind: 'REMOVE', oldItem: stack(), newItem: null })).toEqual([]);
    // A stack written before the copy existed names its category by id only.
    const [older] = eventsOfChange({ kind: 'INSERT', newItem: stack({ category: undefined }), oldItem: null });
    expect(older?.data).toMatchObject({ object: { category_id: 'pc_1', categories: [] } });
  });
});

describe('referee reward events', () => {
  const conversion = (over: Record<string, unknown> = {}) =>
    entities.referralConversion.toItem({
      id: 'rcnv_1',
      projectId: 'p1',
      campaignId: 'camp_ref',
      code: 'REF-1',
      voucherId: 'v_ref',
      referrerId: 'cust_rita',
      refereeId: 'cust_ann',
      eventId: 'evcus_1',
      eventType: 'user_subscribed',
      createdAt: '2026-01-01T00:00:00.000Z',
      ...over,
    } as never);
  const reward = { type: 'LOYALTY_CARD', amount: 150, campaignId: 'camp_club', voucherId: 'v_card', code: 'CLUB-1' };

  it('customer.rewarded (and .loyalty_points for points) from a conversion that granted a reward; none without one', () => {
    const points = eventsOfChange({ kind: 'INSERT', newItem: conversion({ reward }), oldItem: null });
    expect(types(points)).toEqual(['customer.rewarded', 'customer.rewarded.loyalty_points']);
    expect(points[0]?.data).toMatchObject({
      object: { id: 'cust_ann', object: 'customer' },
      voucher: { id: 'v_card', code: 'CLUB-1' },
      balance: { points: 150 },
      custom_event: { id: 'evcus_1' },
    });
    expect(points[0]?.id).not.toBe(points[1]?.id);
    const credits = eventsOfChange({ kind: 'INSERT', newItem: conversion({ reward: { ...reward, type: 'GIFT_VOUCHER' } }), oldItem: null });
    expect(types(credits)).toEqual(['customer.rewarded']);
    expect(credits[0]?.data).toMatchObject({ balance: { amount: 150 } });
    expect(eventsOfChange({ kind: 'INSERT', newItem: conversion(), oldItem: null })).toEqual([]);
    expect(eventsOfChange({ kind: 'REMOVE', newItem: null, oldItem: conversion({ reward }) })).toEqual([]);
  });
});
