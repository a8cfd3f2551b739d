import type { RedeemableError } from './validations/redeemable-error.js';
/**
 * The one table of error kinds. Every failure a client can cause is an AppError subclass
 * carrying the HTTP status and the spec's error `key`; the responder in lib/http turns it into
 * the wire error object. Anything else that escapes is a bug and becomes an opaque 500.
 */

/** The 400 keys a caller picks for BadRequestError: the spec names several for one status. */
export type BadRequestKey =
  | 'bad_request'
  | 'duplicate_source_id'
  | 'invalid_amount'
  | 'invalid_cidr'
  | 'invalid_customer'
  | 'invalid_grant_type'
  | 'invalid_origin'
  | 'invalid_idempotency_key'
  | 'invalid_path'
  | 'invalid_scope'
  | 'loyalty_card_points_exceeded'
  | 'missing_order'
  | 'missing_parameters'
  | 'missing_reward'
  | 'missing_vouchers'
  | 'no_voucher_suitable_for_publication'
  | 'too_many_points_buckets'
  | 'too_many_vouchers_requested'
  | 'voucher_already_published'
  | 'voucher_cannot_be_published'
  | 'not_published'
  // The deprecated qualification calls (examine-vouchers-qualification, examine-campaign-qualification): docs/decisions.md.
  | 'deprecated_endpoint'
  | 'invalid_pending_points_state';

/**
 * Every `key` a reply's error object can carry. Closed, so a new key is a deliberate edit here
 * (and a row in docs/decisions.md when the spec does not name it), never a typo at a throw site.
 */
export type ErrorKey =
  | BadRequestKey
  | 'already_rolled_back'
  | 'campaign_not_active'
  | 'order_rules_violated'
  | 'customer_rules_violated'
  | 'redemption_rules_violated'
  | 'gift_amount_exceeded'
  | 'missing_order_items'
  | 'promotion_inactive'
  | 'voucher_expired'
  | 'voucher_not_active'
  | 'order_changed'
  | 'quantity_exceeded'
  | 'resource_not_found'
  | 'voucher_disabled'
  | 'campaign_type_is_not_supported_by_campaign_template'
  | 'code_space_exhausted'
  | 'duplicate_found'
  | 'forbidden'
  | 'idempotency_key_in_use'
  | 'idempotency_key_reused'
  | 'internal_server_error'
  | 'invalid_balance'
  | 'invalid_campaign'
  | 'invalid_expiration_date'
  | 'invalid_json'
  | 'invalid_payload'
  | 'invalid_query_params'
  | 'invalid_validation_rules'
  | 'invalid_voucher'
  | 'metadata_validation_failed'
  | 'method_not_allowed'
  | 'missing_required_permission'
  | 'not_enough_points'
  | 'not_found'
  | 'oauth_token_limit_exceeded'
  | 'payload_too_large'
  | 'referrer_not_permitted_to_redeem'
  | 'resource_in_use'
  | 'resource_protected'
  | 'request_timeout'
  | 'resource_in_use'
  | 'service_busy'
  | 'service_unavailable'
  | 'too_many_categories'
  | 'too_many_requests'
  | 'too_many_validation_rules'
  | 'unauthorized'
  | 'unsupported_media_type'
  | 'branding_exist'
  | 'holder_assignement_duplication'
  | 'stacking_rules_exist';

export interface ErrorFields {
  message: string;
  details?: string;
  resourceId?: string;
  resourceType?: string;
  /** Extra response headers, e.g. Retry-After on a quota error. */
  headers?: Record<string, string>;
  /** A validation rule's own text (the error object's `error.message`). */
  errorMessage?: string;
  /** The error this one stands for (an SDK fault, a parser's error): kept for logs and debuggers, never sent. */
  cause?: unknown;
}

/**
 * Subclasses set `name` as a string literal rather than from `new.target.name`: the deployed
 * bundles are minified, which renames classes, and a log line saying `s` helps nobody
 * (test/unit/errors.test.ts checks each literal against its class's name).
 */
