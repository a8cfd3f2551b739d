import { GetCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { LOCAL_TARGET_POLICY } from '../../../lib/webhooks/target-policy.js';
import { describe, expect, it } from 'vitest';
import { makeHandler as makeCreateTemplate } from '../../../functions/templates/create-campaign-template.js';
import { makeHandler as makeCreateExport } from '../../../functions/exports/create-points-expiration-export.js';
import { createCampaignTemplateRoute, createPointsExpirationExportRoute, routes } from '../../../lib/api/routes.js';
import { ManualClock } from '../../../lib/clock.js';
import { createDocumentClient } from '../../../lib/db/client.js';
import * as entities from '../../../lib/db/entities.js';
import { voucher as voucherEntity } from '../../../lib/db/entities.js';
import { type IdempotencyScope, requestFingerprint } from '../../../lib/idempotency/idempotency-scope.js';
import { IDEMPOTENCY_LEASE_SECONDS } from '../../../lib/idempotency/idempotency.repo.js';
import { REPLAYED_HEADER, runOnce } from '../../../lib/idempotency/idempotency.service.js';
import { ok } from '../../../lib/http/reply.js';
import { idempotencyModeOf } from '../../../lib/api/route.js';
import { hashSecret } from '../../../lib/auth/secrets.js';
import { getToken } from '../../../lib/oauth/oauth.repo.js';
import type { Runtime } from '../../../lib/runtime.js';
import { callRoute, campaignApi, campaignBodies, newCampaign, RecordingJobQueue } from '../../support/api.js';
import { eventApi, schemaBody } from '../../support/events-api.js';
import { createS3Presigner } from '../../../lib/exports/s3-presigner.js';
import { apiClient } from '../../support/api-client.js';
import type { Reply } from '../../support/invoke.js';
import { rewardApi, rewardBodies } from '../../support/rewards-api.js';
import { makeVoucher, planFor } from '../../support/redeem.js';
import { commitRedemption } from '../../../lib/redemptions/redemption.repo.js';
import type { PlannedRedeemable } from '../../../lib/redemptions/redemption-plan.js';
import { engines, keyPairHeaders, managementHeaders, newManagementKey, newProject, testRuntime } from '../../support/runtime.js';

/** A resource's `updated_at` as a number: every change moves it, so a second run of a change would show. */
const updatedAtOf = (reply: { json: Record<string, unknown> }): number => (typeof reply.json.updated_at === 'string' ? Date.parse(reply.json.updated_at) : 0);

const at = Date.UTC(2026, 8, 1, 8, 0, 0);
const SECOND = 1000;

/** POST /v1/loyalties's body: the loyalty campaign body without `campaign_type` (the path says it). */
const loyaltyProgramBody = (name: string): Record<string, unknown> => {
  const { campaign_type: _type, ...body } = campaignBodies.LOYALTY_PROGRAM(name);
  return body;
};

interface Sent {
  command: string;
  pks: string[];
}

/** A runtime whose DynamoDB client records every command and the partition keys it names. */
function recordingRuntime(clock: ManualClock): { runtime: Runtime; sent: Sent[] } {
  const base = testRuntime({ clock });
  const ddb = createDocumentClient({ region: engines().region, endpoint: engines().dynamoEndpoint });
  const sent: Sent[] = [];
  ddb.middlewareStack.add(
    (next, context) => async (args) => {
      const text = JSON.stringify(args.input);
      const pks = [...text.matchAll(/"PK":(?:\{"S":)?"([^"]+)"/g)].map((m) => m[1] ?? '');
      sent.push({ command: context.commandName ?? '', pks });
      return next(args);
    },
    { step: 'initialize', name: 'recordCommands' },
  );
  return { runtime: { ...base, ddb }, sent };
}

const isWrite = (s: Sent) => /Put|Update|Delete|TransactWrite|BatchWrite/.test(s.command);

async function setup() {
  const clock = new ManualClock(at);
  const { runtime, sent } = recordingRuntime(clock);
  const pair = await newProject(runtime);
  const headers = keyPairHeaders(pair);
  const jobs = new RecordingJobQueue();
  const campaigns = campaignApi(runtime, pair, jobs);
  const rewards = rewardApi(runtime, pair);
  const events = eventApi(runtime, pair);
  const customers = apiClient({ runtime, jobs }, headers);
  const keyed = (key: string) => ({ ...headers, 'idempotency-key': key });
  /** Items of this project whose key starts with `pkPrefix` (and whose SK is `sk`): a test-only scan. */
  const countItems = async (pkPrefix: string, sk?: string) => {
    let count = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const page = await runtime.ddb.send(
        new ScanCommand({
          TableName: runtime.tableName,
          FilterExpression: sk === undefined ? 'begins_with(PK, :p)' : 'begins_with(PK, :p) AND SK = :sk',
          ExpressionAttributeValues: { ':p': `P#${pair.project_id}#${pkPrefix}`, ...(sk === undefined ? {} : { ':sk': sk }) },
          ConsistentRead: true,
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      count += page.Items?.length ?? 0;
      start = page.LastEvaluatedKey;
    } while (start);
    return count;
  };
  const state: Record<string, string> = {};
  // The Management API's routes take a management key; its keys are the key's own (a fresh key per case).
  const managementPair = managementHeaders(await newManagementKey(runtime));
  const management = apiClient({ runtime, webhookTargets: () => LOCAL_TARGET_POLICY }, managementPair);
  const managementKeyed = (key: string) => ({ ...managementPair, 'idempotency-key': key });
  return { clock, runtime, sent, pair, headers, keyed, jobs, campaigns, rewards, events, customers, countItems, state, management, managementKeyed };
}

type Ctx = Awaited<ReturnType<typeof setup>>;

/** One case per generic route: what it needs first, one request, and how to count its effect. */
interface RouteCase {
  operationId: string;
  prepare: (ctx: Ctx) => Promise<void>;
  send: (ctx: Ctx, key: string) => Promise<Reply>;
  effects: (ctx: Ctx) => Promise<number>;
}

const loyaltyProgram = {
  name: 'Club',
  campaign_type: 'LOYALTY_PROGRAM',
  voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0, expiration_rules: { period_type: 'MONTH', period_value: 3, rounding_type: 'END_OF_MONTH' } } },
};

/** A loyalty program with one earning rule (its id in `state.ruleId`). */
async function prepareEarningRule(c: Ctx): Promise<void> {
  await newCampaign(c.campaigns, loyaltyProgram);
  expect((await c.events.createSchema(schemaBody('order_paid', { amount: 'number' }))).status).toBe(200);
  const made = await c.customers.call('create-earning-rule', {
    params: { campaignId: 'Club' },
    json: [{ event: 'order_paid', loyalty: { type: 'FIXED', points: 1 } }],
  });
  expect(made.status).toBe(200);
  c.state.ruleId = (made.json as unknown as { id: string }[])[0]?.id ?? '';
}

const ruleParams = (c: Ctx) => ({ campaignId: 'Club', earningRuleId: c.state.ruleId ?? '' });
const ruleUpdatedAt = async (c: Ctx) => updatedAtOf(await c.customers.call('get-earning-rule', { params: ruleParams(c) }));

/** A reward on a loyalty program (`state.rewardId`, `state.clubId`, `state.assignmentId`). */
async function prepareAssignment(c: Ctx): Promise<void> {
  const club = await newCampaign(c.campaigns, campaignBodies.LOYALTY_PROGRAM('Club'));
  const reward = await c.rewards.createReward(rewardBodies.COIN('Prize'));
  const assignment = await c.rewards.assign(reward.json.id as string, { campaign: club.id, parameters: { loyalty: { points: 10 } } });
  expect(assignment.status).toBe(200);
  c.state.clubId = club.id as string;
  c.state.rewardId = reward.json.id as string;
  c.state.assignmentId = assignment.json.id as string;
}

const assignmentParams = (c: Ctx) => ({ rewardId: c.state.rewardId ?? '', assignmentId: c.state.assignmentId ?? '' });
const loyaltyAssignmentParams = (c: Ctx) => ({ campaignId: c.state.clubId ?? '', assignmentId: c.state.assignmentId ?? '' });
const assignmentUpdatedAt = async (c: Ctx) => updatedAtOf(await c.customers.call('get-reward-assignment', { params: assignmentParams(c) }));
const assignmentGone = async (c: Ctx) => ((await c.customers.call('get-reward-assignment', { params: assignmentParams(c) })).status === 404 ? 1 : 0);

/** A client whose handlers reach the export bucket (s3rver), for DELETE /v1/exports/{exportId}. */
const exportFilesClient = (c: Ctx) => {
  const e = engines();
  return apiClient(
    { runtime: c.runtime, jobs: c.jobs, links: createS3Presigner({ region: e.region, bucketName: e.bucketName, s3Endpoint: e.s3Endpoint }) },
    c.headers,
  );
};

/** A brand body for the branding cases. */
const brandBody = { brand: { name: 'Brand' }, address: { street: 's', city: 'c', postal: null, country: 'PL' }, contact: { email: 'brand@idem.example' } };
/** invite-user's body, the user assigned to the case's project. */
const inviteBody = (c: Ctx, who: string) => ({
  email: `${who}-${c.pair.project_id}@idem.example`,
  first_name: 'F',
  last_name: 'L',
  projects: { [c.pair.project_id]: 'USER' },
});
/** A user invited into the case's project, as USER: its id. */
async function invitedUser(c: Ctx): Promise<string> {
  expect((await c.management.call('invite-user', { json: inviteBody(c, 'member') })).status).toBe(204);
  const listed = (await c.management.call('list-users', { params: { projectId: c.pair.project_id } })).json.data as { id: string }[];
  return listed[0]?.id ?? '';
}

const cases: RouteCase[] = [
  {
    operationId: 'update-project',
    prepare: async (c) => {
      c.clock.advance(SECOND);
    },
    send: (c, key) =>
      c.management.call('update-project', { params: { projectId: c.pair.project_id }, json: { name: 'Renamed' }, headers: c.managementKeyed(key) }),
    // Every update stamps the project's update time: a second run would move it to the retry's time.
    effects: async (c) => Date.parse(String((await entities.project.get(c.runtime, entities.project.key(c.pair.project_id)))?.updatedAt ?? 0)) || 0,
  },
  {
    operationId: 'delete-project',
    prepare: async () => undefined,
    send: (c, key) => c.management.call('delete-project', { params: { projectId: c.pair.project_id }, headers: c.managementKeyed(key) }),
    // 1 once deleted; a second run would answer 404 instead of the first 204.
    effects: async (c) => ((await c.management.call('get-project', { params: { projectId: c.pair.project_id } })).status === 404 ? 1 : 0),
  },
  {
    operationId: 'create-webhook',
    prepare: async () => undefined,
    send: (c, key) =>
      c.management.call('create-webhook', {
        params: { projectId: c.pair.project_id },
        json: { target_url: 'http://127.0.0.1:9/hook', events: ['voucher.created'] },
        headers: c.managementKeyed(key),
      }),
    effects: async (c) => (await c.management.call('list-webhooks', { params: { projectId: c.pair.project_id } })).json.total as number,
  },
  {
    operationId: 'update-webhook',
    prepare: async (c) => {
      const made = await c.management.call('create-webhook', {
        params: { projectId: c.pair.project_id },
        json: { target_url: 'http://127.0.0.1:9/hook', events: ['voucher.created'] },
      });
      c.state.webhookId = made.json.id as string;
      c.clock.advance(SECOND);
    },
    send: (c, key) =>
      c.management.call('update-webhook', {
        params: { projectId: c.pair.project_id, webhookId: String(c.state.webhookId) },
        json: { target_url: 'http://127.0.0.1:9/other', events: ['voucher.updated'] },
        headers: c.managementKeyed(key),
      }),
    // Every update stamps the webhook's update time: a second run would move it to the retry's time.
    effects: async (c) =>
      Date.parse(String((await entities.webhook.get(c.runtime, entities.webhook.key(c.pair.project_id, String(c.state.webhookId))))?.updatedAt ?? 0)) || 0,
  },
  {
    operationId: 'delete-webhook',
    prepare: async (c) => {
      const made = await c.management.call('create-webhook', {
        params: { projectId: c.pair.project_id },
        json: { target_url: 'http://127.0.0.1:9/hook', events: ['voucher.created'] },
      });
      c.state.webhookId = made.json.id as string;
    },
    send: (c, key) =>
      c.management.call('delete-webhook', { params: { projectId: c.pair.project_id, webhookId: String(c.state.webhookId) }, headers: c.managementKeyed(key) }),
    // 1 once deleted; a second run would answer 404 instead of the first 204.
    effects: async (c) => ((await c.management.call('list-webhooks', { params: { projectId: c.pair.project_id } })).json.total === 0 ? 1 : 0),
  },
  {
    operationId: 'create-campaign',
    prepare: async () => undefined,
    send: (c, key) => c.campaigns.createCampaign(campaignBodies.DISCOUNT_COUPONS('Once'), c.keyed(key)),
    effects: async (c) => (await c.campaigns.listCampaigns()).json.total as number,
  },
  {
    operationId: 'add-vouchers-to-campaign',
    prepare: async (c) => void (await newCampaign(c.campaigns, campaignBodies.DISCOUNT_COUPONS('Box'))),
    send: (c, key) => c.campaigns.addVoucher('Box', {}, '', c.keyed(key)),
    effects: async (c) => (await c.campaigns.getCampaign('Box')).json.vouchers_count as number,
  },
  {
    operationId: 'create-campaign-template',
    prepare: async (c) => void (await newCampaign(c.campaigns, campaignBodies.DISCOUNT_COUPONS('Source'))),
    send: (c, key) =>
      callRoute(makeCreateTemplate({ runtime: c.runtime }), createCampaignTemplateRoute, {
        path: '/v1/templates/campaigns',
        json: { name: 'Tpl', campaign_id: 'Source' },
        headers: c.keyed(key),
      }),
    effects: (c) => c.countItems('TEMPLATE#', 'CAMPAIGN_TEMPLATE'),
  },
  {
    operationId: 'update-campaign-template',
    prepare: async (c) => {
      const source = await newCampaign(c.campaigns, campaignBodies.DISCOUNT_COUPONS('Source'));
      const made = await c.customers.call('create-campaign-template', { json: { name: 'Tpl', campaign_id: source.id } });
      expect(made.status).toBe(200);
      c.state.templateId = made.json.id as string;
    },
    send: (c, key) =>
      c.customers.call('update-campaign-template', {
        params: { campaignTemplateId: c.state.templateId ?? '' },
        json: { description: 'd' },
        headers: c.keyed(key),
      }),
    // Every update refreshes updated_at: a second run would move it to the retry's time.
    effects: async (c) => updatedAtOf(await c.customers.call('get-campaign-template', { params: { campaignTemplateId: c.state.templateId ?? '' } })),
  },
  {
    operationId: 'delete-campaign-template',
    prepare: async (c) => {
      const source = await newCampaign(c.campaigns, campaignBodies.DISCOUNT_COUPONS('Source'));
      const made = await c.customers.call('create-campaign-template', { json: { name: 'Tpl', campaign_id: source.id } });
      expect(made.status).toBe(200);
      c.state.templateId = made.json.id as string;
    },
    send: (c, key) => c.customers.call('delete-campaign-template', { params: { campaignTemplateId: c.state.templateId ?? '' }, headers: c.keyed(key) }),
    // 1 once deleted; a second run would answer 404 instead of the first 204.
    effects: async (c) =>
      (await c.customers.call('get-campaign-template', { params: { campaignTemplateId: c.state.templateId ?? '' } })).status === 404 ? 1 : 0,
  },
  {
    operationId: 'create-campaign-from-template',
    prepare: async (c) => {
      const source = await newCampaign(c.campaigns, campaignBodies.DISCOUNT_COUPONS('Source'));
      const made = await c.customers.call('create-campaign-template', { json: { name: 'Tpl', campaign_id: source.id } });
      expect(made.status).toBe(200);
      c.state.templateId = made.json.id as string;
    },
    send: (c, key) =>
      c.customers.call('create-campaign-from-template', {
        params: { campaignTemplateId: c.state.templateId ?? '' },
        json: { name: 'From tpl', vouchers_count: 1 },
        headers: c.keyed(key),
      }),
    // The project's campaigns; a second run would add none (the name is taken) but answer 409 instead of the first 200.
    effects: async (c) => (await c.campaigns.listCampaigns()).json.total as number,
  },
  {
    operationId: 'add-tier-from-template',
    prepare: async (c) => {
      const source = await newCampaign(c.campaigns, campaignBodies.DISCOUNT_COUPONS('Source'));
      const made = await c.customers.call('create-campaign-template', { json: { name: 'Tpl', campaign_id: source.id } });
      expect(made.status).toBe(200);
      c.state.templateId = made.json.id as string;
      await newCampaign(c.campaigns, campaignBodies.PROMOTION('Promo'));
    },
    send: (c, key) =>
      c.customers.call('add-tier-from-template', {
        params: { campaignTemplateId: c.state.templateId ?? '' },
        json: { campaign_id: 'Promo', name: 'Added' },
        headers: c.keyed(key),
      }),
    // The promotion's tiers: a second run would add another.
    effects: async (c) => ((await c.campaigns.getCampaign('Promo')).json.promotion as { total: number }).total,
  },
  {
    operationId: 'create-reward',
    prepare: async () => undefined,
    send: (c, key) => c.rewards.createReward(rewardBodies.MATERIAL(), c.keyed(key)),
    effects: (c) => c.countItems('REWARD#', 'REWARD'),
  },
  {
    operationId: 'create-custom-event-schema',
    prepare: async () => undefined,
    send: (c, key) => c.events.createSchema(schemaBody('order_paid', { amount: 'number' }), c.keyed(key)),
    effects: async (c) => (await c.events.listSchemas()).json.total as number,
  },
  {
    operationId: 'create-reward-assignment',
    prepare: async (c) => {
      const club = await newCampaign(c.campaigns, campaignBodies.LOYALTY_PROGRAM('Club'));
      const reward = await c.rewards.createReward(rewardBodies.MATERIAL('Prize'));
      expect(reward.status).toBe(200);
      c.state.clubId = club.id as string;
      c.state.rewardId = reward.json.id as string;
    },
    send: (c, key) => c.rewards.assign(c.state.rewardId ?? '', { campaign: c.state.clubId, parameters: { loyalty: { points: 39 } } }, c.keyed(key)),
    effects: (c) => c.countItems('REWARD_ASSIGNMENT#', 'REWARD_ASSIGNMENT'),
  },
  {
    operationId: 'create-points-expiration-export',
    prepare: async (c) => void (await newCampaign(c.campaigns, loyaltyProgram)),
    send: (c, key) =>
      callRoute(makeCreateExport({ runtime: c.runtime, jobs: c.jobs }), createPointsExpirationExportRoute, {
        path: '/v1/loyalties/Club/points-expiration/export',
        json: {},
        headers: c.keyed(key),
      }),
    effects: async (c) => (await c.countItems('EXPORT#', 'EXPORT')) + c.jobs.sent.length * 100,
  },
  {
    operationId: 'create-export',
    prepare: async () => undefined,
    send: (c, key) => c.customers.call('create-export', { json: { exported_object: 'customer' }, headers: c.keyed(key) }),
    effects: async (c) => (await c.countItems('EXPORT#', 'EXPORT')) + c.jobs.sent.length * 100,
  },
  {
    operationId: 'create-order-export',
    prepare: async () => undefined,
    send: (c, key) => c.customers.call('create-order-export', { json: {}, headers: c.keyed(key) }),
    effects: async (c) => (await c.countItems('EXPORT#', 'EXPORT')) + c.jobs.sent.length * 100,
  },
  {
    operationId: 'export-voucher-transactions',
    prepare: async (c) => {
      const made = await c.customers.call('create-voucher', { params: { code: 'TX-ONCE' }, json: { type: 'GIFT_VOUCHER', gift: { amount: 100 } } });
      expect(made.status).toBe(200);
    },
    send: (c, key) => c.customers.call('export-voucher-transactions', { params: { code: 'TX-ONCE' }, json: {}, headers: c.keyed(key) }),
    effects: async (c) => (await c.countItems('EXPORT#', 'EXPORT')) + c.jobs.sent.length * 100,
  },
  {
    operationId: 'export-campaign-transactions',
    prepare: async (c) => void (await newCampaign(c.campaigns, loyaltyProgram)),
    send: (c, key) => c.customers.call('export-campaign-transactions', { params: { campaignId: 'Club' }, json: {}, headers: c.keyed(key) }),
    effects: async (c) => (await c.countItems('EXPORT#', 'EXPORT')) + c.jobs.sent.length * 100,
  },
  {
    operationId: 'export-loyalty-campaign-transactions',
    prepare: async (c) => void (await newCampaign(c.campaigns, loyaltyProgram)),
    send: (c, key) => c.customers.call('export-loyalty-campaign-transactions', { params: { campaignId: 'Club' }, json: {}, headers: c.keyed(key) }),
    effects: async (c) => (await c.countItems('EXPORT#', 'EXPORT')) + c.jobs.sent.length * 100,
  },
  {
    operationId: 'export-loyalty-card-transactions',
    prepare: async (c) => {
      await newCampaign(c.campaigns, loyaltyProgram);
      const card = await c.customers.call('add-vouchers-to-campaign', { params: { campaignId: 'Club' }, json: { code: 'CARD-ONCE' } });
      expect(card.status).toBe(200);
    },
    send: (c, key) => c.customers.call('export-loyalty-card-transactions', { params: { memberId: 'CARD-ONCE' }, json: {}, headers: c.keyed(key) }),
    effects: async (c) => (await c.countItems('EXPORT#', 'EXPORT')) + c.jobs.sent.length * 100,
  },
  {
    operationId: 'export-loyalty-card-transactions-1',
    prepare: async (c) => {
      await newCampaign(c.campaigns, loyaltyProgram);
      const card = await c.customers.call('add-vouchers-to-campaign', { params: { campaignId: 'Club' }, json: { code: 'CARD-ONCE' } });
      expect(card.status).toBe(200);
    },
    send: (c, key) =>
      c.customers.call('export-loyalty-card-transactions-1', { params: { campaignId: 'Club', memberId: 'CARD-ONCE' }, json: {}, headers: c.keyed(key) }),
    effects: async (c) => (await c.countItems('EXPORT#', 'EXPORT')) + c.jobs.sent.length * 100,
  },
  {
    operationId: 'delete-export',
    prepare: async (c) => {
      const made = await c.customers.call('create-export', { json: { exported_object: 'order' } });
      expect(made.status).toBe(200);
      c.state.exportId = made.json.id as string;
    },
    send: (c, key) => exportFilesClient(c).call('delete-export', { params: { exportId: c.state.exportId ?? '' }, headers: c.keyed(key) }),
    // 1 once deleted; a second run would answer 404 instead of the first 204.
    effects: async (c) => ((await c.customers.call('get-export', { params: { exportId: c.state.exportId ?? '' } })).status === 404 ? 1 : 0),
  },
  {
    operationId: 'create-customer',
    prepare: async () => undefined,
    send: (c, key) => c.customers.call('create-customer', { json: { source_id: 'once', name: 'Once' }, headers: c.keyed(key) }),
    effects: (c) => c.countItems('CUSTOMER#', 'CUSTOMER'),
  },
  {
    operationId: 'update-customer',
    prepare: async (c) => void expect((await c.customers.call('create-customer', { json: { source_id: 'amy' } })).status).toBe(200),
    send: (c, key) => c.customers.call('update-customer', { params: { customerId: 'amy' }, json: { name: 'Amy' }, headers: c.keyed(key) }),
    // The update's visible effect: the time of the customer's last change.
    effects: async (c) => updatedAtOf(await c.customers.call('get-customer', { params: { customerId: 'amy' } })),
  },
  {
    operationId: 'update-project-stacking-rules',
    prepare: async () => undefined,
    send: (c, key) => c.customers.call('update-project-stacking-rules', { json: { redeemables_application_mode: 'PARTIAL' }, headers: c.keyed(key) }),
    effects: async (c) => updatedAtOf(await c.customers.call('get-project-stacking-rules', {})),
  },
  {
    operationId: 'delete-customer',
    prepare: async (c) => void expect((await c.customers.call('create-customer', { json: { source_id: 'bea' } })).status).toBe(200),
    send: (c, key) => c.customers.call('delete-customer', { params: { customerId: 'bea' }, headers: c.keyed(key) }),
    // 1 once deleted; a second run would answer 404 instead of the first 204.
    effects: async (c) => ((await c.customers.call('get-customer', { params: { customerId: 'bea' } })).status === 404 ? 1 : 0),
  },
  {
    operationId: 'customer-permanently-deletion',
    prepare: async (c) => void expect((await c.customers.call('create-customer', { json: { source_id: 'ema', email: 'ema@shop.example' } })).status).toBe(200),
    send: (c, key) => c.customers.call('customer-permanently-deletion', { params: { customerId: 'ema' }, json: {}, headers: c.keyed(key) }),
    // 1 once erased; a second run by source id would answer 404 (the source id is forgotten) instead of the first 200.
    effects: async (c) => ((await c.customers.call('get-customer', { params: { customerId: 'ema' } })).status === 404 ? 1 : 0),
  },
  {
    operationId: 'release-validation-session',
    prepare: async (c) => {
      expect(
        (
          await c.customers.call('create-voucher', {
            params: { code: 'HELD' },
            json: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, redemption: { quantity: 1 } },
          })
        ).status,
      ).toBe(200);
      // The hold a LOCK validation leaves (lib/redemptions/session-lock.ts), written as that validation would.
      await c.runtime.ddb.send(
        new UpdateCommand({
          TableName: c.runtime.tableName,
          Key: voucherEntity.key(c.pair.project_id, 'HELD'),
          UpdateExpression: 'SET sessions = :s',
          ExpressionAttributeValues: { ':s': { cart: { expiresAt: new Date(at + 7 * 86_400 * SECOND).toISOString(), uses: 1, credits: 0 } } },
        }),
      );
    },
    send: (c, key) => c.customers.call('release-validation-session', { params: { code: 'HELD', sessionKey: 'cart' }, headers: c.keyed(key) }),
    // 1 once released; a second run would answer 404 (nothing held) instead of the first 204.
    effects: async (c) => {
      const read = await c.runtime.ddb.send(
        new GetCommand({ TableName: c.runtime.tableName, Key: voucherEntity.key(c.pair.project_id, 'HELD'), ConsistentRead: true }),
      );
      return (read.Item?.sessions as Record<string, unknown> | undefined)?.cart === undefined ? 1 : 0;
    },
  },
  {
    operationId: 'rollback-redemption',
    prepare: async (c) => {
      const v = await makeVoucher(c.runtime, c.customers, c.pair.project_id, 'RB-GENERIC', { redemption: { quantity: 2 } });
      const plan = planFor(c.runtime, c.pair.project_id, [v]);
      plan.redeemables[0] = { ...(plan.redeemables[0] as PlannedRedeemable), redemptionId: 'r_generic_child' };
      await commitRedemption(c.runtime, plan);
    },
    send: (c, key) => c.customers.call('rollback-redemption', { params: { redemptionId: 'r_generic_child' }, headers: c.keyed(key) }),
    // Rollback records: one once rolled back; a second run would answer 400 already_rolled_back instead of the first reply.
    effects: (c) => c.countItems('REDEMPTION#', 'REDEMPTION'),
  },
  {
    operationId: 'rollback-stacked-redemptions',
    prepare: async (c) => {
      const v = await makeVoucher(c.runtime, c.customers, c.pair.project_id, 'RBS-GENERIC');
      await commitRedemption(c.runtime, { ...planFor(c.runtime, c.pair.project_id, [v]), parentRedemptionId: 'r_generic_parent' });
    },
    send: (c, key) => c.customers.call('rollback-stacked-redemptions', { params: { redemptionId: 'r_generic_parent' }, headers: c.keyed(key) }),
    effects: (c) => c.countItems('REDEMPTION#', 'REDEMPTION'),
  },
  {
    operationId: 'create-order',
    prepare: async () => undefined,
    // No source_id: every run that is not a replay makes another order.
    send: (c, key) => c.customers.call('create-order', { json: { amount: 100 }, headers: c.keyed(key) }),
    effects: (c) => c.countItems('ORDER#', 'ORDER'),
  },
  {
    operationId: 'update-order',
    prepare: async (c) => void expect((await c.customers.call('create-order', { json: { source_id: 'cart' } })).status).toBe(200),
    send: (c, key) => c.customers.call('update-order', { params: { orderId: 'cart' }, json: { status: 'PAID' }, headers: c.keyed(key) }),
    // The update's visible effect: the time of the order's last change.
    effects: async (c) => updatedAtOf(await c.customers.call('get-order', { params: { orderId: 'cart' } })),
  },
  {
    operationId: 'create-category',
    prepare: async () => undefined,
    send: (c, key) => c.customers.call('create-category', { json: { name: 'Once', hierarchy: 1 }, headers: c.keyed(key) }),
    effects: async (c) => (await c.customers.call('list-categories')).json.total as number,
  },
  {
    operationId: 'update-category',
    prepare: async (c) => {
      const made = await c.customers.call('create-category', { json: { name: 'Tag', hierarchy: 1 } });
      expect(made.status).toBe(200);
      c.state.categoryId = made.json.id as string;
    },
    send: (c, key) =>
      c.customers.call('update-category', { params: { categoryId: c.state.categoryId ?? '' }, json: { name: 'Tag', hierarchy: 2 }, headers: c.keyed(key) }),
    // Every update refreshes updated_at: a second run would move it to the retry's time.
    effects: async (c) => updatedAtOf(await c.customers.call('get-category', { params: { categoryId: c.state.categoryId ?? '' } })),
  },
  {
    operationId: 'delete-category',
    prepare: async (c) => {
      const made = await c.customers.call('create-category', { json: { name: 'Gone', hierarchy: 1 } });
      expect(made.status).toBe(200);
      c.state.categoryId = made.json.id as string;
    },
    send: (c, key) => c.customers.call('delete-category', { params: { categoryId: c.state.categoryId ?? '' }, headers: c.keyed(key) }),
    // 1 once deleted; a second run would answer 404 instead of the first 204.
    effects: async (c) => ((await c.customers.call('get-category', { params: { categoryId: c.state.categoryId ?? '' } })).status === 404 ? 1 : 0),
  },
  {
    operationId: 'create-segment',
    prepare: async () => undefined,
    send: (c, key) => c.customers.call('create-segment', { json: { name: 'Once', type: 'static', customers: [] }, headers: c.keyed(key) }),
    effects: async (c) => (await c.customers.call('list-segment')).json.total as number,
  },
  {
    operationId: 'delete-segment',
    prepare: async (c) => {
      const made = await c.customers.call('create-segment', { json: { name: 'Gone', type: 'static', customers: [] } });
      expect(made.status).toBe(200);
      c.state.segmentId = made.json.id as string;
    },
    send: (c, key) => c.customers.call('delete-segment', { params: { segmentId: c.state.segmentId ?? '' }, headers: c.keyed(key) }),
    // 1 once deleted; a second run would answer 404 instead of the first 204.
    effects: async (c) => ((await c.customers.call('get-segment', { params: { segmentId: c.state.segmentId ?? '' } })).status === 404 ? 1 : 0),
  },
  {
    operationId: 'delete-bin-entry',
    prepare: async (c) => {
      const made = await c.customers.call('create-voucher', { params: { code: 'BIN-ONCE' }, json: { type: 'GIFT_VOUCHER', gift: { amount: 100 } } });
      expect(made.status).toBe(200);
      expect((await c.customers.call('delete-voucher', { params: { code: 'BIN-ONCE' } })).status).toBe(204);
      const bin = (await c.customers.call('list-bin-entries')).json as { data: { id: string; resource_name: string }[] };
      c.state.binEntryId = bin.data.find((e) => e.resource_name === 'BIN-ONCE')?.id ?? '';
    },
    send: (c, key) => c.customers.call('delete-bin-entry', { params: { binEntryId: c.state.binEntryId ?? '' }, headers: c.keyed(key) }),
    // 1 once deleted; a second run would answer 404 instead of the first 204.
    effects: async (c) =>
      ((await c.customers.call('list-bin-entries')).json as { data: { id: string }[] }).data.some((e) => e.id === c.state.binEntryId) ? 0 : 1,
  },
  {
    operationId: 'create-product',
    prepare: async () => undefined,
    // No source_id: every run that gets through makes another product.
    send: (c, key) => c.customers.call('create-product', { json: { name: 'Once', price: 100 }, headers: c.keyed(key) }),
    effects: async (c) => (await c.customers.call('list-products')).json.total as number,
  },
  {
    operationId: 'update-product',
    prepare: async (c) => {
      const made = await c.customers.call('create-product', { json: { source_id: 'shoe' } });
      expect(made.status).toBe(200);
      c.state.productId = made.json.id as string;
    },
    send: (c, key) => c.customers.call('update-product', { params: { productId: c.state.productId ?? '' }, json: { price: 2500 }, headers: c.keyed(key) }),
    effects: async (c) => updatedAtOf(await c.customers.call('get-product', { params: { productId: c.state.productId ?? '' } })),
  },
  {
    operationId: 'delete-product',
    prepare: async (c) => {
      const made = await c.customers.call('create-product', { json: { source_id: 'gone' } });
      expect(made.status).toBe(200);
      c.state.productId = made.json.id as string;
    },
    send: (c, key) => c.customers.call('delete-product', { params: { productId: c.state.productId ?? '' }, headers: c.keyed(key) }),
    // 1 once deleted; a second run would answer 404 instead of the first 204.
    effects: async (c) => ((await c.customers.call('get-product', { params: { productId: c.state.productId ?? '' } })).status === 404 ? 1 : 0),
  },
  {
    operationId: 'create-sku',
    prepare: async (c) => {
      const made = await c.customers.call('create-product', { json: { source_id: 'shirt' } });
      expect(made.status).toBe(200);
      c.state.productId = made.json.id as string;
    },
    // No source_id: every run that gets through adds another SKU.
    send: (c, key) => c.customers.call('create-sku', { params: { productId: c.state.productId ?? '' }, json: { sku: 'Red' }, headers: c.keyed(key) }),
    effects: async (c) => (await c.customers.call('list-SKUs-in-product', { params: { productId: c.state.productId ?? '' } })).json.total as number,
  },
  {
    operationId: 'update-sku',
    prepare: async (c) => {
      const made = await c.customers.call('create-product', { json: { source_id: 'shirt' } });
      c.state.productId = made.json.id as string;
      const sku = await c.customers.call('create-sku', { params: { productId: c.state.productId }, json: { sku: 'Red', price: 100 } });
      expect(sku.status).toBe(200);
      c.state.skuId = sku.json.id as string;
    },
    send: (c, key) =>
      c.customers.call('update-sku', {
        params: { productId: c.state.productId ?? '', skuId: c.state.skuId ?? '' },
        json: { price: 200 },
        headers: c.keyed(key),
      }),
    effects: async (c) => updatedAtOf(await c.customers.call('get-sku', { params: { skuId: c.state.skuId ?? '' } })),
  },
  {
    operationId: 'delete-sku',
    prepare: async (c) => {
      const made = await c.customers.call('create-product', { json: { source_id: 'shirt' } });
      c.state.productId = made.json.id as string;
      const sku = await c.customers.call('create-sku', { params: { productId: c.state.productId }, json: { sku: 'Red' } });
      expect(sku.status).toBe(200);
      c.state.skuId = sku.json.id as string;
    },
    send: (c, key) => c.customers.call('delete-sku', { params: { productId: c.state.productId ?? '', skuId: c.state.skuId ?? '' }, headers: c.keyed(key) }),
    // 1 once deleted; a second run would answer 404 instead of the first 204.
    effects: async (c) => ((await c.customers.call('get-sku', { params: { skuId: c.state.skuId ?? '' } })).status === 404 ? 1 : 0),
  },
  {
    operationId: 'create-product-collection',
    prepare: async () => undefined,
    send: (c, key) => c.customers.call('create-product-collection', { json: { type: 'STATIC', name: 'Once' }, headers: c.keyed(key) }),
    effects: async (c) => (await c.customers.call('list-product-collections')).json.total as number,
  },
  {
    operationId: 'put-product-collection',
    prepare: async (c) => {
      expect((await c.customers.call('create-product', { json: { name: 'A' } })).status).toBe(200);
      const made = await c.customers.call('create-product-collection', {
        json: { type: 'AUTO_UPDATE', name: 'None', filter: { junction: 'and', name: { conditions: { $is: ['nothing'] } } } },
      });
      expect(made.status).toBe(200);
      c.state.collectionId = made.json.id as string;
    },
    // The new filter takes every product: the collection's members are the effect.
    send: (c, key) =>
      c.customers.call('put-product-collection', {
        params: { productCollectionId: c.state.collectionId ?? '' },
        json: { name: 'All', filter: { junction: 'and' } },
        headers: c.keyed(key),
      }),
    effects: async (c) =>
      (await c.customers.call('list-products-in-collection', { params: { productCollectionId: c.state.collectionId ?? '' } })).json.total as number,
  },
  {
    operationId: 'delete-product-collection',
    prepare: async (c) => {
      const made = await c.customers.call('create-product-collection', { json: { type: 'STATIC', name: 'Gone' } });
      expect(made.status).toBe(200);
      c.state.collectionId = made.json.id as string;
    },
    send: (c, key) => c.customers.call('delete-product-collection', { params: { productCollectionId: c.state.collectionId ?? '' }, headers: c.keyed(key) }),
    // 1 once deleted; a second run would answer 404 instead of the first 204.
    effects: async (c) =>
      (await c.customers.call('get-product-collection', { params: { productCollectionId: c.state.collectionId ?? '' } })).status === 404 ? 1 : 0,
  },
  {
    operationId: 'create-validation-rules',
    prepare: async () => undefined,
    send: (c, key) => c.customers.call('create-validation-rules', { json: { name: 'Once' }, headers: c.keyed(key) }),
    effects: async (c) => (await c.customers.call('list-validation-rules')).json.total as number,
  },
  {
    operationId: 'update-validation-rule',
    prepare: async (c) => {
      const made = await c.customers.call('create-validation-rules', { json: { name: 'Rule' } });
      expect(made.status).toBe(200);
      c.state.validationRuleId = made.json.id as string;
    },
    send: (c, key) =>
      c.customers.call('update-validation-rule', {
        params: { validationRuleId: c.state.validationRuleId ?? '' },
        json: { name: 'Rule 2' },
        headers: c.keyed(key),
      }),
    // Every update refreshes updated_at: a second run would move it to the retry's time.
    effects: async (c) => updatedAtOf(await c.customers.call('get-validation-rule', { params: { validationRuleId: c.state.validationRuleId ?? '' } })),
  },
  {
    operationId: 'delete-validation-rules',
    prepare: async (c) => {
      const made = await c.customers.call('create-validation-rules', { json: { name: 'Gone' } });
      expect(made.status).toBe(200);
      c.state.validationRuleId = made.json.id as string;
    },
    send: (c, key) => c.customers.call('delete-validation-rules', { params: { validationRuleId: c.state.validationRuleId ?? '' }, headers: c.keyed(key) }),
    // 1 once deleted; a second run would answer 404 instead of the first 204.
    effects: async (c) =>
      (await c.customers.call('get-validation-rule', { params: { validationRuleId: c.state.validationRuleId ?? '' } })).status === 404 ? 1 : 0,
  },
  {
    operationId: 'create-validation-rule-assignment',
    prepare: async (c) => {
      const made = await c.customers.call('create-validation-rules', { json: { name: 'Assigned' } });
      expect(made.status).toBe(200);
      c.state.validationRuleId = made.json.id as string;
    },
    send: (c, key) =>
      c.customers.call('create-validation-rule-assignment', {
        params: { validationRuleId: c.state.validationRuleId ?? '' },
        json: { related_object_type: 'distribution', related_object_id: 'distr_once' },
        headers: c.keyed(key),
      }),
    // A second run would answer 409 (the rule is on the object already) instead of the first 200.
    effects: async (c) =>
      (await c.customers.call('list-validation-rule-assignments', { params: { validationRuleId: c.state.validationRuleId ?? '' } })).json.total as number,
  },
  {
    operationId: 'delete-validation-rule-assignment',
    prepare: async (c) => {
      const made = await c.customers.call('create-validation-rules', { json: { name: 'Unassigned' } });
      expect(made.status).toBe(200);
      c.state.validationRuleId = made.json.id as string;
      const assigned = await c.customers.call('create-validation-rule-assignment', {
        params: { validationRuleId: c.state.validationRuleId },
        json: { related_object_type: 'distribution', related_object_id: 'distr_gone' },
      });
      expect(assigned.status).toBe(200);
      c.state.assignmentId = assigned.json.id as string;
    },
    send: (c, key) =>
      c.customers.call('delete-validation-rule-assignment', {
        params: { validationRuleId: c.state.validationRuleId ?? '', assignmentId: c.state.assignmentId ?? '' },
        headers: c.keyed(key),
      }),
    // 1 once deleted; a second run would answer 404 instead of the first 204.
    effects: async (c) =>
      (await c.customers.call('list-validation-rule-assignments', { params: { validationRuleId: c.state.validationRuleId ?? '' } })).json.total === 0 ? 1 : 0,
  },
  {
    operationId: 'revoke-oauth-token',
    prepare: async (c) => {
      const token = await c.customers.call('generate-oauth-token', { form: { grant_type: 'client_credentials', scope: 'api' } });
      expect(token.status).toBe(200);
      c.state.accessToken = token.json.access_token as string;
    },
    send: (c, key) => c.customers.call('revoke-oauth-token', { form: { access_token: c.state.accessToken ?? '' }, headers: c.keyed(key) }),
    // 1 once the token item is gone; a second run would answer 404 instead of the first 204.
    effects: async (c) => ((await getToken(c.runtime, hashSecret(c.state.accessToken ?? ''))) === null ? 1 : 0),
  },
  {
    operationId: 'update-voucher',
    prepare: async (c) =>
      void expect(
        (await c.campaigns.addVoucher((await newCampaign(c.campaigns, campaignBodies.DISCOUNT_COUPONS('Put'))).id as string, { code: 'PUT-1' })).status,
      ).toBe(200),
    send: (c, key) => c.customers.call('update-voucher', { params: { code: 'PUT-1' }, json: { metadata: { once: true } }, headers: c.keyed(key) }),
    effects: async (c) => updatedAtOf(await c.customers.call('get-voucher', { params: { code: 'PUT-1' } })),
  },
  {
    operationId: 'disable-voucher',
    prepare: async (c) =>
      void expect(
        (await c.campaigns.addVoucher((await newCampaign(c.campaigns, campaignBodies.DISCOUNT_COUPONS('Off'))).id as string, { code: 'OFF-1' })).status,
      ).toBe(200),
    send: (c, key) => c.customers.call('disable-voucher', { params: { code: 'OFF-1' }, headers: c.keyed(key) }),
    // Every change refreshes updated_at: a second run would move it to the retry's time.
    effects: async (c) => updatedAtOf(await c.customers.call('get-voucher', { params: { code: 'OFF-1' } })),
  },
  {
    operationId: 'enable-voucher',
    prepare: async (c) =>
      void expect(
        (await c.campaigns.addVoucher((await newCampaign(c.campaigns, campaignBodies.DISCOUNT_COUPONS('On'))).id as string, { code: 'ON-1' })).status,
      ).toBe(200),
    send: (c, key) => c.customers.call('enable-voucher', { params: { code: 'ON-1' }, headers: c.keyed(key) }),
    effects: async (c) => updatedAtOf(await c.customers.call('get-voucher', { params: { code: 'ON-1' } })),
  },
  {
    operationId: 'create-voucher',
    prepare: async () => undefined,
    // Generated codes would differ per run; a fixed one makes a second run a 409, so the voucher count tells.
    send: (c, key) =>
      c.customers.call('create-voucher', {
        params: { code: 'ONCE-1' },
        json: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } },
        headers: c.keyed(key),
      }),
    effects: (c) => c.countItems('VOUCHER_ID#'),
  },
  {
    operationId: 'generate-random-code',
    prepare: async () => undefined,
    send: (c, key) => c.customers.call('generate-random-code', { json: { type: 'GIFT_VOUCHER', gift: { amount: 1000 } }, headers: c.keyed(key) }),
    effects: (c) => c.countItems('VOUCHER_ID#'),
  },
  {
    operationId: 'add-voucher-with-specific-code-to-campaign',
    prepare: async (c) => void (await newCampaign(c.campaigns, campaignBodies.DISCOUNT_COUPONS('Coded'))),
    send: (c, key) =>
      c.customers.call('add-voucher-with-specific-code-to-campaign', { params: { campaignId: 'Coded', code: 'CODED-1' }, json: {}, headers: c.keyed(key) }),
    effects: async (c) => (await c.campaigns.getCampaign('Coded')).json.vouchers_count as number,
  },
  {
    operationId: 'import-vouchers-to-campaign',
    prepare: async (c) => void (await newCampaign(c.campaigns, campaignBodies.DISCOUNT_COUPONS('Imports'))),
    send: (c, key) => c.customers.call('import-vouchers-to-campaign', { params: { campaignId: 'Imports' }, json: [{ code: 'IMP-1' }], headers: c.keyed(key) }),
    effects: (c) => c.countItems('ASYNC_ACTION#', 'ASYNC_ACTION'),
  },
  {
    operationId: 'import-vouchers',
    prepare: async () => undefined,
    send: (c, key) => c.customers.call('import-vouchers', { json: [{ code: 'IMP-2', discount: { type: 'AMOUNT', amount_off: 100 } }], headers: c.keyed(key) }),
    effects: (c) => c.countItems('ASYNC_ACTION#', 'ASYNC_ACTION'),
  },
  {
    operationId: 'disable-campaign',
    prepare: async (c) => void (await newCampaign(c.campaigns, campaignBodies.DISCOUNT_COUPONS('Dim'))),
    send: (c, key) => c.customers.call('disable-campaign', { params: { campaignId: 'Dim' }, headers: c.keyed(key) }),
    // Every change refreshes updated_at: a second run would move it to the retry's time.
    effects: async (c) => updatedAtOf(await c.campaigns.getCampaign('Dim')),
  },
  {
    operationId: 'add-promotion-tier-to-campaign',
    prepare: async (c) => void (await newCampaign(c.campaigns, { name: 'Tiers', campaign_type: 'PROMOTION' })),
    send: (c, key) => c.customers.call('add-promotion-tier-to-campaign', { params: { campaignId: 'Tiers' }, json: { name: 'Once' }, headers: c.keyed(key) }),
    effects: async (c) => (await c.customers.call('list-promotion-tiers-from-campaign', { params: { campaignId: 'Tiers' } })).json.total as number,
  },
  ...(['update-promotion-tier', 'enable-promotion-tier', 'disable-promotion-tier'] as const).map(
    (operationId): RouteCase => ({
      operationId,
      prepare: async (c) => {
        const made = await c.customers.call('create-campaign', {
          json: { name: `Tier ${operationId}`, campaign_type: 'PROMOTION', promotion: { tiers: [{ name: 'Tier' }] } },
        });
        expect(made.status).toBe(200);
        c.state.tierId = ((made.json.promotion as { tiers: { id: string }[] }).tiers[0] as { id: string }).id;
      },
      send: (c, key) =>
        c.customers.call(operationId, {
          params: { promotionTierId: c.state.tierId ?? '' },
          ...(operationId === 'update-promotion-tier' ? { json: { banner: 'once' } } : {}),
          headers: c.keyed(key),
        }),
      // Every change refreshes the tier's updated_at: a second run would move it to the retry's time.
      effects: async (c) => updatedAtOf(await c.customers.call('get-promotion-tier', { params: { promotionTierId: c.state.tierId ?? '' } })),
    }),
  ),
  {
    operationId: 'delete-promotion-tier',
    prepare: async (c) => {
      const made = await c.customers.call('create-campaign', {
        json: { name: 'Tier gone', campaign_type: 'PROMOTION', promotion: { tiers: [{ name: 'Gone' }] } },
      });
      expect(made.status).toBe(200);
      c.state.tierId = ((made.json.promotion as { tiers: { id: string }[] }).tiers[0] as { id: string }).id;
    },
    send: (c, key) => c.customers.call('delete-promotion-tier', { params: { promotionTierId: c.state.tierId ?? '' }, headers: c.keyed(key) }),
    // 1 once deleted; a second run would answer 404 instead of the first 204.
    effects: async (c) => ((await c.customers.call('get-promotion-tier', { params: { promotionTierId: c.state.tierId ?? '' } })).status === 404 ? 1 : 0),
  },
  {
    operationId: 'enable-campaign',
    prepare: async (c) => void (await newCampaign(c.campaigns, campaignBodies.DISCOUNT_COUPONS('Lit'))),
    send: (c, key) => c.customers.call('enable-campaign', { params: { campaignId: 'Lit' }, headers: c.keyed(key) }),
    effects: async (c) => updatedAtOf(await c.campaigns.getCampaign('Lit')),
  },
  {
    operationId: 'update-campaign',
    prepare: async (c) => void (await newCampaign(c.campaigns, campaignBodies.DISCOUNT_COUPONS('Put'))),
    send: (c, key) => c.customers.call('update-campaign', { params: { campaignId: 'Put' }, json: { description: 'once' }, headers: c.keyed(key) }),
    effects: async (c) => updatedAtOf(await c.campaigns.getCampaign('Put')),
  },
  {
    operationId: 'delete-campaign',
    prepare: async (c) => void (await newCampaign(c.campaigns, campaignBodies.DISCOUNT_COUPONS('Bye'))),
    send: (c, key) =>
      apiClient({ runtime: c.runtime, jobs: c.jobs }, c.headers).call('delete-campaign', { params: { campaignId: 'Bye' }, headers: c.keyed(key) }),
    // The deletion jobs enqueued: a second run would answer 404 instead of the first 202 (and enqueue nothing).
    effects: async (c) => c.jobs.sent.length,
  },
  {
    operationId: 'create-loyalty-program',
    prepare: async () => undefined,
    send: (c, key) => c.customers.call('create-loyalty-program', { json: loyaltyProgramBody('Once'), headers: c.keyed(key) }),
    effects: async (c) => (await c.customers.call('list-loyalty-programs')).json.total as number,
  },
  {
    operationId: 'update-loyalty-program',
    prepare: async (c) => void (await newCampaign(c.campaigns, campaignBodies.LOYALTY_PROGRAM('Put'))),
    send: (c, key) => c.customers.call('update-loyalty-program', { params: { campaignId: 'Put' }, json: { description: 'once' }, headers: c.keyed(key) }),
    effects: async (c) => updatedAtOf(await c.campaigns.getCampaign('Put')),
  },
  {
    operationId: 'delete-loyalty-program',
    prepare: async (c) => void (await newCampaign(c.campaigns, campaignBodies.LOYALTY_PROGRAM('Bye'))),
    send: (c, key) => c.customers.call('delete-loyalty-program', { params: { campaignId: 'Bye' }, headers: c.keyed(key) }),
    // The deletion jobs enqueued: a second run would answer 404 instead of the first 200 (and enqueue nothing).
    effects: async (c) => c.jobs.sent.length,
  },
  {
    operationId: 'update-earning-rule',
    prepare: prepareEarningRule,
    send: (c, key) => c.customers.call('update-earning-rule', { params: ruleParams(c), json: { metadata: { once: true } }, headers: c.keyed(key) }),
    effects: ruleUpdatedAt,
  },
  {
    operationId: 'enable-earning-rule',
    prepare: prepareEarningRule,
    send: (c, key) => c.customers.call('enable-earning-rule', { params: ruleParams(c), headers: c.keyed(key) }),
    effects: ruleUpdatedAt,
  },
  {
    operationId: 'disable-earning-rule',
    prepare: prepareEarningRule,
    send: (c, key) => c.customers.call('disable-earning-rule', { params: ruleParams(c), headers: c.keyed(key) }),
    effects: ruleUpdatedAt,
  },
  {
    operationId: 'delete-earning-rule',
    prepare: prepareEarningRule,
    send: (c, key) => c.customers.call('delete-earning-rule', { params: ruleParams(c), headers: c.keyed(key) }),
    // 1 once deleted; a second run would answer 404 instead of the first 204.
    effects: async (c) => ((await c.customers.call('get-earning-rule', { params: ruleParams(c) })).status === 404 ? 1 : 0),
  },
  {
    operationId: 'update-reward',
    prepare: async (c) => void (c.state.rewardId = (await c.rewards.createReward(rewardBodies.MATERIAL())).json.id as string),
    send: (c, key) => c.customers.call('update-reward', { params: { rewardId: c.state.rewardId ?? '' }, json: { name: 'Once' }, headers: c.keyed(key) }),
    effects: async (c) => updatedAtOf(await c.rewards.getReward(c.state.rewardId ?? '')),
  },
  {
    operationId: 'delete-reward',
    prepare: async (c) => void (c.state.rewardId = (await c.rewards.createReward(rewardBodies.MATERIAL())).json.id as string),
    send: (c, key) => c.customers.call('delete-reward', { params: { rewardId: c.state.rewardId ?? '' }, headers: c.keyed(key) }),
    // 1 once deleted; a second run would answer 404 instead of the first 204.
    effects: async (c) => ((await c.rewards.getReward(c.state.rewardId ?? '')).status === 404 ? 1 : 0),
  },
  {
    operationId: 'update-reward-assignment',
    prepare: prepareAssignment,
    send: (c, key) =>
      c.customers.call('update-reward-assignment', { params: assignmentParams(c), json: { parameters: { loyalty: { points: 20 } } }, headers: c.keyed(key) }),
    effects: assignmentUpdatedAt,
  },
  {
    operationId: 'update-reward-assignment-1',
    prepare: prepareAssignment,
    send: (c, key) =>
      c.customers.call('update-reward-assignment-1', {
        params: loyaltyAssignmentParams(c),
        json: { parameters: { loyalty: { points: 20 } } },
        headers: c.keyed(key),
      }),
    effects: assignmentUpdatedAt,
  },
  {
    operationId: 'delete-reward-assignment',
    prepare: prepareAssignment,
    send: (c, key) => c.customers.call('delete-reward-assignment', { params: assignmentParams(c), headers: c.keyed(key) }),
    effects: assignmentGone,
  },
  {
    operationId: 'delete-reward-assignment-1',
    prepare: prepareAssignment,
    send: (c, key) => c.customers.call('delete-reward-assignment-1', { params: loyaltyAssignmentParams(c), headers: c.keyed(key) }),
    effects: assignmentGone,
  },
  {
    operationId: 'create-reward-assignment-1',
    prepare: async (c) => {
      await newCampaign(c.campaigns, campaignBodies.LOYALTY_PROGRAM('Club'));
      c.state.rewardId = (await c.rewards.createReward(rewardBodies.MATERIAL('Prize'))).json.id as string;
    },
    send: (c, key) =>
      c.customers.call('create-reward-assignment-1', {
        params: { campaignId: 'Club' },
        json: [{ reward: c.state.rewardId, parameters: { loyalty: { points: 39 } } }],
        headers: c.keyed(key),
      }),
    effects: (c) => c.countItems('REWARD_ASSIGNMENT#', 'REWARD_ASSIGNMENT'),
  },
  {
    operationId: 'create-metadata-schema',
    prepare: async () => undefined,
    send: (c, key) =>
      c.management.call('create-metadata-schema', {
        params: { projectId: c.pair.project_id },
        json: { related_object: 'customer', properties: { size: { type: 'number', optional: true, array: false } } },
        headers: c.managementKeyed(key),
      }),
    effects: async (c) => (await c.management.call('list-metadata-schemas-1', { params: { projectId: c.pair.project_id } })).json.total as number,
  },
  {
    operationId: 'update-metadata-schema',
    prepare: async (c) => {
      const made = await c.management.call('create-metadata-schema', {
        params: { projectId: c.pair.project_id },
        json: { related_object: 'order', properties: {} },
      });
      c.state.metadataSchemaId = made.json.id as string;
      c.clock.advance(SECOND);
    },
    send: (c, key) =>
      c.management.call('update-metadata-schema', {
        params: { projectId: c.pair.project_id, metadataSchemaId: c.state.metadataSchemaId ?? '' },
        json: { properties: { size: { type: 'number', optional: true, array: false } } },
        headers: c.managementKeyed(key),
      }),
    // Every update stamps the schema's update time: a second run would move it to the retry's time.
    effects: async (c) =>
      updatedAtOf(
        await c.management.call('get-metadata-schema-1', { params: { projectId: c.pair.project_id, metadataSchemaId: c.state.metadataSchemaId ?? '' } }),
      ),
  },
  {
    operationId: 'delete-metadata-schema',
    prepare: async (c) => {
      const made = await c.management.call('create-metadata-schema', {
        params: { projectId: c.pair.project_id },
        json: { related_object: 'order', properties: {} },
      });
      c.state.metadataSchemaId = made.json.id as string;
    },
    send: (c, key) =>
      c.management.call('delete-metadata-schema', {
        params: { projectId: c.pair.project_id, metadataSchemaId: c.state.metadataSchemaId ?? '' },
        headers: c.managementKeyed(key),
      }),
    // 1 once deleted; a second run would answer 404 instead of the first 204.
    effects: async (c) =>
      (await c.management.call('get-metadata-schema-1', { params: { projectId: c.pair.project_id, metadataSchemaId: c.state.metadataSchemaId ?? '' } }))
        .status === 404
        ? 1
        : 0,
  },
  // Management API beyond projects (issue 40): custom event schemas, branding, templates, users.
  {
    operationId: 'update-custom-event-schema',
    prepare: async (c) => {
      c.state.schemaId = (await c.events.createSchema(schemaBody('order_paid', { amount: 'number' }))).json.id as string;
      c.clock.advance(SECOND);
    },
    send: (c, key) =>
      c.management.call('update-custom-event-schema', {
        params: { projectId: c.pair.project_id, customEventSchemaId: c.state.schemaId ?? '' },
        json: { schema: { properties: { note: { type: 'string', optional: true } } } },
        headers: c.managementKeyed(key),
      }),
    effects: async (c) => updatedAtOf(await c.customers.call('get-custom-event-schema', { params: { schemaId: c.state.schemaId ?? '' } })),
  },
  {
    operationId: 'delete-custom-event-schema',
    prepare: async (c) => {
      c.state.schemaId = (await c.events.createSchema(schemaBody('order_paid', { amount: 'number' }))).json.id as string;
    },
    send: (c, key) =>
      c.management.call('delete-custom-event-schema', {
        params: { projectId: c.pair.project_id, customEventSchemaId: c.state.schemaId ?? '' },
        headers: c.managementKeyed(key),
      }),
    // 1 once deleted; a second run would answer 404 instead of the first 204.
    effects: async (c) => ((await c.customers.call('get-custom-event-schema', { params: { schemaId: c.state.schemaId ?? '' } })).status === 404 ? 1 : 0),
  },
  {
    operationId: 'create-brand',
    prepare: async () => undefined,
    send: (c, key) => c.management.call('create-brand', { params: { projectId: c.pair.project_id }, json: brandBody, headers: c.managementKeyed(key) }),
    effects: async (c) => (await c.management.call('list-brands', { params: { projectId: c.pair.project_id } })).json.total as number,
  },
  {
    operationId: 'update-brand',
    prepare: async (c) => {
      c.state.brandingId = (await c.management.call('create-brand', { params: { projectId: c.pair.project_id }, json: brandBody })).json.id as string;
      c.clock.advance(SECOND);
    },
    send: (c, key) =>
      c.management.call('update-brand', {
        params: { projectId: c.pair.project_id, brandingId: c.state.brandingId ?? '' },
        json: { brand: { name: 'Renamed' } },
        headers: c.managementKeyed(key),
      }),
    // Every update stamps the brand's update time: a second run would move it to the retry's time.
    effects: async (c) => Date.parse(String((await entities.branding.get(c.runtime, entities.branding.key(c.pair.project_id)))?.updatedAt ?? 0)) || 0,
  },
  {
    operationId: 'delete-brand',
    prepare: async (c) => {
      c.state.brandingId = (await c.management.call('create-brand', { params: { projectId: c.pair.project_id }, json: brandBody })).json.id as string;
    },
    send: (c, key) =>
      c.management.call('delete-brand', { params: { projectId: c.pair.project_id, brandingId: c.state.brandingId ?? '' }, headers: c.managementKeyed(key) }),
    effects: async (c) => ((await c.management.call('list-brands', { params: { projectId: c.pair.project_id } })).json.total === 0 ? 1 : 0),
  },
  {
    operationId: 'management-copy-campaign-template',
    prepare: async (c) => {
      await newCampaign(c.campaigns, campaignBodies.DISCOUNT_COUPONS('Source'));
      c.state.templateId = (await c.customers.call('create-campaign-template', { json: { name: 'Tpl', campaign_id: 'Source' } })).json.id as string;
    },
    send: (c, key) =>
      c.management.call('management-copy-campaign-template', {
        params: { projectId: c.pair.project_id, campaignTemplateId: c.state.templateId ?? '' },
        json: { name: 'Tpl copy', destination_project_id: c.pair.project_id },
        headers: c.managementKeyed(key),
      }),
    effects: async (c) => (await c.customers.call('list-campaign-templates', { query: 'include_total=true' })).json.total as number,
  },
  {
    operationId: 'invite-user',
    prepare: async () => undefined,
    send: (c, key) => c.management.call('invite-user', { json: inviteBody(c, 'invited'), headers: c.managementKeyed(key) }),
    effects: async (c) => (await c.management.call('list-users', { params: { projectId: c.pair.project_id } })).json.total as number,
  },
  {
    operationId: 'assign-user',
    prepare: async (c) => {
      const other = await newProject(c.runtime, 'other');
      expect((await c.management.call('invite-user', { json: { ...inviteBody(c, 'assigned'), projects: { [other.project_id]: 'USER' } } })).status).toBe(204);
      c.state.login = `assigned-${c.pair.project_id}@idem.example`;
    },
    send: (c, key) =>
      c.management.call('assign-user', {
        params: { projectId: c.pair.project_id },
        json: { login: c.state.login, role: 'VIEWER' },
        headers: c.managementKeyed(key),
      }),
    effects: async (c) => (await c.management.call('list-users', { params: { projectId: c.pair.project_id } })).json.total as number,
  },
  {
    operationId: 'update-user',
    prepare: async (c) => void (c.state.userId = await invitedUser(c)),
    send: (c, key) =>
      c.management.call('update-user', {
        params: { projectId: c.pair.project_id, userId: c.state.userId ?? '' },
        json: { role: 'ADMIN' },
        headers: c.managementKeyed(key),
      }),
    effects: async (c) =>
      (await c.management.call('get-user', { params: { projectId: c.pair.project_id, userId: c.state.userId ?? '' } })).json.role === 'ADMIN' ? 1 : 0,
  },
  {
    operationId: 'unassign-user',
    prepare: async (c) => void (c.state.userId = await invitedUser(c)),
    send: (c, key) =>
      c.management.call('unassign-user', { params: { projectId: c.pair.project_id, userId: c.state.userId ?? '' }, headers: c.managementKeyed(key) }),
    // 1 once unassigned; a second run would answer 404 instead of the first 204.
    effects: async (c) => ((await c.management.call('list-users', { params: { projectId: c.pair.project_id } })).json.total === 0 ? 1 : 0),
  },
  {
    operationId: 'referrals-add-holders',
    prepare: (c) => prepareReferralCode(c),
    send: (c, key) =>
      c.customers.call('referrals-add-holders', { params: { memberId: 'REF-1' }, json: { holders: [{ source_id: 'ann' }] }, headers: c.keyed(key) }),
    effects: (c) => referralHolderCount(c),
  },
  {
    operationId: 'referrals-add-holders-1',
    prepare: (c) => prepareReferralCode(c),
    send: (c, key) =>
      c.customers.call('referrals-add-holders-1', {
        params: { campaignId: 'Friends', memberId: 'REF-1' },
        json: { holders: [{ source_id: 'ann' }] },
        headers: c.keyed(key),
      }),
    effects: (c) => referralHolderCount(c),
  },
  {
    operationId: 'referrals-remove-holder',
    prepare: (c) => prepareReferee(c),
    send: (c, key) => c.customers.call('referrals-remove-holder', { params: { memberId: 'REF-1', holderId: c.state.holderId ?? '' }, headers: c.keyed(key) }),
    // 1 once removed; a second run would answer 404 instead of the first 204.
    effects: async (c) => 2 - (await referralHolderCount(c)),
  },
  {
    operationId: 'referrals-remove-holder-1',
    prepare: (c) => prepareReferee(c),
    send: (c, key) =>
      c.customers.call('referrals-remove-holder-1', {
        params: { campaignId: 'Friends', memberId: 'REF-1', holderId: c.state.holderId ?? '' },
        headers: c.keyed(key),
      }),
    effects: async (c) => 2 - (await referralHolderCount(c)),
  },
  // Promotion stacks (issue 38).
  {
    operationId: 'create-promotion-stack',
    prepare: async (c) => {
      const made = await c.customers.call('create-campaign', { json: { name: 'Stacked', campaign_type: 'PROMOTION', promotion: { tiers: [{ name: 'T' }] } } });
      expect(made.status).toBe(200);
      c.state.tierId = ((made.json.promotion as { tiers: { id: string }[] }).tiers[0] as { id: string }).id;
    },
    send: (c, key) =>
      c.customers.call('create-promotion-stack', {
        params: { campaignId: 'Stacked' },
        json: { name: 'Once', tiers: { ids: [c.state.tierId ?? ''] } },
        headers: c.keyed(key),
      }),
    effects: async (c) => (await c.customers.call('list-all-promotion-stacks')).json.total as number,
  },
  {
    operationId: 'update-promotion-stack',
    prepare: async (c) => {
      const made = await c.customers.call('create-campaign', { json: { name: 'Stacked', campaign_type: 'PROMOTION', promotion: { tiers: [{ name: 'T' }] } } });
      expect(made.status).toBe(200);
      const tierId = ((made.json.promotion as { tiers: { id: string }[] }).tiers[0] as { id: string }).id;
      const stack = await c.customers.call('create-promotion-stack', { params: { campaignId: 'Stacked' }, json: { name: 'Old', tiers: { ids: [tierId] } } });
      expect(stack.status).toBe(200);
      c.state.stackId = stack.json.id as string;
    },
    send: (c, key) =>
      c.customers.call('update-promotion-stack', {
        params: { campaignId: 'Stacked', stackId: c.state.stackId ?? '' },
        json: { name: 'New' },
        headers: c.keyed(key),
      }),
    effects: async (c) => updatedAtOf(await c.customers.call('get-promotion-stack', { params: { campaignId: 'Stacked', stackId: c.state.stackId ?? '' } })),
  },
  {
    operationId: 'delete-promotion-stack',
    prepare: async (c) => {
      const made = await c.customers.call('create-campaign', { json: { name: 'Stacked', campaign_type: 'PROMOTION', promotion: { tiers: [{ name: 'T' }] } } });
      expect(made.status).toBe(200);
      const tierId = ((made.json.promotion as { tiers: { id: string }[] }).tiers[0] as { id: string }).id;
      const stack = await c.customers.call('create-promotion-stack', { params: { campaignId: 'Stacked' }, json: { name: 'Gone', tiers: { ids: [tierId] } } });
      expect(stack.status).toBe(200);
      c.state.stackId = stack.json.id as string;
    },
    send: (c, key) => c.customers.call('delete-promotion-stack', { params: { campaignId: 'Stacked', stackId: c.state.stackId ?? '' }, headers: c.keyed(key) }),
    // 1 once deleted; a second run would answer 404 instead of the first 204.
    effects: async (c) =>
      (await c.customers.call('get-promotion-stack', { params: { campaignId: 'Stacked', stackId: c.state.stackId ?? '' } })).status === 404 ? 1 : 0,
  },
  {
    operationId: 'import-vouchers-using-csv',
    prepare: async () => undefined,
    send: (c, key) =>
      c.customers.call('import-vouchers-using-csv', { multipart: { file: 'Code,Value,Discount Type\nCSV-1,5,AMOUNT\n' }, headers: c.keyed(key) }),
    effects: (c) => c.countItems('ASYNC_ACTION#', 'ASYNC_ACTION'),
  },
  {
    operationId: 'import-vouchers-to-campaign-using-csv',
    prepare: async (c) => void (await newCampaign(c.campaigns, campaignBodies.DISCOUNT_COUPONS('CsvImports'))),
    send: (c, key) =>
      c.customers.call('import-vouchers-to-campaign-using-csv', {
        params: { campaignId: 'CsvImports' },
        multipart: { file: 'Code\nCSV-2\n' },
        headers: c.keyed(key),
      }),
    effects: (c) => c.countItems('ASYNC_ACTION#', 'ASYNC_ACTION'),
  },
  {
    operationId: 'update-vouchers-in-bulk',
    prepare: async () => undefined,
    send: (c, key) => c.customers.call('update-vouchers-in-bulk', { json: [{ code: 'BULK-1', metadata: { a: 1 } }], headers: c.keyed(key) }),
    effects: (c) => c.countItems('ASYNC_ACTION#', 'ASYNC_ACTION'),
  },
  {
    operationId: 'update-vouchers-metadata-in-bulk',
    prepare: async () => undefined,
    send: (c, key) => c.customers.call('update-vouchers-metadata-in-bulk', { json: { codes: ['BULK-1'], metadata: { a: 1 } }, headers: c.keyed(key) }),
    effects: (c) => c.countItems('ASYNC_ACTION#', 'ASYNC_ACTION'),
  },
  {
    operationId: 'import-products-using-csv',
    prepare: async () => undefined,
    send: (c, key) => c.customers.call('import-products-using-csv', { multipart: { file: 'name,source_id\nP,p-csv\n' }, headers: c.keyed(key) }),
    effects: (c) => c.countItems('ASYNC_ACTION#', 'ASYNC_ACTION'),
  },
  {
    operationId: 'import-SKUs-using-csv',
    prepare: async () => undefined,
    send: (c, key) => c.customers.call('import-SKUs-using-csv', { multipart: { file: 'product_id,source_id\np-csv,s-csv\n' }, headers: c.keyed(key) }),
    effects: (c) => c.countItems('ASYNC_ACTION#', 'ASYNC_ACTION'),
  },
  {
    operationId: 'import-customers-using-csv',
    prepare: async () => undefined,
    send: (c, key) => c.customers.call('import-customers-using-csv', { multipart: { file: 'Source_id\nc-csv\n' }, headers: c.keyed(key) }),
    effects: (c) => c.countItems('ASYNC_ACTION#', 'ASYNC_ACTION'),
  },
  {
    operationId: 'update-products-in-bulk',
    prepare: async () => undefined,
    send: (c, key) => c.customers.call('update-products-in-bulk', { json: [{ source_id: 'p-bulk', name: 'P' }], headers: c.keyed(key) }),
    effects: (c) => c.countItems('ASYNC_ACTION#', 'ASYNC_ACTION'),
  },
  {
    operationId: 'update-products-metadata-in-bulk',
    prepare: async () => undefined,
    send: (c, key) => c.customers.call('update-products-metadata-in-bulk', { json: { source_ids: ['p-bulk'], metadata: { a: 1 } }, headers: c.keyed(key) }),
    effects: (c) => c.countItems('ASYNC_ACTION#', 'ASYNC_ACTION'),
  },
  {
    operationId: 'update-customers-in-bulk',
    prepare: async () => undefined,
    send: (c, key) => c.customers.call('update-customers-in-bulk', { json: [{ source_id: 'c-bulk' }], headers: c.keyed(key) }),
    effects: (c) => c.countItems('ASYNC_ACTION#', 'ASYNC_ACTION'),
  },
  {
    operationId: 'update-customers-metadata-in-bulk',
    prepare: async () => undefined,
    send: (c, key) => c.customers.call('update-customers-metadata-in-bulk', { json: { source_ids: ['c-bulk'], metadata: { a: 1 } }, headers: c.keyed(key) }),
    effects: (c) => c.countItems('ASYNC_ACTION#', 'ASYNC_ACTION'),
  },
  {
    operationId: 'import-orders',
    prepare: async () => undefined,
    send: (c, key) => c.customers.call('import-orders', { json: [{ source_id: 'o-import', amount: 100 }], headers: c.keyed(key) }),
    effects: (c) => c.countItems('ASYNC_ACTION#', 'ASYNC_ACTION'),
  },
  {
    operationId: 'create-in-bulk-loyalty-tiers',
    prepare: async (c) => {
      await newCampaign(c.campaigns, loyaltyProgram);
    },
    send: (c, key) =>
      c.customers.call('create-in-bulk-loyalty-tiers', {
        params: { campaignId: 'Club' },
        json: [{ name: 'Gold', points: { from: 100 } }],
        headers: c.keyed(key),
      }),
    // The program's tiers: a second run would be refused (its range overlaps) or add another.
    effects: async (c) => (await c.customers.call('list-loyalty-tiers', { params: { campaignId: 'Club' } })).json.total as number,
  },
  {
    operationId: 'cancel-member-pending-points',
    prepare: async (c) => {
      await newCampaign(c.campaigns, loyaltyProgram);
      const rule = { event: 'order.paid', loyalty: { type: 'FIXED', points: 10 }, pending_points: { period_type: 'DAY', period_value: 3 } };
      expect((await c.customers.call('create-earning-rule', { params: { campaignId: 'Club' }, json: [rule] })).status).toBe(200);
      const joined = await c.customers.call('add-member', { params: { campaignId: 'Club' }, json: { customer: { source_id: 'pending-holder' } } });
      c.state.memberCode = joined.json.code as string;
      expect((await c.customers.call('create-order', { json: { amount: 100, customer: { source_id: 'pending-holder' }, status: 'PAID' } })).status).toBe(200);
      const list = await c.customers.call('list-member-pending-points', { params: { memberId: c.state.memberCode } });
      c.state.pendingPointsId = (list.json.data as { id: string }[])[0]?.id ?? '';
    },
    send: (c, key) =>
      c.customers.call('cancel-member-pending-points', {
        params: { memberId: c.state.memberCode ?? '', pendingPointsId: c.state.pendingPointsId ?? '' },
        headers: c.keyed(key),
      }),
    // 1 once cancelled (the card's pending points back to 0); a second run would answer 400 instead of the first 204.
    effects: async (c) =>
      ((await c.customers.call('get-member', { params: { memberId: c.state.memberCode ?? '' } })).json.loyalty_card as { pending_points: number })
        .pending_points === 0
        ? 1
        : 0,
  },
  // Management API stacking rules (issue 40): the project's one set.
  {
    operationId: 'create-stacking-rules',
    prepare: async () => undefined,
    send: (c, key) =>
      c.management.call('create-stacking-rules', {
        params: { projectId: c.pair.project_id },
        json: { redeemables_limit: 10 },
        headers: c.managementKeyed(key),
      }),
    // 1 once set; a second run would answer 409 stacking_rules_exist instead of the first 200.
    effects: async (c) =>
      ((await c.management.call('list-stacking-rules', { params: { projectId: c.pair.project_id } })).json.data as { id?: string }[])[0]?.id ? 1 : 0,
  },
  {
    operationId: 'update-stacking-rules',
    prepare: async (c) => {
      c.state.stackingRulesId = (await c.management.call('create-stacking-rules', { params: { projectId: c.pair.project_id }, json: {} })).json.id as string;
      c.clock.advance(SECOND);
    },
    send: (c, key) =>
      c.management.call('update-stacking-rules', {
        params: { projectId: c.pair.project_id, stackingRulesId: c.state.stackingRulesId ?? '' },
        json: { redeemables_limit: 12 },
        headers: c.managementKeyed(key),
      }),
    // Every update stamps the rules' update time: a second run would move it to the retry's time.
    effects: async (c) => Date.parse(String((await entities.stackingRules.get(c.runtime, entities.stackingRules.key(c.pair.project_id)))?.updatedAt ?? 0)) || 0,
  },
  {
    operationId: 'delete-stacking-rules',
    prepare: async (c) => {
      c.state.stackingRulesId = (await c.management.call('create-stacking-rules', { params: { projectId: c.pair.project_id }, json: {} })).json.id as string;
    },
    send: (c, key) =>
      c.management.call('delete-stacking-rules', {
        params: { projectId: c.pair.project_id, stackingRulesId: c.state.stackingRulesId ?? '' },
        headers: c.managementKeyed(key),
      }),
    // 1 once deleted; a second run would answer 404 instead of the first 204.
    effects: async (c) =>
      (await c.management.call('get-stacking-rules', { params: { projectId: c.pair.project_id, stackingRulesId: c.state.stackingRulesId ?? '' } })).status ===
      404
        ? 1
        : 0,
  },
];

