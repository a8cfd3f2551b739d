import type { Difference, DifferenceKind, Location } from './compare.js';

/**
 * Why each remaining difference from Voucherify's reference is there. A rule names operations
 * (or `*`), where the field is, a field pattern (`*` matches anything, including dots) and the
 * kinds it covers. The first matching rule explains a difference; a difference on one of the seed
 * spec's operations that no rule explains fails the compatibility test.
 */
interface Rule {
  operations: readonly string[] | '*';
  location: Location | '*';
  fields: readonly string[];
  kinds?: readonly DifferenceKind[];
  reason: string;
}

const REDEMPTION_OPS = ['get-redemption', 'list-redemptions', 'rollback-redemption', 'rollback-stacked-redemptions', 'get-voucher-redemptions'] as const;
/** The /v1/loyalties program routes: the campaign services and the Campaign component (docs/decisions.md "Loyalty programs are campaigns"). */
const LOYALTY_PROGRAM_OPS = ['list-loyalty-programs', 'create-loyalty-program', 'get-loyalty-program', 'update-loyalty-program'] as const;
const CAMPAIGN_OPS = [
  'list-campaigns',
  'create-campaign',
  'get-campaign',
  'get-campaign-summary',
  'create-campaign-from-template',
  'update-campaign',
  ...LOYALTY_PROGRAM_OPS,
] as const;
const PUBLICATION_OPS = ['create-publication', 'create-publication-1', 'list-publications'] as const;
const VOUCHER_OPS = [
  'get-voucher',
  'add-vouchers-to-campaign',
  'add-tier-from-template',
  'enable-voucher',
  'disable-voucher',
  'update-voucher',
  'list-vouchers',
  'create-voucher',
  'generate-random-code',
  'add-voucher-with-specific-code-to-campaign',
  'import-vouchers-to-campaign',
  'import-vouchers',
  ...CAMPAIGN_OPS,
  ...PUBLICATION_OPS,
] as const;
/** A campaign object's fields, wherever it appears (a list's items, a create or get reply, a campaign setup's `campaign`). */
const inCampaign = (...fields: string[]): string[] => fields.flatMap((f) => [f, `campaigns[].${f}`, `campaign.${f}`]);

