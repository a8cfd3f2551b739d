import { describe, expect, it } from 'vitest';
import { grantCovers, parseScopeString, permissionAllowsScope } from '../../../lib/auth/scopes.js';
import { resolveTokenScopes } from '../../../lib/oauth/oauth.service.js';

describe('scopes', () => {
  it('splits on spaces, drops repeats and reports commas and unknown values as invalid', () => {
    expect(parseScopeString('vouchers  campaigns vouchers')).toEqual({ scopes: ['vouchers', 'campaigns'], invalid: [] });
    expect(parseScopeString('vouchers,campaigns api')).toEqual({ scopes: ['api'], invalid: ['vouchers,campaigns'] });
    expect(parseScopeString('SKUs skus')).toEqual({ scopes: ['SKUs', 'skus'], invalid: [] });
  });

  it("takes the reference's `skus` and the spec's `SKUs` as one scope, each kept as spelled", () => {
    expect(parseScopeString('skus')).toEqual({ scopes: ['skus'], invalid: [] });
    expect(grantCovers(['skus'], { side: 'server', scopes: ['SKUs'] })).toBe(true);
    expect(grantCovers(['SKUs'], { side: 'server', scopes: ['skus'] })).toBe(true);
    expect(permissionAllowsScope(['SKUs'], 'skus')).toBe(true);
    expect(permissionAllowsScope(['skus'], 'SKUs')).toBe(true);
    expect(resolveTokenScopes('skus', ['SKUs'])).toEqual(['skus']);
    expect(resolveTokenScopes('SKUs', null)).toEqual(['SKUs']);
  });

  it('lets api cover every server-side endpoint and client_api every client-side one', () => {
    const vouchers = { side: 'server', scopes: ['vouchers'] } as const;
    expect(grantCovers(['api'], vouchers)).toBe(true);
    expect(grantCovers(['client_api'], vouchers)).toBe(false);
    expect(grantCovers(['vouchers'], vouchers)).toBe(true);
    expect(grantCovers(['campaigns'], vouchers)).toBe(false);
    expect(grantCovers(null, vouchers)).toBe(true);
    expect(grantCovers(['client_api'], { side: 'client', scopes: ['client_vouchers'] })).toBe(true);
  });

  it('lets a key hand out only scopes within its permissions', () => {
    expect(permissionAllowsScope(null, 'api')).toBe(true);
    expect(permissionAllowsScope(['api'], 'vouchers')).toBe(true);
    expect(permissionAllowsScope(['api'], 'client_vouchers')).toBe(false);
    expect(permissionAllowsScope(['vouchers'], 'api')).toBe(false);
    expect(permissionAllowsScope(['client_api'], 'client_redeem')).toBe(true);
  });

  it("defaults a token to api, or to the key's own permissions when it lacks api", () => {
    expect(resolveTokenScopes(undefined, null)).toEqual(['api']);
    expect(resolveTokenScopes('', ['vouchers', 'campaigns'])).toEqual(['vouchers', 'campaigns']);
    expect(() => resolveTokenScopes('api', ['vouchers'])).toThrow('Invalid scope: api');
  });
});