export class AppError extends Error {
  override readonly name: string = 'AppError';
  readonly status: number;
  readonly key: ErrorKey;
  readonly details: string | undefined;
  readonly resourceId: string | undefined;
  readonly resourceType: string | undefined;
  readonly headers: Record<string, string>;
  readonly errorMessage: string | undefined;

  constructor(status: number, key: ErrorKey, fields: ErrorFields) {
    super(fields.message, fields.cause !== undefined ? { cause: fields.cause } : undefined);
    this.status = status;
    this.key = key;
    this.details = fields.details;
    this.resourceId = fields.resourceId;
    this.resourceType = fields.resourceType;
    this.headers = fields.headers ?? {};
    this.errorMessage = fields.errorMessage;
  }
}

/** 400 with a caller-chosen key: the spec names several (invalid_scope, missing_parameters, ...). */
export class BadRequestError extends AppError {
  override readonly name = 'BadRequestError';

  constructor(key: BadRequestKey, message: string, details?: string) {
    super(400, key, { message, details });
  }
}

export class InvalidPayloadError extends AppError {
  override readonly name = 'InvalidPayloadError';

  constructor(details: string, cause?: unknown) {
    super(400, 'invalid_payload', { message: 'Invalid payload', details, cause });
  }
}

export class InvalidQueryParamsError extends AppError {
  override readonly name = 'InvalidQueryParamsError';

  constructor(details: string, cause?: unknown) {
    super(400, 'invalid_query_params', { message: 'Invalid query params', details, cause });
  }
}

export class InvalidJsonError extends AppError {
  override readonly name = 'InvalidJsonError';

  constructor(details: string, cause?: unknown) {
    super(400, 'invalid_json', { message: 'Invalid JSON', details, cause });
  }
}

export class UnauthorizedError extends AppError {
  override readonly name = 'UnauthorizedError';

  constructor(details?: string) {
    super(401, 'unauthorized', { message: 'Unauthorized', details });
  }
}

/** The caller is known but its request comes from outside the key's IP allow-list. */
export class ForbiddenError extends AppError {
  override readonly name = 'ForbiddenError';

  constructor(details: string) {
    super(403, 'forbidden', { message: 'Forbidden', details });
  }
}

/** The caller is known but neither its token scopes nor its key permissions cover the route. */
export class MissingPermissionError extends AppError {
  override readonly name = 'MissingPermissionError';

  constructor(details: string) {
    super(403, 'missing_required_permission', { message: 'Missing permission', details });
  }
}

export class NotFoundError extends AppError {
  override readonly name = 'NotFoundError';

  /** `details` replaces the usual "Cannot find <type> with id <id>" where the resource exists but not what was asked of it. */
  constructor(resourceType: string, resourceId: string, details?: string) {
    super(404, 'not_found', {
      message: 'Resource not found',
      details: details ?? `Cannot find ${resourceType} with id ${resourceId}`,
      resourceId,
      resourceType,
    });
  }
}

/**
 * A token to revoke that is unknown, expired, already revoked or another project's: one answer for
 * all, so a caller learns nothing about other projects' tokens. The token is never echoed.
 */
export class OAuthTokenNotFoundError extends AppError {
  override readonly name = 'OAuthTokenNotFoundError';

  constructor() {
    super(404, 'not_found', {
      message: 'Resource not found',
      details: 'The access token is unknown, expired or already revoked',
      resourceType: 'oauth_token',
    });
  }
}

export class RouteNotFoundError extends AppError {
  override readonly name = 'RouteNotFoundError';

  constructor(method: string, path: string) {
    super(404, 'not_found', { message: 'Resource not found', details: `No route ${method} ${path}` });
  }
}

export class MethodNotAllowedError extends AppError {
  override readonly name = 'MethodNotAllowedError';

  constructor(method: string, path: string, allowed: string[]) {
    super(405, 'method_not_allowed', {
      message: 'Method not allowed',
      details: `${method} is not supported on ${path}; use ${allowed.join(', ')}`,
      headers: { Allow: allowed.join(', ') },
    });
  }
}

