import type { RouteDef } from '../lib/http/route.js';

/**
 * The route table: every endpoint once. API Gateway routes, the local server, the OpenAPI
 * document and each handler's authentication read it. `scope` lists the resource scopes that
 * cover an endpoint besides the umbrella of its side (`api` for server-side endpoints).
 */
export const createOAuthTokenRoute: RouteDef = {
  operationId: 'generate-oauth-token',
  method: 'POST',
  path: '/v1/oauth/token',
  handler: 'functions/oauth/create-oauth-token.ts',
  access: 'write',
  auth: { keyPair: true, bearer: false },
  scope: null,
  body: 'form',
  cluster: 'api',
  summary: 'Generate an OAuth 2.0 access token (client credentials)',
  // Not idempotent, like Voucherify's: a replay would have to store the access token in clear.
  idempotency: 'none',
};

export const introspectOAuthTokenRoute: RouteDef = {
  operationId: 'introspect-oauth-token',
  method: 'POST',
  path: '/v1/oauth/introspect',
  handler: 'functions/oauth/introspect-oauth-token.ts',
  access: 'read',
  auth: { keyPair: true, bearer: false },
  scope: null,
  body: 'form',
  cluster: 'api',
  summary: 'Introspect an OAuth 2.0 access token',
  // Reads only; its reply describes a token and must not be stored.
  idempotency: 'none',
};

export const createCampaignRoute: RouteDef = {
  operationId: 'create-campaign',
  method: 'POST',
  path: '/v1/campaigns',
  handler: 'functions/campaigns/create-campaign.ts',
  access: 'write',
  auth: { keyPair: true, bearer: true },
  scope: { side: 'server', scopes: ['campaigns'] },
  body: 'json',
  cluster: 'api',
  summary: 'Create a campaign (and, with vouchers_count, its first vouchers)',
  // Above 100 vouchers the generation is a job on the jobs queue.
  sendsTo: ['promo-engine-jobs'],
  idempotency: 'generic',
};

export const listCampaignsRoute: RouteDef = {
  operationId: 'list-campaigns',
  method: 'GET',
  path: '/v1/campaigns',
  handler: 'functions/campaigns/list-campaigns.ts',
  access: 'read',
  auth: { keyPair: true, bearer: true },
  scope: { side: 'server', scopes: ['campaigns'] },
  body: 'none',
  cluster: 'api',
  summary: 'List campaigns (filters, order, page)',
};

export const getCampaignRoute: RouteDef = {
  operationId: 'get-campaign',
  method: 'GET',
  path: '/v1/campaigns/{campaignId}',
  handler: 'functions/campaigns/get-campaign.ts',
  access: 'read',
  auth: { keyPair: true, bearer: true },
  scope: { side: 'server', scopes: ['campaigns'] },
  body: 'none',
  cluster: 'api',
  summary: 'Get a campaign by id or name',
};

export const addCampaignVouchersRoute: RouteDef = {
  operationId: 'add-vouchers-to-campaign',
  method: 'POST',
  path: '/v1/campaigns/{campaignId}/vouchers',
  handler: 'functions/campaigns/add-campaign-vouchers.ts',
  access: 'write',
  auth: { keyPair: true, bearer: true },
  scope: { side: 'server', scopes: ['campaigns'] },
  body: 'json',
  cluster: 'api',
  summary: 'Add a voucher to a campaign, or (vouchers_count > 1) start generating many',
  sendsTo: ['promo-engine-jobs'],
  idempotency: 'generic',
};

export const getAsyncActionRoute: RouteDef = {
  operationId: 'get-async-action',
  method: 'GET',
  path: '/v1/async-actions/{asyncActionId}',
  handler: 'functions/async-actions/get-async-action.ts',
  access: 'read',
  auth: { keyPair: true, bearer: true },
  scope: { side: 'server', scopes: ['async-actions'] },
  body: 'none',
  cluster: 'api',
  summary: 'Get an async action: status, progress and result',
};

export const getVoucherRoute: RouteDef = {
  operationId: 'get-voucher',
  method: 'GET',
  path: '/v1/vouchers/{code}',
  handler: 'functions/vouchers/get-voucher.ts',
  access: 'read',
  auth: { keyPair: true, bearer: true },
  scope: { side: 'server', scopes: ['vouchers'] },
  body: 'none',
  cluster: 'api',
  summary: 'Get a voucher by code or id',
};

export const deleteVoucherRoute: RouteDef = {
  operationId: 'delete-voucher',
  method: 'DELETE',
  path: '/v1/vouchers/{code}',
  handler: 'functions/vouchers/delete-voucher.ts',
  access: 'write',
  auth: { keyPair: true, bearer: true, serviceOAuthHeader: true },
  scope: { side: 'server', scopes: ['vouchers'] },
  body: 'none',
  cluster: 'api',
  summary: 'Move a voucher to the bin, or delete it permanently with force=true',
};

