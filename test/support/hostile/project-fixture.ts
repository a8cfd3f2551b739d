import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import * as r from '../../../lib/api/routes.js';
import { LOCAL_S3_CREDENTIALS } from '../../../lib/exports/s3-presigner.js';
import type { IssuedKeyPair } from '../../../lib/app-keys/app-key.service.js';
import type { ExportFiles } from '../../../lib/exports/export-files.js';
import { createS3ExportFiles } from '../../../lib/exports/s3-export-files.js';
import type { Runtime } from '../../../lib/runtime.js';
import { campaignBodies, RecordingJobQueue } from '../api.js';
import { schemaBody } from '../events-api.js';
import { rewardBodies } from '../rewards-api.js';
import type { RouteDef } from '../../../lib/api/route.js';
import type { IssuedManagementKey } from '../../../lib/management/management-key.js';
import { engines, keyPairHeaders, managementHeaders, newManagementKey, newProject } from '../runtime.js';
import { createLocation } from '../../../lib/locations/location.service.js';
import { createOwnTable, defaultExtras, type OwnTable, routeClient, type RawReply } from './route-harness.js';
import { sqsRecord } from '../sqs-record.js';
import { makeJobWorkers } from '../job-workers.js';
import { pendingEntry, seedPendingEntry } from '../pending-points.js';
import { insertWebhook } from '../../../lib/webhooks/webhook.repo.js';

/** One project holding one of each resource the API knows, and what identifies each. */
export interface ProjectFixture {
  pair: IssuedKeyPair;
  /** A management key (operator-wide), for the Management API's routes. */
  management: IssuedManagementKey;
  accessToken: string;
  /** Path-parameter name → values naming this project's resources (ids and, where the API accepts them, names or codes). */
  refs: Record<string, string[]>;
  /** Ids the server generated: none may ever reach another project. */
  ids: string[];
  /** Names and codes the project chose. */
  names: string[];
  /** Secrets: app token, access token, export download token. */
  secrets: string[];
  exportDownloadQuery: string;
  exportId: string;
}

const must = (reply: RawReply, what: string, status = 200): Record<string, unknown> => {
  if (reply.status !== status) throw new Error(`${what}: ${reply.status} ${reply.text ?? ''}`);
  return (reply.body ?? {}) as Record<string, unknown>;
};

let sharedFiles: ExportFiles | undefined;
/** The suite's export bucket on s3rver. */
export const exportFiles = (): ExportFiles => {
  const e = engines();
  sharedFiles ??= createS3ExportFiles({ region: e.region, bucketName: e.bucketName, s3Endpoint: e.s3Endpoint });
  return sharedFiles;
};

/** Runs every job recorded so far through the real worker (vouchers and exports). */
export async function deliverJobs(runtime: Runtime, jobs: RecordingJobQueue): Promise<void> {
  for (const job of jobs.sent.splice(0)) {
    const result = await makeJobWorkers({ runtime, files: exportFiles() })({ Records: [sqsRecord(JSON.stringify(job))] }, {} as never);
    if (result.batchItemFailures.length > 0) throw new Error(`fixture job failed: ${JSON.stringify(job)}`);
  }
}

/**
 * A fresh project with a campaign of each type, vouchers (one in the bin), a loyalty card with
 * points, a custom event schema, a customer made by an event, an earning rule, two rewards and an
 * assignment, a template, a category, a product with a SKU, a STATIC collection of both, a finished async action, a DONE export and an OAuth token. `tag` makes
 * every name and code unique to this project, so a leak of one is recognisable.
 */