export class DuplicateError extends AppError {
  override readonly name = 'DuplicateError';

  constructor(resourceType: string, details: string, resourceId?: string) {
    super(409, 'duplicate_found', { message: 'Duplicated resource found', details, resourceType, resourceId });
  }
}

export class PayloadTooLargeError extends AppError {
  override readonly name = 'PayloadTooLargeError';

  constructor(limitBytes: number) {
    super(413, 'payload_too_large', {
      message: 'Payload too large',
      details: `Request body must not exceed ${limitBytes} bytes`,
    });
  }
}

/**
 * The request (headers and body) did not arrive within the server's time limit. Only the local
 * runtime's HTTP server raises it, before any handler runs; in AWS, API Gateway's front door
 * applies its own limits.
 */
export class RequestTimeoutError extends AppError {
  override readonly name = 'RequestTimeoutError';

  constructor(part: 'headers' | 'request', limitMs: number) {
    super(408, 'request_timeout', {
      message: 'Request timeout',
      details: `${part === 'headers' ? 'The request headers' : 'The whole request (headers and body)'} must arrive within ${limitMs / 1000} s; send it again`,
    });
  }
}

export class UnsupportedMediaTypeError extends AppError {
  override readonly name = 'UnsupportedMediaTypeError';

  constructor(expected: string, got: string | undefined) {
    super(415, 'unsupported_media_type', {
      message: 'Unsupported media type',
      details: `Expected Content-Type ${expected}, got ${got ?? 'none'}`,
    });
  }
}

export class TooManyTokensError extends AppError {
  override readonly name = 'TooManyTokensError';

