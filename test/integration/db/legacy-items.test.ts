import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { getAppKey } from '../../../lib/app-keys/app-key.repo.js';
import { getAsyncAction } from '../../../lib/async-actions/async-action.repo.js';
import { listBinEntries } from '../../../lib/bin/bin.repo.js';
import {
  getCampaign,
  getCampaignCounter,
  getCampaignIdByName,
  getCampaignIdByPromotionTier,
  getCampaigns,
  listCampaignEntries,
} from '../../../lib/campaigns/campaign.repo.js';
import { getCategory, getCategoryIdByName } from '../../../lib/categories/category.repo.js';
import { countCustomers, getCustomer, getCustomerIdBySourceId, insertCustomer, replaceCustomer } from '../../../lib/customers/customer.repo.js';
import { ALL_CUSTOMERS } from '../../../lib/customers/customer-views.js';
import { listEarningRulesOfEvent } from '../../../lib/earning-rules/earning-rule.repo.js';
import { getEventSchemaByName, getEventSchemaNameById, listEventSchemas } from '../../../lib/custom-event-schemas/event-schema.repo.js';
import { listEventsOfCustomer } from '../../../lib/events/event.repo.js';
import { getExport, startExport } from '../../../lib/exports/export.repo.js';
import { listCardTransactions } from '../../../lib/loyalties/card-transaction.repo.js';
import { campaignBucketPages } from '../../../lib/loyalties/points-bucket.repo.js';
import { getLedger, getToken } from '../../../lib/oauth/oauth.repo.js';
import { getProject } from '../../../lib/projects/project.repo.js';
import { listConversionsOfCode } from '../../../lib/referrals/referral.repo.js';
import { getReward, getRewardAssignmentOfPair } from '../../../lib/rewards/reward.repo.js';
import type { Runtime } from '../../../lib/runtime.js';
import { insertCampaignTemplate } from '../../../lib/templates/campaign-template.repo.js';
import { getHeldVoucher } from '../../../lib/vouchers/voucher-holder.repo.js';
import { getVoucherByCode, getVoucherCodeById, listCampaignVoucherCodes } from '../../../lib/vouchers/voucher.repo.js';
import { seededCampaign } from '../../support/seeded-campaigns.js';
import { newProject, testRuntime } from '../../support/runtime.js';

/**
 * Items written in the form the repos wrote them before the entity layer (keys, `entity` and `v`
 * spelled out by hand, literal key strings), some of them from before a field existed, must keep
 * reading through the repos: the entity layer changed how items are built, not what is stored.
 */
let runtime: Runtime;
let p: string;
const at = '2026-02-01T10:00:00.000Z';

const put = (Item: Record<string, unknown>) => runtime.ddb.send(new PutCommand({ TableName: runtime.tableName, Item }));

beforeAll(async () => {
  runtime = testRuntime();
  p = (await newProject(runtime, 'legacy items')).project_id;
});

