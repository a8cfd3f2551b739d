import type { Location } from './compare.js';
import type { JsonType } from './schema-fields.js';

/**
 * The fields the seed spec (`../shared/spec/000_23c52392ecc05c71.txt`) names for each of its
 * operations, with the JSON types it gives them. Transcribed from its Resources and Endpoints
 * tables; where the spec and Voucherify disagree, these win, so a field here that our document
 * lacks or types differently fails the compatibility report.
 */
export type SeedFields = Partial<Record<Location, Record<string, readonly JsonType[]>>>;

const S = ['string'] as const;
const I = ['integer'] as const;
const B = ['boolean'] as const;
const O = ['object'] as const;
const A = ['array'] as const;
const DATE = ['string'] as const;
/** "X or null" in the spec. */
const S_NULL = ['string', 'null'] as const;
const O_NULL = ['object', 'null'] as const;
const B_NULL = ['boolean', 'null'] as const;

const oauthToken = {
  access_token: S,
  client_id: S,
  expires_at: I,
  expires_in: I,
  scope: S,
  token_type: S,
} as const;

const voucher = {
  id: S,
  code: S,
  campaign: S,
  campaign_id: S,
  category: S,
  category_id: S,
  type: S,
  discount: O,
  gift: O_NULL,
  loyalty_card: O_NULL,
  start_date: DATE,
  expiration_date: DATE,
  validity_timeframe: O,
  validity_day_of_week: A,
  validity_hours: O,
  active: B_NULL,
  additional_info: S,
  metadata: O,
  assets: O,
  is_referral_code: B_NULL,
  created_at: DATE,
  updated_at: DATE,
  holder_id: S,
  referrer_id: S,
  object: S,
  publish: O,
  redemption: O,
  categories: A,
  validation_rules_assignments: O,
} as const;

const campaignFields = [
  ['id', S],
  ['name', S],
  ['campaign_type', S],
  ['type', S],
  ['voucher', O],
  ['auto_join', B],
  ['join_once', B],
  ['use_voucher_metadata_schema', B],
  ['start_date', DATE],
  ['expiration_date', DATE],
  ['validity_timeframe', O],
  ['validity_day_of_week', A],
  ['activity_duration_after_publishing', S],
  ['vouchers_count', I],
  ['active', B],
  ['metadata', O],
  ['created_at', DATE],
  ['updated_at', DATE],
  ['creation_status', S],
  ['vouchers_generation_status', S],
  ['protected', B],
  ['category', S],
  ['category_id', S_NULL],
  ['object', S],
] as const;

export const seedFields: Record<string, SeedFields> = {
  'generate-oauth-token': {
    request: { grant_type: S, scope: S },
    response: oauthToken,
  },
  'introspect-oauth-token': {
    request: { access_token: S },
    response: { ...oauthToken, active: B },
  },
  'create-points-expiration-export': {
    request: {
      parameters: O,
      'parameters.fields': A,
      'parameters.fields[]': S,
      'parameters.order': S,
      'parameters.filters': O,
      'parameters.filters.junction': S,
    },
    response: {
      id: S,
      object: S,
      created_at: DATE,
      status: S,
      channel: S,
      exported_object: S,
      parameters: O,
      result: O_NULL,
      user_id: S_NULL,
    },
  },
  'create-campaign-template': {
    request: { name: S, campaign_id: S_NULL, promotion_tier_id: S_NULL, description: S_NULL },
    response: { id: S, name: S, description: S, campaign_type: S, created_at: DATE, object: S },
  },
  'add-vouchers-to-campaign': {
    query: { vouchers_count: I },
    request: {
      code: S,
      code_config: O,
      'code_config.length': I,
      'code_config.charset': S,
      'code_config.prefix': S,
      'code_config.postfix': S,
      'code_config.pattern': S,
      'code_config.initial_count': I,
      category: S,
      metadata: O,
      redemption: O,
      'redemption.quantity': I,
      additional_info: S,
      start_date: DATE,
      expiration_date: DATE,
    },
    response: voucher,
  },
  'delete-voucher': {
    query: { force: B },
  },
  'list-campaigns': {
    query: {
      limit: I,
      page: I,
      campaign_type: S,
      expand: S,
      campaign_status: S,
      is_referral_code: B,
      order: S,
      filters: O,
      access_settings: O,
    },
    response: {
      object: S,
      data_ref: S,
      campaigns: A,
      total: I,
      ...Object.fromEntries(campaignFields.map(([name, type]) => [`campaigns[].${name}`, type])),
    },
  },
  'create-reward-assignment': {
    request: { campaign: S, parameters: O, 'parameters.loyalty': O, 'parameters.loyalty.points': I },
    response: {
      id: S,
      reward_id: S,
      related_object_id: S,
      related_object_type: S,
      parameters: O,
      'parameters.loyalty': O,
      'parameters.loyalty.points': I,
      created_at: DATE,
      updated_at: S_NULL,
      object: S,
    },
  },
  'track-custom-event': {
    request: {
      event: S,
      customer: O,
      'customer.source_id': S,
      referral: O,
      'referral.code': S,
      'referral.referrer_id': S,
      loyalty: O,
      metadata: O,
    },
    response: {
      object: S,
      type: S,
      customer: O,
      'customer.id': S,
      'customer.name': S,
      'customer.email': S,
      'customer.source_id': S,
      'customer.metadata': O,
      'customer.object': S,
      referral: O_NULL,
      loyalty: O_NULL,
      metadata: O,
    },
  },
};