const rules: readonly Rule[] = [
  {
    operations: CAMPAIGN_OPS,
    location: 'response',
    fields: ['*loyalty_tiers_expiration.start_date.type'],
    kinds: ['enum'],
    reason:
      'A tier starts at once (IMMEDIATE); NEXT_PERIOD is refused by name on the update (docs/decisions.md "Loyalty tiers by period"), so no stored program replies with it',
  },
  // PUT /v1/campaigns/{campaignId} (docs/decisions.md "Changing and deleting campaigns")
  {
    operations: ['update-campaign', 'update-loyalty-program'],
    location: 'request',
    fields: ['loyalty_tiers_expiration.*', 'options.*'],
    reason:
      'They change a loyalty program\'s tiers and every card (loyalty tiers are not built): accepted by the schema only to be refused with 400 invalid_payload naming the field, rather than ignored. `discount` and `gift` are built (docs/decisions.md "Changing a campaign\'s vouchers")',
  },
  // Campaign templates (docs/decisions.md "Campaign templates")
  {
    operations: ['list-campaign-templates'],
    location: 'query',
    fields: ['filters.id', 'filters.name'],
    reason:
      'A page is one key range of the creation-ordered template index (or of one campaign type); `id` and `name` conditions are no key range of it, so they are refused with 400 rather than served by reading the whole list (get a template by id instead)',
  },
  {
    operations: ['add-tier-from-template'],
    location: 'request',
    fields: ['category', 'category_id'],
    reason:
      'Promotion tiers keep no category of their own here (per-tier categories are not built, as on POST /v1/campaigns); a request naming one is refused by the strict body schema rather than silently dropped',
  },
  {
    operations: ['get-campaign-template'],
    location: 'query',
    fields: ['expand'],
    reason: "The JSON template of a campaign is an export of Voucherify's own campaign format; it is refused with 400 rather than answered without it",
  },
  // Redemptions and rollbacks (docs/decisions.md "Redemptions: the store, reads and rollbacks")
  {
    operations: REDEMPTION_OPS,
    location: 'response',
    fields: ['*promotion_tier.*'],
    kinds: ['missing'],
    reason:
      "A redemption names its promotion tier by id, with the tier's campaign; the tier's own fields (action, validity, summary, …) live in its campaign and are read from there (GET /v1/promotions/tiers/{id}), not copied into every redemption",
  },
  {
    operations: REDEMPTION_OPS,
    location: 'response',
    fields: ['order.*', '*[].order.*', 'parent_rollback.order.*', 'order'],
    kinds: ['missing'],
    reason:
      "A redemption records the order's figures as they stood after it (OrderCalculated: amounts and the lines' figures) with the order's id, source id, status, metadata and customer; the order's other fields are at GET /v1/orders/{orderId}",
  },
  {
    operations: REDEMPTION_OPS,
    location: 'response',
    fields: ['*customer.email', '*customer.name', '*customer.metadata'],
    kinds: ['missing'],
    reason: "A redemption names its customer (id and source_id), as an order does; the customer's details are at GET /v1/customers/{customerId}",
  },
  {
    operations: REDEMPTION_OPS,
    location: 'response',
    fields: ['*failure_code', '*failure_message'],
    kinds: ['missing'],
    reason: 'Only successful redemptions are recorded: a refused redemption writes nothing (all or nothing), so no record has a failure to describe',
  },
  {
    operations: REDEMPTION_OPS,
    location: 'response',
    fields: ['*loyalty_card', '*reward', '*session', '*rollback_order_mode', '*voucher.holder'],
    kinds: ['missing'],
    reason:
      "Loyalty points and rewards are not redeemable yet; the LOCK session a redemption consumed is kept on the record but not replied; a rollback always records itself on the redemption's order; the voucher shows its holder as `holder_id`",
  },
  {
    operations: REDEMPTION_OPS,
    location: 'response',
    fields: ['*channel.channel_type', '*object', '*status'],
    kinds: ['enum'],
    reason:
      'Every redemption here is made through the API (`channel_type` API); one reply schema describes redemptions and their `redemption_rollback` records, so its `object` and `status` enums are the union of both (a rollback record is always `redemption_rollback`, `SUCCEEDED`)',
  },
  {
    operations: REDEMPTION_OPS,
    location: 'response',
    fields: ['*voucher.discount.unit_off'],
    kinds: ['type'],
    reason: "As on the voucher operations: the redemption's voucher is the voucher object",
  },
  {
    operations: ['rollback-redemption', 'rollback-stacked-redemptions'],
    location: 'request',
    fields: ['order'],
    kinds: ['missing'],
    reason:
      'A rollback records itself on the redemption\'s own order; an order in the body is refused (docs/decisions.md "Request fields the reference documents")',
  },
  {
    operations: ['list-redemptions'],
    location: 'query',
    fields: ['order', 'filters'],
    reason:
      'Listed by date only, filtered by the plain parameters (docs/decisions.md "Redemptions: the store, reads and rollbacks"; refusals in "Request fields the reference documents")',
  },
  // GET /v1/campaigns filters (docs/decisions.md "Listing campaigns")
  {
    operations: ['list-campaigns'],
    location: 'query',
    fields: ['filters.status.conditions.*', 'filters.active.*'],
    reason:
      "Operators without an operand are written like every other condition, `filters[status][conditions][$active]=` (an empty value), because a query string cannot carry the objects Voucherify's document types them as; `active` takes its operators under `conditions` too, as the other fields do",
  },
  {
    operations: ['list-campaigns'],
    location: 'query',
    fields: ['filters.*.conditions.$more_than', 'filters.*.conditions.$less_than', 'filters.validity_day_of_week.conditions.$is[]'],
    kinds: ['type'],
    reason: 'Query values are text: ours are digit strings, checked (days; weekdays 0–6) and converted, the same values Voucherify reads as integers',
  },
  {
    operations: ['list-campaigns'],
    location: 'query',
    fields: ['filters.validity_timeframe'],
    reason:
      'Not supported: matching a recurring validity timeframe needs validation-time arithmetic the listing does not do; refused with 400 invalid_query_params rather than ignored',
  },
  {
    operations: ['list-campaigns'],
    location: 'query',
    fields: ['filters.junction'],
    kinds: ['enum'],
    reason: 'Upper-case AND / OR are accepted too (what the dashboard sends); lower-case is the documented form',
  },
  // Voucher transactions
  {
    operations: ['list-voucher-transactions'],
    location: 'response',
    fields: ['data[].details.*'],
    kinds: ['missing'],
    reason:
      'Only manual balance changes (POST /v1/vouchers/{code}/balance and the loyalty balance route) are recorded yet; their details hold the balance only. The other details belong to transaction kinds (redemptions, refunds, earning rules, tiers, transfers, pending points) that no endpoint makes yet',
  },
  {
    operations: ['list-voucher-transactions'],
    location: 'response',
    fields: ['data[].type', 'data[].details.balance.operation_type'],
    kinds: ['enum'],
    reason: 'Only manual changes (MANUAL; *_ADDITION and *_REMOVAL) are recorded yet; the other kinds come with redemptions, earning and transfers',
  },
  // The campaign object
  {
    operations: VOUCHER_OPS,
    location: '*',
    fields: ['*discount.unit_off'],
    kinds: ['type'],
    reason:
      'UNIT discounts take a number of units; we accept fractional units (the SDK types unit_off as number). Every integer Voucherify accepts is accepted, and the reply echoes what was sent',
  },
  {
    operations: CAMPAIGN_OPS,
    location: '*',
    fields: inCampaign('voucher.validity_day_of_week', 'voucher.validity_hours'),
    reason:
      'Weekday and hour validity on the voucher template only matter to validation and redemption, which this service does not have; the campaign-level `validity_day_of_week` of the spec is kept',
  },
  {
    operations: CAMPAIGN_OPS,
    location: '*',
    fields: [
      ...inCampaign('readonly', 'loyalty_tiers_expiration', 'access_settings_assignments', 'access_settings_assignments.*'),
      'access_settings',
      'validation_rules',
      'promotion.tiers[].validation_rules',
      'promotion.tiers[].category',
      'promotion.tiers[].category_id',
    ],
    reason:
      'Features not built: areas and stores (enterprise access settings), loyalty tiers, validation rules, per-tier categories. Empty lists (and `access_settings.unassign`) are accepted; a rule, an area or a category on a tier is refused rather than half-applied (docs/decisions.md "Request fields the reference documents")',
  },
  // Publications (docs/decisions.md "Publications")
  {
    operations: ['list-publications', 'list-redemptions'],
    location: 'query',
    fields: ['filters.junction'],
    kinds: ['enum'],
    reason: 'Upper-case AND / OR are accepted too, as on GET /v1/campaigns; lower-case is the documented form',
  },
  {
    operations: ['list-publications'],
    location: 'query',
    fields: ['order'],
    kinds: ['enum'],
    reason:
      'Only the creation order is served: each list view is a key sorted by creation time, and ordering by code, tracking id, customer or channel would need a sort key per order in every view (or reading the whole view to sort it)',
  },
  {
    operations: ['list-publications'],
    location: 'query',
    fields: ['voucher_type'],
    kinds: ['enum'],
    reason:
      "The official SDK's values (`DISCOUNT`, `GIFT`, `LOYALTY_CARD`, `LUCKY_DRAW`) are accepted beside the documented `discount` and `loyalty`, and `gift` for gift cards",
  },
  {
    operations: ['create-campaign'],
    location: 'request',
    fields: ['vouchers_count'],
    kinds: ['type'],
    reason: 'Every value is an integer; 0 (no vouchers yet) is a separate literal in our schema, which the comparison reads as a number',
  },
  // Async actions
  {
    operations: ['get-async-action'],
    location: 'response',
    fields: ['type', 'result.*'],
    reason:
      'The async actions here are CAMPAIGN.VOUCHERS_GENERATE, CAMPAIGN.VOUCHERS_IMPORT, VOUCHERS.IMPORT, CAMPAIGN.VOUCHERS_DELETE and CAMPAIGN.VOUCHERS_UPDATE; an import lists its failures as `result.failed[]` of `{code, reason}` (also for VOUCHERS.IMPORT, whose reference schema has one object: an import can fail many codes). Reports, CSV rows and source ids belong to CSV imports and bulk updates, which are not built. A failed action reports its reason in `result.message`',
  },
  {
    operations: ['list-bin-entries'],
    location: 'query',
    fields: ['filters'],
    reason: 'The bin is listed with `limit`, `order` and `starting_after_id` (docs/decisions.md "Bin"); filters are refused with 400 rather than ignored',
  },
  // Listing vouchers (docs/decisions.md "Listing vouchers")
  {
    operations: ['list-vouchers'],
    location: 'query',
    fields: ['created_at', 'updated_at'],
    kinds: ['missing'],
    reason:
      'The bounds arrive deepObject-style (`created_at[before]`, `created_at[after]`, as the SDK writes `{created_at: {before}}`) and are parameters of their own here, as on GET /v1/customers; `updated_at[…]` is refused with 400 (no index sorts vouchers by change)',
  },
  {
    operations: ['list-vouchers'],
    location: 'query',
    fields: ['filters'],
    kinds: ['missing'],
    reason: 'The advanced filters would need a search over every voucher; refused with 400 rather than ignored (docs/decisions.md "Listing vouchers")',
  },
  {
    operations: ['list-vouchers'],
    location: 'query',
    fields: ['ids'],
    kinds: ['type'],
    reason:
      'A repeated `ids=` parameter reaches the handler joined by commas (API Gateway HTTP API), so ours is one string of comma-separated ids (at most 100)',
  },
  // Rewards
  {
    operations: ['create-reward'],
    location: 'request',
    fields: ['parameters.coin.exchange_ratio', 'parameters.coin.points_ratio'],
    kinds: ['type'],
    reason: "Voucherify's request schema types the ratios as strings while its reward object holds numbers; we take numbers, the type the reply shows",
  },
  {
    operations: ['create-reward-assignment'],
    location: '*',
    fields: ['parameters.loyalty.auto_redeem', 'validation_rules'],
    reason:
      'Automatic reward redemption and validation rules are not built: `auto_redeem` false or null and an empty `validation_rules` are accepted (and not replied); `auto_redeem: true` and rule ids are refused (docs/decisions.md "Request fields the reference documents")',
  },
  // Loyalty
  {
    operations: LOYALTY_PROGRAM_OPS,
    location: 'response',
    fields: inCampaign('campaign_type', 'type', 'voucher.type'),
    kinds: ['enum'],
    reason:
      'The reply is the Campaign component of /v1/campaigns, which names every campaign type; these routes only ever answer LOYALTY_PROGRAM campaigns of LOYALTY_CARD vouchers (another type is 404)',
  },
  {
    operations: ['list-reward-assignments-1', 'get-reward-assignment-1'],
    location: 'response',
    fields: ['parameters.loyalty.auto_redeem', 'data[].parameters.loyalty.auto_redeem'],
    reason: 'Automatic reward redemption is not built: an assignment never redeems by itself, so the flag is not replied (as on the …/rewards forms)',
  },
  {
    operations: ['update-loyalty-card-balance-1', 'update-loyalty-card-balance'],
    location: 'response',
    fields: ['type', 'operation_type'],
    kinds: ['enum'],
    reason:
      "This endpoint changes loyalty cards by hand only: `type` is always loyalty_card and `operation_type` MANUAL (AUTOMATIC is for Voucherify's scheduled top-ups)",
  },
  {
    operations: ['create-earning-rule'],
    location: '*',
    fields: [
      '[].validation_rule_id',
      '[].loyalty.points_formula',
      '[].loyalty.calculation_type',
      '[].loyalty.order',
      '[].loyalty.order_items',
      '[].loyalty.customer',
      '[].loyalty.custom_event.metadata.points_formula',
      '[].pending_points',
      '[].validity_timeframe',
      '[].validity_day_of_week',
      '[].validity_hours',
      '[].segment',
      '[].loyalty_tier',
    ],
    reason:
      'Earning rules on custom events only (docs/decisions.md "Loyalty points"): order, order-item, customer-metadata, segment and tier rules, formulas, pending points and validity windows need entities this service does not have; refused with 400',
  },
  // Exports
  {
    operations: ['create-points-expiration-export', 'get-export'],
    location: '*',
    fields: ['parameters.order'],
    kinds: ['enum'],
    reason: 'Ours orders by every exportable field, each way (the issue asks for it; docs/decisions.md "Exports"); expires_at and -expires_at are among them',
  },
  {
    operations: ['create-points-expiration-export', 'get-export', 'create-export', 'list-exports'],
    location: 'response',
    fields: [
      'exported_object',
      'exports[].exported_object',
      'parameters.*',
      'exports[].parameters.*',
      'status',
      'exports[].status',
      'channel',
      'exports[].channel',
      'result*',
      'exports[].result*',
      'user_id',
      'exports[].user_id',
    ],
    reason:
      'One export object for every exported object (docs/decisions.md "Exports of every object"): `exported_object` any of the seven; `parameters` echo the request as sent (`filters` an open map of the object\'s filter names); the status moves on from SCHEDULED; result is `{url}` once DONE or `{message}` once ERROR',
  },
  {
    operations: ['create-export'],
    location: 'request',
    fields: ['*'],
    reason:
      'Each exported object takes its own fields, orders and filters (lib/exports/exporters.ts): fields the service does not store, filters on data a row does not carry, and the relative-date and count operators are refused with a 400 naming them; operands are a value or a list of one (docs/decisions.md "Exports of every object")',
  },
  {
    operations: ['list-exports'],
    location: 'query',
    fields: ['order'],
    kinds: ['enum'],
    reason: 'The list is an index by creation: created_at orders only; the status orders are refused (docs/decisions.md "Exports of every object")',
  },
  {
    operations: ['create-points-expiration-export'],
    location: 'response',
    fields: ['status', 'channel'],
    kinds: ['enum'],
    reason:
      'One export object for create and get: it is SCHEDULED when created (as the spec says) and moves on to IN_PROGRESS, DONE or ERROR; exports made through this API always have channel API',
  },
  {
    operations: ['get-export'],
    location: 'response',
    fields: ['exported_object', 'parameters.fields[]', 'parameters.campaign_id', 'parameters.filters.*'],
    reason:
      "Only points-expiration exports exist here; Voucherify's get-export documents the union of every export type's parameters and filter grammar (customers, vouchers, redemptions, …). Ours echo a points-expiration export's parameters, whose filters take single values for $is / $is_not and lists for $in / $not_in",
  },
  // Creating and importing vouchers (docs/decisions.md "Creating vouchers", "Importing vouchers")
  {
    operations: ['create-voucher', 'generate-random-code', 'import-vouchers-to-campaign'],
    location: 'request',
    fields: [
      '*loyalty_card.balance',
      '*loyalty_card.expired_points',
      '*loyalty_card.next_expiration_date',
      '*loyalty_card.next_expiration_points',
      '*loyalty_card.pending_points',
      '*loyalty_card.subtracted_points',
    ],
    kinds: ['missing'],
    reason:
      "A new loyalty card's balance is its `points` and it has no history yet: these figures are what its points changes make of it, so a request setting them is refused (400) rather than making a card whose figures do not add up",
  },
  {
    operations: ['import-vouchers'],
    location: 'request',
    fields: ['[].type'],
    kinds: ['enum'],
    reason: 'Standalone loyalty cards can be imported too, as POST /v1/vouchers/{code} creates them; every type Voucherify accepts is accepted',
  },
];

const compiled = rules.map((rule) => ({
  rule,
  patterns: rule.fields.map((f) => new RegExp(`^${f.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`)),
}));

export function explanationFor(operationId: string, difference: Difference): string | null {
  for (const { rule, patterns } of compiled) {
    if (rule.operations !== '*' && !rule.operations.includes(operationId)) continue;
    if (rule.location !== '*' && rule.location !== difference.location) continue;
    if (rule.kinds && !rule.kinds.includes(difference.kind)) continue;
    if (patterns.some((p) => p.test(difference.field))) return rule.reason;
  }
  return null;
}