describe('Idempotency-Key on every write POST (generic path)', () => {
  it('covers every write route of the route table but the token endpoint and delete-voucher; events, points changes, earning rules and publications stay transactional', () => {
    const writes = routes.filter((r) => r.access === 'write');
    const generic = writes.filter((r) => idempotencyModeOf(r) === 'generic').map((r) => r.operationId);
    expect(generic.sort()).toEqual(cases.map((c) => c.operationId).sort());
    // Their own tests: test/integration/events/idempotency.test.ts, test/integration/loyalties/{balance,earning-rules}-idempotency.test.ts,
    // test/integration/publications/{publication-idempotency,create-publication-legacy}.test.ts, test/integration/vouchers/voucher-balance.test.ts,
    // test/integration/redemptions/redeem-stacked-discounts.test.ts, test/integration/loyalties/redeem-reward.test.ts, test/integration/loyalties/members.test.ts,
    // test/integration/loyalties/transfer-points.test.ts, test/integration/loyalties/balance-by-card.test.ts, test/integration/loyalties/pending-points.test.ts;
    // the client-side doors of redemption, publication and events: test/integration/client-side/client-api.test.ts.
    expect(
      writes
        .filter((r) => idempotencyModeOf(r) === 'transactional')
        .map((r) => r.operationId)
        .sort(),
    ).toEqual([
      'activate-member-pending-points',
      'add-member',
      'adjust-member-pending-points',
      'create-earning-rule',
      'create-project',
      'create-publication',
      'create-publication-1',
      'create-publication-client-side',
      'redeem-promotion',
      'redeem-reward',
      'redeem-reward-1',
      'redeem-stacked-discounts',
      'redeem-stacked-discounts-client-side',
      'redeem-voucher',
      'redeem-voucher-client-side',
      'track-custom-event',
      'track-custom-event-client-side',
      'transfer-points',
      'update-loyalty-card-balance',
      'update-loyalty-card-balance-1',
      'update-voucher-balance',
    ]);
    // Issuing a token is never replayed (the reply would hold the token); DELETE /v1/vouchers predates keys on other methods;
    // list-vouchers is a GET whose only write is its page bookmarks, which a repeat rewrites to the same bounds;
    // validate-stacked-discounts writes only a LOCK session's holds, which a repeat of the session rewrites as they were;
    // validate-voucher and validate-promotion-tier are its single-code forms.
    expect(
      writes
        .filter((r) => idempotencyModeOf(r) === 'none')
        .map((r) => r.operationId)
        .sort(),
    ).toEqual([
      'delete-voucher',
      'generate-oauth-token',
      'list-vouchers',
      'validate-promotion-tier',
      'validate-stacked-discounts',
      'validate-stacked-discounts-client-side',
      'validate-voucher',
    ]);
  });

  it.each(cases.map((c) => [c.operationId, c] as const))('%s: a retry with the same key gets the first reply and writes nothing', async (_, routeCase) => {
    const ctx = await setup();
    await routeCase.prepare(ctx);
    const before = await routeCase.effects(ctx);
    const first = await routeCase.send(ctx, 'retry-1');
    expect([200, 202, 204]).toContain(first.status);
    expect(first.headers[REPLAYED_HEADER]).toBeUndefined();
    const afterFirst = await routeCase.effects(ctx);
    expect(afterFirst).toBeGreaterThan(before);

    ctx.clock.advance(60 * 60 * SECOND);
    const mark = ctx.sent.length;
    const retry = await routeCase.send(ctx, 'retry-1');
    const writes = ctx.sent.slice(mark).filter(isWrite);
    expect(retry.status).toBe(first.status);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers[REPLAYED_HEADER]).toBe('true');
    // The only write a replay sends is its (refused) claim of the key.
    expect(writes.length).toBeGreaterThan(0);
    for (const write of writes) for (const pk of write.pks) expect(pk).toContain('#IDEMPOTENCY#');
    expect(await routeCase.effects(ctx)).toBe(afterFirst);
  });

  it('creates one reward when 20 identical requests with one key race; the others get the same reply or 409 with Retry-After', async () => {
    const ctx = await setup();
    const replies = await Promise.all(Array.from({ length: 20 }, () => ctx.rewards.createReward(rewardBodies.COIN(), ctx.keyed('race-1'))));
    const winners = replies.filter((r) => r.status === 200);
    const busy = replies.filter((r) => r.status === 409);
    expect(winners.length + busy.length).toBe(20);
    expect(winners.length).toBeGreaterThanOrEqual(1);
    for (const w of winners) expect(w.body).toEqual(winners[0]?.body);
    for (const b of busy) {
      expect(b.json).toMatchObject({ code: 409, key: 'idempotency_key_in_use' });
      expect(b.headers['Retry-After']).toBe('1');
    }
    expect(await ctx.countItems('REWARD#', 'REWARD')).toBe(1);
    const after = await ctx.rewards.createReward(rewardBodies.COIN(), ctx.keyed('race-1'));
    expect(after.status).toBe(200);
    expect(after.body).toEqual(winners[0]?.body);
    expect(await ctx.countItems('REWARD#', 'REWARD')).toBe(1);
  });

  it('adds one voucher when 20 identical add-voucher requests with one key race', async () => {
    const ctx = await setup();
    await newCampaign(ctx.campaigns, campaignBodies.DISCOUNT_COUPONS('Race'));
    const replies = await Promise.all(Array.from({ length: 20 }, () => ctx.campaigns.addVoucher('Race', {}, '', ctx.keyed('race-2'))));
    expect(replies.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    expect((await ctx.campaigns.getCampaign('Race')).json.vouchers_count).toBe(1);
  });

  it('refuses the same key with a different body (or path) with 422 idempotency_key_reused, doing nothing', async () => {
    const ctx = await setup();
    expect((await ctx.rewards.createReward(rewardBodies.MATERIAL('A'), ctx.keyed('k-1'))).status).toBe(200);
    const other = await ctx.rewards.createReward(rewardBodies.MATERIAL('B'), ctx.keyed('k-1'));
    expect(other.status).toBe(422);
    expect(other.json).toMatchObject({ code: 422, key: 'idempotency_key_reused' });
    const otherRoute = await ctx.events.createSchema(schemaBody('signup'), ctx.keyed('k-1'));
    expect(otherRoute.status).toBe(422);
    expect(await ctx.countItems('REWARD#', 'REWARD')).toBe(1);
    expect((await ctx.events.listSchemas()).json.total).toBe(0);
  });

  it('treats bodies that differ only in key order as the same request', async () => {
    const ctx = await setup();
    const first = await ctx.rewards.createReward(
      { name: 'Coin', type: 'COIN', parameters: { coin: { exchange_ratio: 1, points_ratio: 2 } } },
      ctx.keyed('k-order'),
    );
    const again = await ctx.rewards.createReward(
      { parameters: { coin: { points_ratio: 2, exchange_ratio: 1 } }, type: 'COIN', name: 'Coin' },
      ctx.keyed('k-order'),
    );
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await ctx.countItems('REWARD#', 'REWARD')).toBe(1);
  });

  it('refuses a key over 255 characters or with control characters or spaces with 400 invalid_idempotency_key', async () => {
    const ctx = await setup();
    for (const key of ['k'.repeat(256), 'bad\u0001key', 'two words', '']) {
      const reply = await ctx.rewards.createReward(rewardBodies.MATERIAL(), ctx.keyed(key));
      expect(reply.status, JSON.stringify(key)).toBe(400);
      expect(reply.json).toMatchObject({ code: 400, key: 'invalid_idempotency_key' });
    }
    expect((await ctx.rewards.createReward(rewardBodies.MATERIAL(), ctx.keyed('k'.repeat(255)))).status).toBe(200);
    expect(await ctx.countItems('REWARD#', 'REWARD')).toBe(1);
  });

  it('records nothing for a failed request: the same key works once the cause is fixed', async () => {
    const ctx = await setup();
    const missing = await ctx.campaigns.addVoucher('Later', { code: 'LATE-1' }, '', ctx.keyed('k-fail'));
    expect(missing.status).toBe(404);
    await newCampaign(ctx.campaigns, campaignBodies.DISCOUNT_COUPONS('Later'));
    const fixed = await ctx.campaigns.addVoucher('Later', { code: 'LATE-1' }, '', ctx.keyed('k-fail'));
    expect(fixed.status).toBe(200);
    expect(fixed.headers[REPLAYED_HEADER]).toBeUndefined();
    expect((await ctx.campaigns.getCampaign('Later')).json.vouchers_count).toBe(1);
  });

  it('keeps keys per project: another project may use the same key for its own request', async () => {
    const ctx = await setup();
    const other = await newProject(ctx.runtime);
    const mine = await ctx.rewards.createReward(rewardBodies.MATERIAL(), ctx.keyed('shared'));
    const theirs = await rewardApi(ctx.runtime, other).createReward(rewardBodies.MATERIAL(), { ...keyPairHeaders(other), 'idempotency-key': 'shared' });
    expect(theirs.status).toBe(200);
    expect(theirs.headers[REPLAYED_HEADER]).toBeUndefined();
    expect(theirs.json.id).not.toBe(mine.json.id);
  });

  it('runs the request again once the 24 h window has passed', async () => {
    const ctx = await setup();
    const first = await ctx.rewards.createReward(rewardBodies.MATERIAL(), ctx.keyed('k-day'));
    ctx.clock.advance(24 * 3600 * SECOND);
    const later = await ctx.rewards.createReward(rewardBodies.MATERIAL(), ctx.keyed('k-day'));
    expect(later.status).toBe(200);
    expect(later.json.id).not.toBe(first.json.id);
    expect(await ctx.countItems('REWARD#', 'REWARD')).toBe(2);
  });
});