describe('items written before the entity layer', () => {
  it('campaign, its name, tier ref, counter and an older list entry', async () => {
    const campaign = { ...seededCampaign(p, 1, 'Legacy', 2), promotionTiers: null };
    // Campaigns written before descriptions were kept have no such attribute; they read as having none.
    const { description: _none, ...written } = campaign;
    await put({ PK: `P#${p}#CAMPAIGN#${campaign.id}`, SK: 'CAMPAIGN', entity: 'campaign', v: 1, ...written });
    await put({ PK: `P#${p}#CAMPAIGN_NAME#${campaign.name}`, SK: 'CAMPAIGN_NAME', entity: 'campaign_name', v: 1, campaignId: campaign.id });
    await put({ PK: `P#${p}#PROMO_TIER#promo_legacy`, SK: 'PROMO_TIER', entity: 'promotion_tier_ref', v: 1, campaignId: campaign.id });
    await put({ PK: `P#${p}`, SK: 'CAMPAIGN_COUNTER', entity: 'campaign_counter', v: 1, campaignCount: 1, lastCreatedAt: campaign.createdAt });
    // A list entry from before voucherType, categoryName, dates and updatedAt were kept in it.
    await put({
      PK: `P#${p}#CAMPAIGNS`,
      SK: `${campaign.createdAt}#${campaign.id}`,
      GSI1PK: `P#${p}#CAMPAIGN_SEQ`,
      GSI1SK: '000000000001',
      entity: 'campaign_list_entry',
      v: 1,
      id: campaign.id,
      name: campaign.name,
      campaignType: campaign.campaignType,
      type: campaign.type,
      creationStatus: 'DONE',
      isReferralCode: false,
      categoryId: null,
      active: true,
      createdAt: campaign.createdAt,
      sequence: 1,
    });

    expect(await getCampaign(runtime, p, campaign.id)).toEqual(campaign);
    expect(await getCampaigns(runtime, p, [campaign.id, 'camp_gone'])).toEqual([campaign]);
    expect(await getCampaignIdByName(runtime, p, campaign.name)).toBe(campaign.id);
    expect(await getCampaignIdByPromotionTier(runtime, p, 'promo_legacy')).toBe(campaign.id);
    expect(await getCampaignCounter(runtime, p)).toEqual({ campaignCount: 1, lastCreatedAt: campaign.createdAt });
    expect(await listCampaignEntries(runtime, p)).toEqual([
      {
        id: campaign.id,
        name: campaign.name,
        campaignType: campaign.campaignType,
        type: campaign.type,
        voucherType: null,
        creationStatus: 'DONE',
        isReferralCode: false,
        categoryId: null,
        categoryName: null,
        active: true,
        startDate: null,
        expirationDate: null,
        validityDayOfWeek: null,
        createdAt: campaign.createdAt,
        updatedAt: null,
        sequence: 1,
      },
    ]);
  });

  it('voucher with its id pointer, and the voucher a customer holds', async () => {
    const voucher = {
      id: 'v_legacy',
      code: 'Legacy-Code',
      projectId: p,
      campaignId: 'camp_legacy01',
      type: 'DISCOUNT_VOUCHER',
      holderId: 'cust_holder',
      metadata: { a: 1 },
      createdAt: at,
    };
    await put({
      PK: `P#${p}#VOUCHER#${voucher.code}`,
      SK: 'VOUCHER',
      GSI1PK: `P#${p}#CAMPAIGN#${voucher.campaignId}#VOUCHERS`,
      GSI1SK: `${at}#${voucher.id}`,
      entity: 'voucher',
      v: 1,
      ...voucher,
    });
    await put({ PK: `P#${p}#VOUCHER_ID#${voucher.id}`, SK: 'VOUCHER_ID', entity: 'voucher_id', v: 1, code: voucher.code });
    await put({
      PK: `P#${p}#HOLDER#cust_holder#CAMPAIGN#${voucher.campaignId}`,
      SK: 'HELD_VOUCHER',
      entity: 'held_voucher',
      v: 1,
      customerId: 'cust_holder',
      campaignId: voucher.campaignId,
      code: voucher.code,
      voucherId: voucher.id,
      createdAt: at,
    });

    expect(await getVoucherByCode(runtime, p, voucher.code)).toEqual(voucher);
    expect(await getVoucherByCode(runtime, p, voucher.code.toLowerCase())).toBeNull();
    expect(await getVoucherCodeById(runtime, p, voucher.id)).toBe(voucher.code);
    expect(await listCampaignVoucherCodes(runtime, p, voucher.campaignId)).toEqual([voucher.code]);
    expect(await getHeldVoucher(runtime, p, 'cust_holder', voucher.campaignId)).toEqual({ voucher, staleVoucherId: null, publicationId: null });
  });

  it('customer with its source id, which a new customer cannot claim again', async () => {
    const customer = {
      id: 'cust_legacy',
      projectId: p,
      sourceId: 'src-legacy',
      name: 'Ann',
      email: null,
      description: null,
      phone: null,
      birthdate: null,
      address: null,
      metadata: {},
      createdAt: at,
      updatedAt: null,
    };
    await put({ PK: `P#${p}#CUSTOMER_SRC#${customer.sourceId}`, SK: 'CUSTOMER_SRC', entity: 'customer_source_id', v: 1, customerId: customer.id });
    await put({ PK: `P#${p}#CUSTOMER#${customer.id}`, SK: 'CUSTOMER', entity: 'customer', v: 1, ...customer });

    // Written before revisions and list entries: revision 0, not listed.
    const read = await getCustomer(runtime, p, customer.id);
    expect(read).toEqual({ ...customer, revision: 0, listed: false });
    expect(await getCustomerIdBySourceId(runtime, p, customer.sourceId)).toBe(customer.id);
    expect(await insertCustomer(runtime, { ...customer, id: 'cust_other', revision: 0, listed: true }, 'act_1')).toBe(false);
    // Its first change lists it; a write from the copy read before that change is refused.
    const next = { ...customer, name: 'Ann B', updatedAt: at, revision: 1, listed: true };
    expect(await countCustomers(runtime, p, ALL_CUSTOMERS)).toBe(0);
    expect(await replaceCustomer(runtime, { ...customer, revision: 0, listed: false }, next, 'act_2')).toBe(true);
    expect(await countCustomers(runtime, p, ALL_CUSTOMERS)).toBe(1);
    expect(await getCustomer(runtime, p, customer.id)).toEqual(next);
    expect(await replaceCustomer(runtime, { ...customer, revision: 0, listed: false }, { ...next, name: 'Stale' }, 'act_3')).toBe(false);
  });

  it('export and async action from before their later fields existed', async () => {
    const exported = {
      id: 'exp_legacy',
      projectId: p,
      exportedObject: 'points_expiration',
      channel: 'API',
      status: 'SCHEDULED',
      parameters: {},
      campaignId: 'camp_x',
      fields: ['id'],
      ascending: true,
      filters: { junction: 'and', conditions: {} },
      downloadSecret: 's',
      objectKey: 'k',
      createdAt: at,
      updatedAt: at,
    };
    await put({ PK: `P#${p}#EXPORT#${exported.id}`, SK: 'EXPORT', entity: 'export', v: 1, ...exported });
    const action = {
      id: 'aa_legacy',
      projectId: p,
      type: 'CAMPAIGN.VOUCHERS_GENERATE',
      status: 'ENQUEUED',
      requestId: 'r',
      campaignId: 'camp_x',
      requested: 5,
      doneCount: 0,
      campaignCreation: false,
      overrides: { category: null },
      createdAt: at,
      updatedAt: at,
    };
    await put({ PK: `P#${p}#ASYNC_ACTION#${action.id}`, SK: 'ASYNC_ACTION', entity: 'async_action', v: 1, ...action });

    const completed = { ...exported, orderBy: 'expires_at', createdByAppId: null, rowCount: null, failure: null, finishedAt: null, voucherId: null };
    expect(await getExport(runtime, p, exported.id)).toEqual(completed);
    expect(await startExport(runtime, p, exported.id, at)).toEqual({ ...completed, status: 'IN_PROGRESS' });
    expect(await getAsyncAction(runtime, p, action.id)).toEqual({ ...action, failure: null, finishedAt: null });
  });

  it('project, application key without permissions, allow-list or side (a server key), OAuth token and ledger', async () => {
    expect(await getProject(runtime, p)).toMatchObject({ projectId: p, name: 'legacy items' });
    const key = { appId: 'app-legacy', projectId: p, name: 'old key', tokenHash: 'h', status: 'ACTIVE', createdAt: at, updatedAt: at };
    await put({ PK: `APPKEY#${key.appId}`, SK: 'APPKEY', GSI1PK: `P#${p}#APPKEYS`, GSI1SK: `${at}#${key.appId}`, entity: 'app_key', v: 1, ...key });
    const token = { tokenHash: 'legacyhash', projectId: p, appId: key.appId, scopes: ['api'], issuedAt: 1, expiresAt: 4_000_000_000 };
    await put({ PK: `OAUTH#${token.tokenHash}`, SK: 'OAUTH', entity: 'oauth_token', v: 1, ttl: token.expiresAt, ...token });
    const ledgerProject = (await newProject(runtime, 'ledger')).project_id;
    await put({ PK: `P#${ledgerProject}`, SK: 'OAUTH_LEDGER', entity: 'oauth_ledger', v: 1, expiries: [4_000_000_000], revision: 3 });

    expect(await getAppKey(runtime, key.appId, true)).toEqual({
      ...key,
      permissions: null,
      ipAllowList: null,
      side: 'server',
      trustedOrigins: null,
      originless: true,
    });
    expect(await getToken(runtime, token.tokenHash)).toEqual(token);
    expect(await getLedger(runtime, ledgerProject)).toEqual({ expiries: [4_000_000_000], revision: 3 });
  });

  it('category, bin entry and points bucket from before their nullable fields were written', async () => {
    await put({ PK: `P#${p}#CATEGORY_NAME#Old`, SK: 'CATEGORY_NAME', entity: 'category_name', v: 1, categoryId: 'cat_legacy' });
    await put({ PK: `P#${p}#CATEGORY#cat_legacy`, SK: 'CATEGORY', entity: 'category', v: 1, id: 'cat_legacy', name: 'Old', hierarchy: 0, createdAt: at });
    const entry = { id: 'tbe_0000000000010000000000', createdAt: at, resourceId: 'v_x', resourceType: 'voucher', resourceName: 'X', snapshot: { code: 'X' } };
    await put({ PK: `P#${p}#BIN`, SK: entry.id, entity: 'bin_entry', v: 1, ...entry });
    const bucket = { id: 'pb_legacy', projectId: p, campaignId: 'camp_loyal', voucherId: 'v_card', points: 10, status: 'ACTIVE', createdAt: at, updatedAt: at };
    await put({
      PK: `P#${p}#LOYALTY#camp_loyal#BUCKETS`,
      SK: `9999-12-31#${bucket.id}`,
      GSI1PK: `P#${p}#CARD#v_card#BUCKETS`,
      GSI1SK: `9999-12-31#${bucket.id}`,
      entity: 'points_bucket',
      v: 1,
      ...bucket,
    });

    expect(await getCategoryIdByName(runtime, p, 'Old')).toBe('cat_legacy');
    expect(await getCategory(runtime, p, 'cat_legacy')).toEqual({ id: 'cat_legacy', name: 'Old', hierarchy: 0, createdAt: at, updatedAt: null });
    expect(await listBinEntries(runtime, p, { limit: 10, descending: true, startingAfterId: undefined })).toEqual({
      entries: [{ ...entry, deletedByUserId: null, resourceParentId: null }],
      hasMore: false,
    });
    const pages = [];
    for await (const page of campaignBucketPages(runtime, p, 'camp_loyal')) pages.push(...page);
    expect(pages).toEqual([{ ...bucket, expiresAt: null }]);
  });

  it('event schema with its id pointer, custom event, earning rule, card transaction and referral conversion', async () => {
    const schema = { id: 'ms_legacy', projectId: p, name: 'legacy_event', properties: {}, createdAt: at, updatedAt: null };
    await put({
      PK: `P#${p}#EVENT_SCHEMA#${schema.name}`,
      SK: 'EVENT_SCHEMA',
      GSI1PK: `P#${p}#EVENT_SCHEMAS`,
      GSI1SK: `${at}#${schema.id}`,
      entity: 'custom_event_schema',
      v: 1,
      ...schema,
    });
    await put({ PK: `P#${p}#EVENT_SCHEMA_ID#${schema.id}`, SK: 'EVENT_SCHEMA_ID', entity: 'custom_event_schema_id', v: 1, name: schema.name });
    const event = {
      id: 'evcus_legacy',
      projectId: p,
      type: schema.name,
      customerId: 'cust_legacy',
      metadata: {},
      referral: null,
      loyalty: null,
      idempotencyKey: null,
      createdAt: at,
    };
    await put({ PK: `P#${p}#CUSTOMER#cust_legacy#EVENTS`, SK: `EVENT#${at}#${event.id}`, entity: 'custom_event', v: 1, ...event });
    const rule = { id: 'ern_legacy', projectId: p, campaignId: 'camp_loyal', event: schema.name, active: true, createdAt: at };
    await put({ PK: `P#${p}#EARNING_RULES#${schema.name}`, SK: `camp_loyal#${rule.id}`, entity: 'earning_rule', v: 1, ...rule });
    const transaction = {
      id: 'vtx_legacy',
      projectId: p,
      campaignId: 'camp_loyal',
      voucherId: 'v_card',
      type: 'POINTS_ADDITION',
      source: 'API',
      sourceId: null,
      reason: null,
      points: 5,
      total: 5,
      balance: 5,
      createdAt: at,
    };
    await put({ PK: `P#${p}#CARD#v_card#TRANSACTIONS`, SK: `${at}#${transaction.id}`, entity: 'card_transaction', v: 1, ...transaction });
    const conversion = {
      id: 'rc_legacy',
      projectId: p,
      campaignId: 'camp_ref',
      code: 'REF-1',
      voucherId: 'v_ref',
      referrerId: 'cust_a',
      refereeId: 'cust_b',
      eventId: event.id,
      eventType: schema.name,
      createdAt: at,
    };
    await put({
      PK: `P#${p}#REFERRAL#camp_ref#REF-1`,
      SK: 'CONVERSION#cust_b',
      GSI1PK: `P#${p}#CUSTOMER#cust_a#REFERRALS`,
      GSI1SK: `${at}#${conversion.id}`,
      entity: 'referral_conversion',
      v: 1,
      ...conversion,
    });

    expect(await getEventSchemaByName(runtime, p, schema.name)).toEqual(schema);
    expect(await getEventSchemaNameById(runtime, p, schema.id)).toBe(schema.name);
    expect(await listEventSchemas(runtime, p)).toContainEqual(schema);
    expect(await listEventsOfCustomer(runtime, p, 'cust_legacy')).toEqual([event]);
    // A rule stored before rules could be changed reads as never changed.
    expect(await listEarningRulesOfEvent(runtime, p, schema.name)).toEqual([{ ...rule, updatedAt: null }]);
    expect(await listCardTransactions(runtime, p, 'v_card')).toEqual([transaction]);
    expect(await listConversionsOfCode(runtime, p, 'camp_ref', 'REF-1')).toEqual([conversion]);
  });

  it('reward and reward assignment pair; a template name reserved in the old form stays taken', async () => {
    const reward = { id: 'rew_legacy', projectId: p, name: 'R', type: 'MATERIAL', createdAt: at };
    await put({ PK: `P#${p}#REWARD#${reward.id}`, SK: 'REWARD', entity: 'reward', v: 1, ...reward });
    const assignment = { id: 'rewa_legacy', projectId: p, rewardId: reward.id, campaignId: 'camp_loyal', points: 3, createdAt: at };
    await put({
      PK: `P#${p}#REWARD_ASSIGNMENT#${reward.id}#camp_loyal`,
      SK: 'REWARD_ASSIGNMENT_PAIR',
      GSI1PK: `P#${p}#CAMPAIGN#camp_loyal#REWARDS`,
      GSI1SK: `${at}#${assignment.id}`,
      entity: 'reward_assignment_pair',
      v: 1,
      ...assignment,
    });
    await put({ PK: `P#${p}#TEMPLATE_NAME#Old template`, SK: 'CAMPAIGN_TEMPLATE_NAME', entity: 'campaign_template_name', v: 1, templateId: 'camt_legacy' });

    expect(await getReward(runtime, p, reward.id)).toEqual(reward);
    expect(await getRewardAssignmentOfPair(runtime, p, reward.id, 'camp_loyal')).toEqual(assignment);
    const template = { id: 'camt_new', projectId: p, name: 'Old template' } as Parameters<typeof insertCampaignTemplate>[1];
    expect(await insertCampaignTemplate(runtime, template)).toBe(false);
  });
});