export async function seedProject(runtime: Runtime, tag: string): Promise<ProjectFixture> {
  const pair = await newProject(runtime, `fixture ${tag}`);
  const jobs = new RecordingJobQueue();
  const api = routeClient(runtime, { ...defaultExtras(), jobs });
  const headers = keyPairHeaders(pair);
  const n = (s: string) => `${tag}-${s}`;
  const campaign = async (body: unknown, what: string) => must(await api(r.createCampaignRoute, { json: body, headers }), what);
  const addVoucher = async (campaignId: string, json: unknown, query = '', status = 200) =>
    must(await api(r.addVouchersToCampaignRoute, { params: { campaignId }, json, query, headers }), `voucher in ${campaignId}`, status);

  const discount = await campaign(campaignBodies.DISCOUNT_COUPONS(n('Discounts')), 'discount campaign');
  const gift = await campaign(campaignBodies.GIFT_VOUCHERS(n('Gifts')), 'gift campaign');
  const club = await campaign(campaignBodies.LOYALTY_PROGRAM(n('Club')), 'loyalty campaign');
  const referral = await campaign(campaignBodies.REFERRAL_PROGRAM(n('Referrals')), 'referral campaign');
  const promo = await campaign(campaignBodies.PROMOTION(n('Promo')), 'promotion campaign');
  const tierIds = ((promo.promotion as { tiers?: { id: string }[] } | undefined)?.tiers ?? []).map((t) => t.id);
  const [discountId, giftId, clubId] = [discount.id as string, gift.id as string, club.id as string];

  const voucher = await addVoucher(discountId, { code: n('CODE-1') });
  const giftCard = await addVoucher(giftId, { code: n('GIFT-1') });
  const card = await addVoucher(clubId, { code: n('CARD-1') });
  const binned = await addVoucher(discountId, { code: n('BINNED-1') });
  must(await api(r.deleteVoucherRoute, { params: { code: n('BINNED-1') }, headers }), 'delete voucher', 204);
  const bin = must(await api(r.listBinEntriesRoute, { headers }), 'bin') as unknown as { data: { id: string }[] };
  const binEntryIds = bin.data.map((e) => e.id);
  const action = await addVoucher(discountId, {}, 'vouchers_count=3', 202);

  const schema = must(await api(r.createCustomEventSchemaRoute, { json: schemaBody(n('order_paid'), { amount: 'number?' }), headers }), 'event schema');
  const rules = must(
    await api(r.createEarningRuleRoute, { params: { campaignId: clubId }, json: [{ event: n('order_paid'), loyalty: { type: 'FIXED', points: 5 } }], headers }),
    'earning rule',
  ) as unknown as { id: string }[];
  const tracked = must(
    await api(r.trackCustomEventRoute, {
      json: { event: n('order_paid'), customer: { source_id: n('customer') }, loyalty: { code: n('CARD-1') }, metadata: { amount: 10 } },
      headers,
    }),
    'event',
  );
  const customerId = (tracked.customer as { id: string }).id;
  const loyaltyTiers = must(
    await api(r.createInBulkLoyaltyTiersRoute, { params: { campaignId: clubId }, json: [{ name: n('Gold'), points: { from: 1000 } }], headers }),
    'loyalty tier',
  ) as unknown as { id: string }[];
  must(await api(r.updateLoyaltyCardBalance1Route, { params: { campaignId: clubId, memberId: n('CARD-1') }, json: { points: 40 }, headers }), 'balance');

  const material = must(await api(r.createRewardRoute, { json: rewardBodies.MATERIAL(n('Comic')), headers }), 'material reward');
  const campaignReward = must(await api(r.createRewardRoute, { json: rewardBodies.CAMPAIGN(giftId, 500, n('Gift reward')), headers }), 'campaign reward');
  const assignment = must(
    await api(r.createRewardAssignmentRoute, {
      params: { rewardId: material.id as string },
      json: { campaign: clubId, parameters: { loyalty: { points: 100 } } },
      headers,
    }),
    'assignment',
  );
  const category = must(await api(r.createCategoryRoute, { json: { name: n('Category'), hierarchy: 1 }, headers }), 'category');
  const vrule = must(
    await api(r.createValidationRulesRoute, { json: { name: n('Rule'), rules: { 1: { name: 'order.amount', conditions: { $more_than: [100] } } } }, headers }),
    'validation rule',
  );
  const vruleAssignment = must(
    await api(r.createValidationRuleAssignmentRoute, {
      params: { validationRuleId: vrule.id as string },
      json: { related_object_type: 'campaign', related_object_id: discountId },
      headers,
    }),
    'validation rule assignment',
  );
  const product = must(await api(r.createProductRoute, { json: { source_id: n('product-src'), name: n('Shoe'), price: 100 }, headers }), 'product');
  const sku = must(
    await api(r.createSkuRoute, { params: { productId: product.id as string }, json: { source_id: n('sku-src'), sku: n('Red shoe') }, headers }),
    'sku',
  );
  const segment = must(await api(r.createSegmentRoute, { json: { name: n('Segment'), type: 'static', customers: [customerId] }, headers }), 'segment');
  const collection = must(
    await api(r.createProductCollectionRoute, {
      json: {
        type: 'STATIC',
        name: n('Collection'),
        products: [
          { id: product.id as string, object: 'product' },
          { id: sku.id as string, object: 'sku' },
        ],
      },
      headers,
    }),
    'product collection',
  );
  const template = must(await api(r.createCampaignTemplateRoute, { json: { name: n('Template'), campaign_id: discountId }, headers }), 'template');
  const exported = must(await api(r.createPointsExpirationExportRoute, { params: { campaignId: clubId }, json: {}, headers }), 'export');
  await deliverJobs(runtime, jobs);
  const done = must(await api(r.getExportRoute, { params: { exportId: exported.id as string }, headers }), 'get export');
  const url = new URL((done.result as { url: string }).url);
  const downloadToken = url.searchParams.get('token') ?? '';
  const token = must(await api(r.generateOauthTokenRoute, { form: { grant_type: 'client_credentials', scope: 'api' }, headers }), 'oauth token');
  const accessToken = token.access_token as string;

  const referralCode = await addVoucher(referral.id as string, { code: n('REF-1') });
  must(await api(r.createPublicationRoute, { json: { customer: { id: customerId }, voucher: referralCode.code }, headers }), 'referral publication');
  const referee = must(
    await api(r.referralsAddHoldersRoute, { params: { memberId: referralCode.code as string }, json: { holders: [{ source_id: n('referee') }] }, headers }),
    'referral holder',
  );
  const holderIds = (referee.holders as { id: string }[]).map((h) => h.id);
  const stack = must(
    await api(r.createPromotionStackRoute, { params: { campaignId: promo.id as string }, json: { name: n('Stack'), tiers: { ids: tierIds } }, headers }),
    'promotion stack',
  );
  const pending = await seedPendingEntry(
    runtime,
    pendingEntry({ projectId: pair.project_id, voucherId: card.id as string, code: n('CARD-1'), campaignId: clubId }),
  );

  const campaignIds = [discount, gift, club, referral, promo].map((c) => c.id as string);
  const campaignNames = ['Discounts', 'Gifts', 'Club', 'Referrals', 'Promo'].map(n);
  const management = await newManagementKey(runtime, `fixture ${tag}`);
  // A metadata schema of a custom object: it checks none of the fixture's writes.
  const metadataSchema = must(
    await api(r.createMetadataSchemaRoute, {
      params: { projectId: pair.project_id },
      json: { related_object: n('payment'), properties: { method: { type: 'string', optional: true, array: false } } },
      headers: managementHeaders(management),
    }),
    'metadata schema',
  );
  // Management API resources of the project (branding, a user) and a location the operator CLI would make.
  const mgmt = managementHeaders(management);
  const projectId = pair.project_id;
  const brand = must(
    await api(r.createBrandRoute, {
      params: { projectId },
      json: { brand: { name: n('Brand') }, address: { street: 's', city: 'c', postal: null, country: 'PL' }, contact: { email: 'brand@fixture.example' } },
      headers: mgmt,
    }),
    'brand',
  );
  must(
    await api(r.inviteUserRoute, {
      json: { email: `${tag}-user@fixture.example`, first_name: 'F', last_name: 'L', projects: { [projectId]: 'USER' } },
      headers: mgmt,
    }),
    'invite user',
    204,
  );
  const users = must(await api(r.listUsersRoute, { params: { projectId }, headers: mgmt }), 'users') as unknown as { data: { id: string }[] };
  const userIds = users.data.map((u) => u.id);
  const place = await createLocation(runtime, projectId, {
    name: n('Location'),
    shape: { type: 'circle', format: 'distance', distance: { center: 'geo:52.23,21.01', radius: '5 km' } },
  });
  const stackingRules = must(await api(r.createStackingRulesRoute, { params: { projectId }, json: {}, headers: mgmt }), 'stacking rules');
  const webhookId = `wh_${tag}`;
  await insertWebhook(runtime, {
    id: webhookId,
    projectId: pair.project_id,
    targetUrl: 'http://127.0.0.1:9/hook',
    events: ['voucher.created'],
    active: false,
    createdAt: new Date(0).toISOString(),
    updatedAt: null,
  });
  return {
    pair,
    management,
    accessToken,
    exportId: exported.id as string,
    exportDownloadQuery: url.search.slice(1),
    refs: {
      campaignId: [...campaignIds, ...campaignNames],
      code: [n('CODE-1'), n('GIFT-1'), n('CARD-1'), voucher.id as string, card.id as string, giftCard.id as string],
      asyncActionId: [action.async_action_id as string],
      rewardId: [material.id as string, campaignReward.id as string],
      schemaId: [schema.id as string, n('order_paid')],
      memberId: [n('CARD-1'), card.id as string],
      exportId: [exported.id as string],
      categoryId: [category.id as string],
      productId: [product.id as string, n('product-src')],
      skuId: [sku.id as string, n('sku-src')],
      segmentId: [segment.id as string],
      productCollectionId: [collection.id as string],
      validationRuleId: [vrule.id as string],
      assignmentId: [vruleAssignment.id as string],
      // The kinds below had no refs, so a route naming two of them was probed with every pair of B's ids (~13,000
      // requests for DELETE /v1/loyalties/{campaignId}/earning-rules/{earningRuleId}): B's own ids of the kind reach
      // the same lookups; a route with one unknown-kind parameter still gets all of B's ids and names.
      earningRuleId: rules.map((x) => x.id),
      promotionTierId: tierIds,
      campaignTemplateId: [template.id as string],
      customerId: [customerId, n('customer')],
      binEntryId: binEntryIds,
      // The image route's types; its ids then come from B's ids, names and codes, none of which is an asset id.
      assetType: ['qr', 'barcode'],
      projectId: [pair.project_id],
      metadataSchemaId: [metadataSchema.id as string],
      resource: [n('payment')],
      customEventSchemaId: [schema.id as string, n('order_paid')],
      brandingId: [brand.id as string],
      userId: userIds,
      locationId: [place.id],
      holderId: holderIds,
      stackId: [stack.id as string],
      loyaltyTierId: loyaltyTiers.map((t) => t.id),
      pendingPointsId: [pending.id],
      webhookId: [webhookId],
      stackingRulesId: [stackingRules.id as string],
    },
    ids: [
      pair.project_id,
      pair.app_id,
      ...campaignIds,
      ...tierIds,
      stack.id as string,
      voucher.id as string,
      giftCard.id as string,
      card.id as string,
      pending.id,
      binned.id as string,
      ...binEntryIds,
      action.async_action_id as string,
      schema.id as string,
      ...rules.map((x) => x.id),
      ...loyaltyTiers.map((t) => t.id),
      customerId,
      material.id as string,
      campaignReward.id as string,
      assignment.id as string,
      template.id as string,
      exported.id as string,
      category.id as string,
      product.id as string,
      sku.id as string,
      segment.id as string,
      collection.id as string,
      vrule.id as string,
      vruleAssignment.id as string,
      metadataSchema.id as string,
      brand.id as string,
      ...userIds,
      place.id,
    ],
    names: [
      ...campaignNames,
      n('CODE-1'),
      n('GIFT-1'),
      n('CARD-1'),
      n('BINNED-1'),
      n('order_paid'),
      n('customer'),
      n('Comic'),
      n('Gift reward'),
      n('Template'),
      n('Category'),
      n('product-src'),
      n('payment'),
      n('Shoe'),
      n('sku-src'),
      n('Red shoe'),
      n('Segment'),
      n('Collection'),
      n('Brand'),
      n('Location'),
    ],
    secrets: [pair.app_token, accessToken, downloadToken, management.management_token],
  };
}

