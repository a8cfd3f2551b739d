import type { RouteDef } from '../api/route.js';

/** What matching reads of a route: its method and path template. */
export type RoutePath = Pick<RouteDef, 'method' | 'path'>;

export interface RouteMatch<R extends RoutePath = RouteDef> {
  route: R;
  /** Decoded path parameters, as API Gateway passes them. */
  params: Record<string, string>;
}

/** Matches a concrete path against a template such as `/v1/vouchers/{code}`; segments are decoded. */
export function matchPath(template: string, path: string): Record<string, string> | null {
  const want = template.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i += 1) {
    const w = want[i] ?? '';
    const g = got[i] ?? '';
    const name = /^\{(\w+)\}$/.exec(w)?.[1];
    if (name) {
      if (g === '') return null;
      try {
        params[name] = decodeURIComponent(g);
      } catch {
        return null;
      }
    } else if (w !== g) return null;
  }
  return params;
}

/** Path segments of a template that are literal (not `{param}`): the more, the more specific. */
const literalSegments = (template: string): number => template.split('/').filter((s) => !/^\{\w+\}$/.test(s)).length;

/**
 * The route for a method and path, or the methods the path does support (for a 405). Where two
 * templates match (`/v1/vouchers/import` and `/v1/vouchers/{code}`), the one with more literal
 * segments wins, as API Gateway picks the most specific route.
 */
export function findRoute<R extends RoutePath>(routes: readonly R[], method: string, path: string): { match: RouteMatch<R> } | { allowed: string[] } {
  const allowed: string[] = [];
  let best: RouteMatch<R> | null = null;
  for (const route of routes) {
    const params = matchPath(route.path, path);
    if (!params) continue;
    if (route.method !== method.toUpperCase()) {
      allowed.push(route.method);
      continue;
    }
    if (!best || literalSegments(route.path) > literalSegments(best.route.path)) best = { route, params };
  }
  return best ? { match: best } : { allowed };
}