  constructor(limit: number, retryAfterSeconds: number) {
    super(429, 'oauth_token_limit_exceeded', {
      message: 'OAuth token limit exceeded',
      details: `The project already has ${limit} live OAuth tokens; the next slot frees in ${retryAfterSeconds} s`,
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  }
}

/** A campaign that cannot do what was asked (Voucherify's `invalid_campaign`), e.g. generate vouchers for a promotion. */
/** A protected resource (a campaign Voucherify marks `protected`) refuses changes and deletion (the reference's 400). */
export class ResourceProtectedError extends AppError {
  override readonly name = 'ResourceProtectedError';

  constructor(resourceType: string, resourceId: string) {
    super(400, 'resource_protected', {
      message: 'Resource is protected',
      details: `Resource ${resourceType} with id ${resourceId} is protected and cannot be modified`,
      resourceId,
      resourceType,
    });
  }
}

export class InvalidCampaignError extends AppError {
  override readonly name = 'InvalidCampaignError';

  constructor(details: string) {
    super(400, 'invalid_campaign', { message: 'Invalid Campaign', details });
  }
}

/** A code pattern that cannot produce the codes asked for: it would otherwise be searched forever. */
export class CodeSpaceExhaustedError extends AppError {
  override readonly name = 'CodeSpaceExhaustedError';

  constructor(details: string) {
    super(400, 'code_space_exhausted', { message: 'Not enough codes left', details });
  }
}

/** Voucherify's error for a campaign type that templates cannot hold (only discount and gift campaigns). */
export class UnsupportedTemplateTypeError extends AppError {
  override readonly name = 'UnsupportedTemplateTypeError';

  constructor(campaignType: string) {
    super(400, 'campaign_type_is_not_supported_by_campaign_template', {
      message: 'Campaign of the given type is not supported by campaign template',
      details: `Templates can be made from DISCOUNT_COUPONS and GIFT_VOUCHERS campaigns or promotion tiers, not from ${campaignType}`,
    });
  }
}

/** The project has as many categories as it may (the list of categories is one reply, so it is bounded). */
export class TooManyCategoriesError extends AppError {
  override readonly name = 'TooManyCategoriesError';

  constructor(limit: number) {
    super(400, 'too_many_categories', {
      message: 'Too many categories',
      details: `A project has at most ${limit} categories; delete one before creating another`,
      resourceType: 'category',
    });
  }
}

/** A validation rule this service cannot evaluate or that is malformed (the reference's 400 `invalid_validation_rules`): `details` names the condition. */
export class InvalidValidationRulesError extends AppError {
  override readonly name = 'InvalidValidationRulesError';

  constructor(details: string) {
    super(400, 'invalid_validation_rules', { message: 'Invalid validation rules', details, resourceType: 'validation_rules' });
  }
}

/** A resource that others still use cannot be deleted (the reference's 400 `resource_in_use`). */
export class ResourceInUseError extends AppError {
  override readonly name = 'ResourceInUseError';

  constructor(resourceType: string, resourceId: string, details: string) {
    super(400, 'resource_in_use', { message: 'Resource in use', details, resourceId, resourceType });
  }
}

/** The project has as many validation rules as it may, or an object as many assignments as it may. */
export class TooManyValidationRulesError extends AppError {
  override readonly name = 'TooManyValidationRulesError';

  constructor(details: string) {
    super(400, 'too_many_validation_rules', { message: 'Too many validation rules', details, resourceType: 'validation_rules' });
  }
}

/** A write kept losing a race (optimistic lock); the caller may retry. */
export class ConflictRetryError extends AppError {
  override readonly name = 'ConflictRetryError';

  constructor(details: string) {
    super(503, 'service_busy', { message: 'Service busy', details, headers: { 'Retry-After': '1' } });
  }
}

/** Voucherify's error for a reward balance that does not fit the reward's campaign type. */
export class InvalidBalanceError extends AppError {
  override readonly name = 'InvalidBalanceError';

  constructor(details: string) {
    super(400, 'invalid_balance', { message: "Property 'parameters.campaign.balance' is invalid", details });
  }
}

/** Metadata that breaks its schema (Voucherify's `metadata_validation_failed`); details name each property. */
export class MetadataValidationError extends AppError {
  override readonly name = 'MetadataValidationError';

  constructor(details: string) {
    super(400, 'metadata_validation_failed', { message: 'Metadata validation failed', details });
  }
}

/** An `Idempotency-Key` already used with a different request (IETF idempotency-key draft: 422). */
export class IdempotencyKeyReusedError extends AppError {
  override readonly name = 'IdempotencyKeyReusedError';

  constructor(key: string) {
    super(422, 'idempotency_key_reused', {
      message: 'Idempotency key reused',
      details: `The Idempotency-Key ${key} was already used with a different request in the last 24 hours; send a new key`,
    });
  }
}

/** Points added with an expiration date in the past (Voucherify's `invalid_expiration_date`). */
export class InvalidExpirationDateError extends AppError {
  override readonly name = 'InvalidExpirationDateError';

  constructor(details: string) {
    super(400, 'invalid_expiration_date', { message: 'Invalid Expiration Date', details });
  }
}

/** A loyalty card asked to give more points than its unexpired balance holds. */
export class NotEnoughPointsError extends AppError {
  override readonly name = 'NotEnoughPointsError';

  constructor(
    code: string,
    readonly wanted: number,
    readonly available: number,
    cause?: unknown,
  ) {
    super(400, 'not_enough_points', {
      message: 'Not enough points',
      details: `Loyalty card ${code} has ${available} points available; ${wanted} were requested`,
      resourceId: code,
      resourceType: 'voucher',
      cause,
    });
  }
}

/** A reward with a stock has none left (the reference's `quantity_exceeded`, for the reward). */
export class RewardOutOfStockError extends AppError {
  override readonly name = 'RewardOutOfStockError';

  constructor(rewardId: string) {
    super(400, 'quantity_exceeded', {
      message: 'Quantity exceeded',
      details: `Reward ${rewardId} is out of stock`,
      resourceId: rewardId,
      resourceType: 'reward',
    });
  }
}

/** A gift card asked to give up more credits than its balance holds (the reference's `invalid_balance`). */
export class NotEnoughCreditsError extends AppError {
  override readonly name = 'NotEnoughCreditsError';

  constructor(code: string, wanted: number, available: number) {
    super(400, 'invalid_balance', {
      message: 'Invalid balance',
      details: `Gift card ${code} has a balance of ${available}; ${wanted} cannot be removed`,
      resourceId: code,
      resourceType: 'voucher',
    });
  }
}

/**
 * A discount the calculator cannot evaluate: a `*_formula` field (the service has no formula engine,
 * and ignoring the formula would apply its fallback figure silently) or an effect it does not
 * implement. `field` names the wire field, e.g. `discount.amount_off_formula`.
 */
export class UnsupportedDiscountError extends AppError {
  override readonly name = 'UnsupportedDiscountError';

  constructor(field: string, resourceId: string) {
    super(400, 'bad_request', {
      message: 'Discount not supported',
      details: `The discount of ${resourceId} uses ${field}, which this service cannot evaluate`,
      resourceId,
    });
  }
}

/** A code that cannot do what was asked (Voucherify's `invalid_voucher`), e.g. a non-referral code sent as a referral. */
export class InvalidVoucherError extends AppError {
  override readonly name = 'InvalidVoucherError';

  constructor(code: string, details: string) {
    super(400, 'invalid_voucher', { message: 'Invalid Voucher', details, resourceId: code, resourceType: 'voucher' });
  }
}

/** A referrer converting their own referral code (Voucherify's `referrer_not_permitted_to_redeem`). */
export class ReferrerNotPermittedError extends AppError {
  override readonly name = 'ReferrerNotPermittedError';

  constructor(code: string) {
    super(400, 'referrer_not_permitted_to_redeem', {
      message: 'voucher cannot be redeemed by referrer',
      details: `The customer is the referrer of referral code ${code} and cannot convert it`,
      resourceId: code,
      resourceType: 'voucher',
    });
  }
}

/**
 * A dependency (DynamoDB, after the SDK's bounded retries) is throttling, failing or unreachable.
 * The request may be retried as it is; with an Idempotency-Key it is safe to.
 */
export class ServiceUnavailableError extends AppError {
  override readonly name = 'ServiceUnavailableError';

  constructor(details: string, retryAfterSeconds: number, cause?: unknown) {
    super(503, 'service_unavailable', {
      message: 'Service unavailable',
      details,
      headers: { 'Retry-After': String(retryAfterSeconds) },
      cause,
    });
  }
}

/** Another request with the same Idempotency-Key is still being carried out. */
export class IdempotencyKeyInUseError extends AppError {
  override readonly name = 'IdempotencyKeyInUseError';

  constructor(key: string, retryAfterSeconds: number) {
    super(409, 'idempotency_key_in_use', {
      message: 'Idempotency key in use',
      details: `A request with the Idempotency-Key ${key} is still in progress; retry after it completes`,
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  }
}

/** The project used up its request budget for the current window. */
export class TooManyRequestsError extends AppError {
  override readonly name = 'TooManyRequestsError';

  constructor(limit: number, windowSeconds: number, headers: Record<string, string>) {
    super(429, 'too_many_requests', {
      message: 'Too many requests',
      details: `The project may send ${limit} requests per ${windowSeconds} s; wait for the next window`,
      headers,
    });
  }
}

/** Why the commit of a redemption refused a redeemable (the reference's keys). */
export type RedemptionRefusalKey =
  | 'quantity_exceeded'
  | 'gift_amount_exceeded'
  | 'voucher_disabled'
  | 'campaign_not_active'
  | 'resource_not_found'
  | 'order_changed';

const REFUSAL_STATUS: Record<RedemptionRefusalKey, number> = {
  quantity_exceeded: 400,
  gift_amount_exceeded: 400,
  voucher_disabled: 400,
  campaign_not_active: 400,
  resource_not_found: 404,
  order_changed: 409,
};

const REFUSAL_DETAILS: Record<RedemptionRefusalKey, string> = {
  quantity_exceeded: 'has no redemption left',
  gift_amount_exceeded: 'has a balance too small for the credits asked',
  voucher_disabled: 'is disabled',
  campaign_not_active: 'belongs to a campaign that is disabled',
  resource_not_found: 'no longer exists',
  order_changed: 'changed since it was read; validate it again',
};

/**
 * The commit of a redemption lost a race (lib/redemptions/redemption.repo.ts): a redeemable's
 * condition failed at commit time, so nothing was written. `redeemable` names the one that failed
 * (`object` 'order' for the order).
 */
export class RedemptionRefusedError extends AppError {
  override readonly name = 'RedemptionRefusedError';
  readonly redeemable: { object: 'voucher' | 'promotion_tier' | 'order'; id: string };

  constructor(key: RedemptionRefusalKey, redeemable: { object: 'voucher' | 'promotion_tier' | 'order'; id: string }) {
    super(REFUSAL_STATUS[key], key, {
      message: 'Redemption refused',
      details: `The ${redeemable.object} ${redeemable.id} ${REFUSAL_DETAILS[key]}`,
      resourceId: redeemable.id,
      resourceType: redeemable.object,
    });
    this.redeemable = redeemable;
  }
}

/**
 * A redemption refused before anything was written: a redeemable its evaluation found INAPPLICABLE
 * (ALL mode), or none APPLICABLE (PARTIAL mode). Carries that redeemable's error object as the
 * validation reply shows it (lib/validations/redeemable-error.ts).
 */
export class RedeemableInapplicableError extends AppError {
  override readonly name = 'RedeemableInapplicableError';

  /** `ruleMessage`: the failing validation rule's own text, sent as the error object's `error.message`. */
  constructor(error: RedeemableError, ruleMessage?: string | null) {
    super(error.code, error.key, {
      message: error.message,
      details: error.details,
      resourceId: error.resource_id,
      resourceType: error.resource_type,
      ...(ruleMessage ? { errorMessage: ruleMessage } : {}),
    });
  }
}

/** A redemption that a rollback already undid (the reference's `already_rolled_back`). */
export class AlreadyRolledBackError extends AppError {
  override readonly name = 'AlreadyRolledBackError';

  constructor(redemptionId: string) {
    super(400, 'already_rolled_back', {
      message: 'Redemption already rolled back',
      details: `Redemption ${redemptionId} has already been rolled back`,
      resourceId: redemptionId,
      resourceType: 'redemption',
    });
  }
}

/** A project has one brand configuration: create-brand on a project that has one (the reference's 409 `branding_exist`). */
export class BrandingExistsError extends AppError {
  override readonly name = 'BrandingExistsError';

  constructor(brandingId: string) {
    super(409, 'branding_exist', {
      message: 'Branding exist',
      details: 'Cannot exist more than one branding for given project',
      resourceId: brandingId,
      resourceType: 'branding_details',
    });
  }
}

/** A customer added to a referral code they already hold, as referrer or referee (Voucherify's spelling of the key). */
export class HolderAssignmentDuplicationError extends AppError {
  override readonly name = 'HolderAssignmentDuplicationError';

  constructor(customerId: string, code: string) {
    super(409, 'holder_assignement_duplication', {
      message: 'Customer is already assigned to given redeemable',
      details: `Customer ${customerId} already holds ${code}`,
      resourceId: customerId,
      resourceType: 'customer',
    });
  }
}

/** Removing a redeemable's referrer (only referees can be removed). */
export class HolderRemovalForbiddenError extends AppError {
  override readonly name = 'HolderRemovalForbiddenError';

  constructor(holderId: string) {
    super(403, 'forbidden', {
      message: 'Can not remove assignment',
      details: 'You can not remove Referrer assignment',
      resourceId: holderId,
      resourceType: 'redeemable_holder',
    });
  }
}

/** A project has one set of stacking rules: create-stacking-rules on a project that has set them (the reference's 409 `stacking_rules_exist`). */
export class StackingRulesExistError extends AppError {
  override readonly name = 'StackingRulesExistError';

  constructor(stackingRulesId: string) {
    super(409, 'stacking_rules_exist', {
      message: 'Stacking rules exist',
      details: 'Cannot exist more stacking rules for given project',
      resourceId: stackingRulesId,
      resourceType: 'stacking_rules',
    });
  }
}