/** The credentials a route takes, of the fixture: none, its management key (`/management/v1/*`), or its project's key pairs. */
export const credentialHeaders = (route: RouteDef, fixture: ProjectFixture): Record<string, string> =>
  route.auth === 'none' ? {} : route.auth === 'management' ? managementHeaders(fixture.management) : keyPairHeaders(fixture.pair);

/** One seeded project, handed out again and again as a table of its own (see `seededProjectTables`). */
export interface SeededProjectTables {
  fixture: ProjectFixture;
  /** A new table holding exactly the seeded items (the same ids and credentials), and the export's file put back. */
  fresh(prefix: string): Promise<OwnTable>;
}

/**
 * Seeds `tag`'s project once and copies it into a new table per use. Seeding is about 40 requests, a job and an
 * export (~1 s warm); a copy is one CreateTable, six BatchWrites and one PutObject (~50 ms), so the per-route suites
 * pay the seeding once per file instead of once per route. The export's file lives in the shared bucket, where a
 * route that deletes exports removes it: each copy puts it back, so every route finds the project as seeded.
 */
export async function seededProjectTables(tag: string): Promise<SeededProjectTables> {
  const seeded = await createOwnTable(`seed-${tag.toLowerCase()}`);
  const e = engines();
  const s3 = new S3Client({ region: e.region, endpoint: e.s3Endpoint, forcePathStyle: true, credentials: LOCAL_S3_CREDENTIALS });
  try {
    const fixture = await seedProject(seeded.runtime(), tag);
    const items = await seeded.items();
    const fileKey = `exports/${fixture.pair.project_id}/${fixture.exportId}.csv`;
    const file = await s3.send(new GetObjectCommand({ Bucket: e.bucketName, Key: fileKey }));
    const fileBody = await file.Body?.transformToByteArray();
    if (!fileBody) throw new Error(`the fixture's export file ${fileKey} is missing`);
    return {
      fixture,
      fresh: async (prefix) => {
        const table = await createOwnTable(prefix);
        await Promise.all([
          table.load(items),
          s3.send(new PutObjectCommand({ Bucket: e.bucketName, Key: fileKey, Body: fileBody, ContentType: file.ContentType ?? 'text/csv' })),
        ]);
        return table;
      },
    };
  } finally {
    await seeded.drop();
  }
}
