/**
 * Scope values of the spec (Authentication 5), in its order, and `skus`: the spec writes `SKUs`,
 * Voucherify's reference `skus` (its security scheme and every SKU operation). Both are accepted
 * and kept as asked (a token echoes the spelling it was asked with); they grant the same thing.
 */
export const SCOPES = [
  'api',
  'client_api',
  'assets',
  'async-actions',
  'campaigns',
  'categories',
  'client_consents',
  'client_customers',
  'client_events',
  'client_promotions',
  'client_publish',
  'client_qualifications',
  'client_redeem',
  'client_redemptions',
  'client_validate',
  'client_validations',
  'client_vouchers',
  'consents',
  'customers',
  'events',
  'exports',
  'locations',
  'loyalties',
  'metadata-schemas',
  'orders',
  'product-collections',
  'products',
  'promotions',
  'publications',
  'qualifications',
  'redemptions',
  'referrals',
  'rewards',
  'segments',
  'SKUs',
  'skus',
  'task-results',
  'templates',
  'trash-bin',
  'validation-rules-assignments',
  'validation-rules',
  'validations',
  'vouchers',
] as const;

export type Scope = (typeof SCOPES)[number];

const scopeSet: ReadonlySet<string> = new Set(SCOPES);

export const isScope = (value: string): value is Scope => scopeSet.has(value);

/** One spelling per scope, for comparing grants: `skus` and `SKUs` are one scope. */
const canonical = (scope: Scope): string => (scope === 'skus' ? 'SKUs' : scope);

/** Whether two scope values grant the same thing. */
export const sameScope = (a: Scope, b: Scope): boolean => canonical(a) === canonical(b);

/** Client-side scopes are covered by `client_api`; every other resource scope by `api`. */
export const isClientScope = (scope: Scope): boolean => scope.startsWith('client_');

/** What an endpoint asks of its caller: which API side it belongs to and its resource scopes. */
export interface ScopeRequirement {
  side: 'server' | 'client';
  scopes: readonly Scope[];
}

/**
 * Whether a grant (a token's scopes, or a key's permissions; `null` means unrestricted)
 * covers an endpoint: the umbrella scope of its side, or one of its resource scopes.
 */
export function grantCovers(granted: readonly Scope[] | null, need: ScopeRequirement): boolean {
  if (granted === null) return true;
  const umbrella: Scope = need.side === 'server' ? 'api' : 'client_api';
  return granted.some((g) => g === umbrella || need.scopes.some((s) => sameScope(s, g)));
}

/** Whether a key holding `permissions` may hand out a token with `scope`. */
export function permissionAllowsScope(permissions: readonly Scope[] | null, scope: Scope): boolean {
  if (permissions === null || permissions.some((p) => sameScope(p, scope))) return true;
  if (scope === 'api' || scope === 'client_api') return false;
  return permissions.includes(isClientScope(scope) ? 'client_api' : 'api');
}

export interface ScopeParseResult {
  scopes: Scope[];
  invalid: string[];
}

/**
 * Splits a space-delimited scope string. A comma anywhere makes the whole value invalid (the
 * spec forbids comma separators), and every unknown value is reported back.
 */
export function parseScopeString(raw: string): ScopeParseResult {
  const parts = raw.split(' ').filter((p) => p.length > 0);
  const scopes: Scope[] = [];
  const invalid: string[] = [];
  for (const part of parts) {
    if (!part.includes(',') && isScope(part)) {
      if (!scopes.includes(part)) scopes.push(part);
    } else invalid.push(part);
  }
  return { scopes, invalid };
}