export const listBinEntriesRoute: RouteDef = {
  operationId: 'list-bin-entries',
  method: 'GET',
  path: '/v1/trash-bin',
  handler: 'functions/bin/list-bin-entries.ts',
  access: 'read',
  auth: { keyPair: true, bearer: true },
  scope: { side: 'server', scopes: ['trash-bin'] },
  body: 'none',
  cluster: 'api',
  summary: 'List the entries of the bin',
};

export const createCampaignTemplateRoute: RouteDef = {
  operationId: 'create-campaign-template',
  method: 'POST',
  path: '/v1/templates/campaigns',
  handler: 'functions/templates/create-campaign-template.ts',
  access: 'write',
  auth: { keyPair: true, bearer: true },
  scope: { side: 'server', scopes: ['templates'] },
  body: 'json',
  cluster: 'api',
  summary: 'Create a campaign template from a campaign or a promotion tier',
  idempotency: 'generic',
};

export const createRewardRoute: RouteDef = {
  operationId: 'create-reward',
  method: 'POST',
  path: '/v1/rewards',
  handler: 'functions/rewards/create-reward.ts',
  access: 'write',
  auth: { keyPair: true, bearer: true },
  scope: { side: 'server', scopes: ['rewards'] },
  body: 'json',
  cluster: 'api',
  summary: 'Create a reward (CAMPAIGN, COIN or MATERIAL)',
  idempotency: 'generic',
};

export const getRewardRoute: RouteDef = {
  operationId: 'get-reward',
  method: 'GET',
  path: '/v1/rewards/{rewardId}',
  handler: 'functions/rewards/get-reward.ts',
  access: 'read',
  auth: { keyPair: true, bearer: true },
  scope: { side: 'server', scopes: ['rewards'] },
  body: 'none',
  cluster: 'api',
  summary: 'Get a reward',
};

export const createCustomEventSchemaRoute: RouteDef = {
  operationId: 'create-custom-event-schema',
  method: 'POST',
  path: '/v1/custom-event-schemas',
  handler: 'functions/custom-event-schemas/create-custom-event-schema.ts',
  access: 'write',
  auth: { keyPair: true, bearer: true },
  scope: { side: 'server', scopes: ['metadata-schemas'] },
  body: 'json',
  cluster: 'api',
  summary: 'Define a custom event and the metadata it carries',
  idempotency: 'generic',
};

export const listCustomEventSchemasRoute: RouteDef = {
  operationId: 'list-custom-event-schemas',
  method: 'GET',
  path: '/v1/custom-event-schemas',
  handler: 'functions/custom-event-schemas/list-custom-event-schemas.ts',
  access: 'read',
  auth: { keyPair: true, bearer: true },
  scope: { side: 'server', scopes: ['metadata-schemas'] },
  body: 'none',
  cluster: 'api',
  summary: 'List the custom event schemas of the project',
};

export const getCustomEventSchemaRoute: RouteDef = {
  operationId: 'get-custom-event-schema',
  method: 'GET',
  path: '/v1/custom-event-schemas/{schemaId}',
  handler: 'functions/custom-event-schemas/get-custom-event-schema.ts',
  access: 'read',
  auth: { keyPair: true, bearer: true },
  scope: { side: 'server', scopes: ['metadata-schemas'] },
  body: 'none',
  cluster: 'api',
  summary: 'Get a custom event schema by id or event name',
};

export const trackCustomEventRoute: RouteDef = {
  operationId: 'track-custom-event',
  method: 'POST',
  path: '/v1/events',
  handler: 'functions/events/track-custom-event.ts',
  access: 'write',
  auth: { keyPair: true, bearer: true },
  scope: { side: 'server', scopes: ['events'] },
  body: 'json',
  cluster: 'api',
  summary: 'Track a custom event (Idempotency-Key supported)',
  // The event and the key's record commit in one transaction (lib/events/event.service.ts).
  idempotency: 'transactional',
};

export const createRewardAssignmentRoute: RouteDef = {
  operationId: 'create-reward-assignment',
  method: 'POST',
  path: '/v1/rewards/{rewardId}/assignments',
  handler: 'functions/rewards/create-reward-assignment.ts',
  access: 'write',
  auth: { keyPair: true, bearer: true },
  scope: { side: 'server', scopes: ['rewards'] },
  body: 'json',
  cluster: 'api',
  summary: 'Assign a reward to a loyalty program at a price in points',
  idempotency: 'generic',
};

export const updateLoyaltyMemberBalanceRoute: RouteDef = {
  operationId: 'update-loyalty-card-balance-1',
  method: 'POST',
  path: '/v1/loyalties/{campaignId}/members/{memberId}/balance',
  handler: 'functions/loyalties/update-loyalty-member-balance.ts',
  access: 'write',
  auth: { keyPair: true, bearer: true },
  scope: { side: 'server', scopes: ['loyalties'] },
  body: 'json',
  cluster: 'api',
  summary: 'Add points to a loyalty card, or spend them (soonest-expiring first)',
  // The card change and the key's record commit in one transaction (lib/loyalty/loyalty.service.ts):
  // points must not move twice when a reply is lost after the write.
  idempotency: 'transactional',
};