describe('runOnce (the lease behind the generic path)', () => {
  const scopeOf = (projectId: string, key: string): IdempotencyScope => ({ projectId, key, fingerprint: requestFingerprint('op', { n: 1 }) });

  it('answers 409 idempotency_key_in_use while the first request runs, then replays its reply', async () => {
    const clock = new ManualClock(at);
    const runtime = testRuntime({ clock });
    const scope = scopeOf(`p_${Date.now()}_${Math.random()}`, 'lease-1');
    let finish: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      finish = resolve;
    });
    let runs = 0;
    const first = runOnce(
      runtime,
      scope,
      () => clock.now(),
      async () => {
        runs += 1;
        await gate;
        return ok({ id: 'one' });
      },
    );
    await new Promise((r) => setTimeout(r, 200));
    await expect(
      runOnce(
        runtime,
        scope,
        () => clock.now(),
        async () => ok({ id: 'two' }),
      ),
    ).rejects.toMatchObject({
      status: 409,
      key: 'idempotency_key_in_use',
      headers: { 'Retry-After': '1' },
    });
    finish();
    expect(await first).toEqual(ok({ id: 'one' }));
    const replay = await runOnce(
      runtime,
      scope,
      () => clock.now(),
      async () => ok({ id: 'three' }),
    );
    expect(replay).toEqual({ statusCode: 200, body: { id: 'one' }, headers: { [REPLAYED_HEADER]: 'true' } });
    expect(runs).toBe(1);
  });

  it('lets a retry take over the key once the lease of a request that never finished has run out', async () => {
    const clock = new ManualClock(at);
    const runtime = testRuntime({ clock });
    const scope = scopeOf(`p_${Date.now()}_${Math.random()}`, 'lease-2');
    // A request that died mid-way (its process was killed): it never records nor releases.
    void runOnce(
      runtime,
      scope,
      () => clock.now(),
      () => new Promise<never>(() => undefined),
    );
    await new Promise((r) => setTimeout(r, 200));
    await expect(
      runOnce(
        runtime,
        scope,
        () => clock.now(),
        async () => ok({}),
      ),
    ).rejects.toMatchObject({ status: 409 });
    clock.advance(IDEMPOTENCY_LEASE_SECONDS * SECOND);
    expect(
      await runOnce(
        runtime,
        scope,
        () => clock.now(),
        async () => ok({ id: 'retried' }),
      ),
    ).toEqual(ok({ id: 'retried' }));
  });

  it('stores a large reply compressed and replays it byte for byte', async () => {
    const clock = new ManualClock(at);
    const runtime = testRuntime({ clock });
    const scope = scopeOf(`p_${Date.now()}_${Math.random()}`, 'big');
    const body = { rows: Array.from({ length: 5000 }, (_, i) => ({ i, text: `row ${i} ${'x'.repeat(40)}` })) };
    await runOnce(
      runtime,
      scope,
      () => clock.now(),
      async () => ok(body),
    );
    const replay = await runOnce(
      runtime,
      scope,
      () => clock.now(),
      async () => ok({}),
    );
    expect(replay.body).toEqual(body);
  });
});

/** A referral program `Friends` whose code REF-1 is published to `rita`. */
async function prepareReferralCode(c: Ctx): Promise<void> {
  await newCampaign(c.campaigns, campaignBodies.REFERRAL_PROGRAM('Friends'));
  expect((await c.campaigns.addVoucher('Friends', { code: 'REF-1' })).status).toBe(200);
  expect((await c.customers.call('create-publication', { json: { customer: { source_id: 'rita' }, voucher: 'REF-1' } })).status).toBe(200);
}

/** REF-1 with the referee `ann` (its holder id in `state.holderId`). */
async function prepareReferee(c: Ctx): Promise<void> {
  await prepareReferralCode(c);
  const added = await c.customers.call('referrals-add-holders', { params: { memberId: 'REF-1' }, json: { holders: [{ source_id: 'ann' }] } });
  expect(added.status).toBe(200);
  c.state.holderId = (added.json.holders as { id: string }[])[0]?.id ?? '';
}

/** REF-1's holders, referrer included. */
async function referralHolderCount(c: Ctx): Promise<number> {
  return (await c.customers.call('referrals-code-holders-1', { params: { memberId: 'REF-1' } })).json.total as number;
}