export const listLoyaltyPointsExpirationRoute: RouteDef = {
  operationId: 'list-points-expiration',
  method: 'GET',
  path: '/v1/loyalties/{campaignId}/members/{memberId}/points-expiration',
  handler: 'functions/loyalties/list-loyalty-points-expiration.ts',
  access: 'read',
  auth: { keyPair: true, bearer: true },
  scope: { side: 'server', scopes: ['loyalties'] },
  body: 'none',
  cluster: 'api',
  summary: "List a loyalty card's unexpired points buckets, soonest expiry first",
};

export const createEarningRulesRoute: RouteDef = {
  operationId: 'create-earning-rule',
  method: 'POST',
  path: '/v1/loyalties/{campaignId}/earning-rules',
  handler: 'functions/loyalties/create-earning-rules.ts',
  access: 'write',
  auth: { keyPair: true, bearer: true },
  scope: { side: 'server', scopes: ['loyalties'] },
  body: 'json',
  cluster: 'api',
  summary: 'Create earning rules of a loyalty program (custom events)',
  // The rules and the key's record commit in one transaction (lib/earning-rules/earning-rule.service.ts):
  // rules stored twice would make every event earn twice.
  idempotency: 'transactional',
};

export const createPointsExpirationExportRoute: RouteDef = {
  operationId: 'create-points-expiration-export',
  method: 'POST',
  path: '/v1/loyalties/{campaignId}/points-expiration/export',
  handler: 'functions/loyalties/create-points-expiration-export.ts',
  access: 'write',
  auth: { keyPair: true, bearer: true },
  scope: { side: 'server', scopes: ['loyalties', 'exports'] },
  body: 'json',
  cluster: 'api',
  summary: 'Schedule a CSV export of a loyalty campaign\'s points expirations',
  // The worker writes the file; this endpoint only enqueues.
  bucket: null,
  sendsTo: ['promo-engine-jobs'],
  idempotency: 'generic',
};

export const getExportRoute: RouteDef = {
  operationId: 'get-export',
  method: 'GET',
  path: '/v1/exports/{exportId}',
  handler: 'functions/exports/get-export.ts',
  access: 'read',
  auth: { keyPair: true, bearer: true },
  scope: { side: 'server', scopes: ['exports'] },
  body: 'none',
  cluster: 'api',
  summary: 'Get an export: status and, once DONE, its download URL',
  // The download token is signed from the export item: no bucket, no queue.
  bucket: null,
  sendsTo: [],
};

/** The download cluster's row: same method and path as get-export, on the other API. The token is the credential. */
export const downloadExportRoute: RouteDef = {
  operationId: 'download-export',
  method: 'GET',
  path: '/v1/exports/{exportId}',
  handler: 'functions/exports/download-export.ts',
  access: 'read',
  auth: 'none',
  scope: null,
  body: 'none',
  cluster: 'download',
  summary: 'Download an export file: 302 to a short-lived presigned S3 URL',
  bucket: 'read',
  sendsTo: [],
};

/** The OpenAPI document (docs/openapi.json, generated by `npm run openapi`): public, like the API reference it is. */
export const getOpenApiDocumentRoute: RouteDef = {
  operationId: 'get-openapi-document',
  method: 'GET',
  path: '/v1/openapi.json',
  handler: 'functions/system/get-openapi-document.ts',
  access: 'read',
  auth: 'none',
  scope: null,
  body: 'none',
  cluster: 'api',
  summary: 'The OpenAPI 3.1 document of this API (no authentication)',
  bucket: null,
  sendsTo: [],
};

/** Everything no other route matches: API Gateway's `$default`, and the local server's fallback. */
export const fallbackRoute: RouteDef = {
  operationId: 'route-not-found',
  method: 'GET',
  path: '$default',
  handler: 'functions/system/route-not-found.ts',
  access: 'read',
  auth: 'none',
  scope: null,
  body: 'none',
  cluster: 'api',
  summary: 'Error object for unknown routes and methods',
};

export const routes: readonly RouteDef[] = [
  createOAuthTokenRoute,
  introspectOAuthTokenRoute,
  createCampaignRoute,
  listCampaignsRoute,
  getCampaignRoute,
  addCampaignVouchersRoute,
  getAsyncActionRoute,
  getVoucherRoute,
  deleteVoucherRoute,
  listBinEntriesRoute,
  createCampaignTemplateRoute,
  createRewardRoute,
  getRewardRoute,
  createCustomEventSchemaRoute,
  listCustomEventSchemasRoute,
  getCustomEventSchemaRoute,
  trackCustomEventRoute,
  createRewardAssignmentRoute,
  updateLoyaltyMemberBalanceRoute,
  listLoyaltyPointsExpirationRoute,
  createEarningRulesRoute,
  createPointsExpirationExportRoute,
  getExportRoute,
  downloadExportRoute,
  getOpenApiDocumentRoute,
];
