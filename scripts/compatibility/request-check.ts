/**
 * Sends the cases of `request-cases.ts` to the service and sorts the replies: accepted (2xx),
 * **refused** (400, 413, 415, 422: the service turned a documented field or value down), not found
 * (404: an id the service does not know; the seeded project makes these rare), other 4xx (409,
 * 429, …) and errors (5xx: a bug whatever the input). Placeholders are replaced by the seeded
 * resources on the way out and put back into what is reported, so the report does not change from
 * run to run.
 */
import { routes } from '../../lib/api/routes.js';
import { type CaseHints, pathParameters, queryString, type Location, type RequestCase, type VariantCases } from './request-cases.js';
import { liberalCases } from './liberal-cases.js';
import type { HttpRequest, Send, Seeds } from './request-seed.js';
import type { Json } from './schema-fields.js';

export type Verdict = 'accepted' | 'refused' | 'not_found' | 'other' | 'error';

export interface Outcome {
  operationId: string;
  kind: RequestCase['kind'];
  variant: string;
  location: Location | null;
  field: string | null;
  /** The value tried (placeholders as written), rendered as JSON. */
  value: string | null;
  verdict: Verdict;
  status: number;
  key: string | null;
  /** The error's details (or message), seeded values put back as placeholders. */
  details: string | null;
}

export interface RequestCheckResult {
  outcomes: Outcome[];
  /** Requests sent per operation. */
  requests: Record<string, number>;
  /** Milliseconds spent per operation (not reported: they vary from run to run). */
  durations: Record<string, number>;
  durationMs: number;
}

const REFUSAL_STATUSES = new Set([400, 413, 415, 422]);

function verdictOf(status: number): Verdict {
  if (status >= 200 && status < 300) return 'accepted';
  if (REFUSAL_STATUSES.has(status)) return 'refused';
  if (status === 404) return 'not_found';
  if (status >= 500) return 'error';
  return 'other';
}

/** Runs `limit` tasks at a time, in order of the list; results in the same order. */
async function pool<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await task(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** An id as lib/ids.ts makes them: a short lower-case prefix, `_`, 24 letters and digits. */
const GENERATED_ID = /\b([a-z]{1,12})_[A-Za-z0-9]{24}\b/g;

class Placeholders {
  /** Real value → placeholder, to put placeholders back into error details. */
  private readonly reverse = new Map<string, string>();
  constructor(private readonly seeds: Seeds) {
    for (const [name, value] of Object.entries(seeds.values)) if (value) this.reverse.set(value, `$seed.${name}`);
  }

  private async one(text: string): Promise<string> {
    if (text.startsWith('$seed.')) {
      const value = this.seeds.values[text.slice(6)];
      if (value === undefined) throw new Error(`No seeded value ${text}`);
      return value;
    }
    if (text.startsWith('$fresh.')) {
      const make = this.seeds.fresh[text.slice(7)];
      if (!make) throw new Error(`No maker for ${text}`);
      const value = await make();
      this.reverse.set(value, text);
      return value;
    }
    return text;
  }

  /** The value with every placeholder string replaced. */
  async fill(value: Json | undefined): Promise<Json | undefined> {
    if (typeof value === 'string') return this.one(value);
    if (Array.isArray(value)) return Promise.all(value.map(async (v) => (await this.fill(v)) ?? null));
    if (value && typeof value === 'object') {
      const out: Record<string, Json> = {};
      for (const [k, v] of Object.entries(value)) out[k] = (await this.fill(v)) ?? null;
      return out;
    }
    return value;
  }

  /**
   * Text with the seeded values put back as their placeholders, and any other id the service generated (a customer a
   * request upserted, say) replaced by its prefix: the report must read the same on every run for `--check`.
   */
  hide(text: string): string {
    let out = text;
    for (const [real, placeholder] of [...this.reverse].sort((a, b) => b[0].length - a[0].length)) out = out.split(real).join(placeholder);
    return out.replace(GENERATED_ID, '$1_<generated>');
  }
}

function pathOf(operationId: string, params: Record<string, string>): { path: string; cluster: 'api' | 'download' } {
  const route = routes.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`No route has operation id ${operationId}`);
  const path = route.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${operationId}: no value for path parameter ${name} (add it to request-hints.ts)`);
    return encodeURIComponent(value);
  });
  return { path, cluster: route.cluster };
}

/** Sends one case and sorts its reply. */
async function sendCase(send: Send, placeholders: Placeholders, pathHints: Record<string, string>, c: RequestCase): Promise<Outcome> {
  const params: Record<string, string> = {};
  for (const [name, placeholder] of Object.entries(pathHints)) params[name] = String(await placeholders.fill(placeholder));
  const { path, cluster } = pathOf(c.operationId, params);
  const query = (await placeholders.fill(c.query)) as Record<string, Json>;
  const body = await placeholders.fill(c.body);
  const qs = queryString(query);
  let text: string | undefined;
  if (body !== undefined && c.bodyType === 'application/x-www-form-urlencoded') {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(body as Record<string, Json>)) form.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    text = form.toString();
  } else if (body !== undefined) text = JSON.stringify(body);
  const request: HttpRequest = {
    cluster,
    method: routes.find((r) => r.operationId === c.operationId)?.method ?? 'GET',
    path: `${path}${c.trailingSlash ? '/' : ''}${qs ? `?${qs}` : ''}`,
    headers: text !== undefined && c.bodyType ? { 'content-type': c.bodyType } : ({} as Record<string, string>),
    ...(text !== undefined ? { body: text } : {}),
  };
  let reply = await send(request);
  // A client follows the 308 a trailing slash gets (the SDK's HTTP client does, body and all).
  const location = reply.headers.location;
  if (c.trailingSlash && reply.status === 308 && location) reply = await send({ ...request, path: location });
  const verdict = verdictOf(reply.status);
  let key: string | null = null;
  let details: string | null = null;
  if (verdict !== 'accepted' && reply.text) {
    try {
      const error = JSON.parse(reply.text) as { key?: unknown; details?: unknown; message?: unknown };
      key = typeof error.key === 'string' ? error.key : null;
      const said = typeof error.details === 'string' && error.details ? error.details : typeof error.message === 'string' ? error.message : null;
      details = said === null ? null : placeholders.hide(said);
    } catch {
      details = reply.text.slice(0, 200);
    }
  }
  return {
    operationId: c.operationId,
    kind: c.kind,
    variant: c.variant,
    location: c.location,
    field: c.field,
    value: c.kind === 'field' ? JSON.stringify(c.value) : c.kind === 'null_field' ? 'null' : null,
    verdict,
    status: reply.status,
    key,
    details,
  };
}

/**
 * Sends every case: per oneOf selection the required-only request, then each field's requests
 * (`concurrency` at a time, or the operation's hint), then every field at once with a value it was
 * accepted with alone.
 */
export async function runRequestCheck(
  send: Send,
  seeds: Seeds,
  groups: readonly VariantCases[],
  hints: Record<string, CaseHints>,
  concurrency = 8,
): Promise<RequestCheckResult> {
  const started = Date.now();
  const placeholders = new Placeholders(seeds);
  const outcomes: Outcome[] = [];
  const requests: Record<string, number> = {};
  // Per operation: the first value each field was accepted with alone, by the field's scope (its place and the branches above it).
  const accepted = new Map<string, Map<string, Json>>();
  const durations: Record<string, number> = {};
  // Reads first, while the project holds only the seeded resources (a filtered list reads every campaign
  // of the project); results stay in the groups' order.
  const methodOf = (id: string): string => routes.find((r) => r.operationId === id)?.method ?? 'GET';
  const order = groups
    .map((g, i) => ({ g, i }))
    .sort((a, b) => Number(methodOf(a.g.operationId) !== 'GET') - Number(methodOf(b.g.operationId) !== 'GET') || a.i - b.i);
  const byGroup: Outcome[][] = new Array(groups.length);
  const slashed = new Set<string>();
  for (const { g: group, i: index } of order) {
    const groupStarted = Date.now();
    const path = pathParameters(hints[group.operationId], group.variant);
    const run = (c: RequestCase): Promise<Outcome> => {
      requests[c.operationId] = (requests[c.operationId] ?? 0) + 1;
      return sendCase(send, placeholders, path, c);
    };
    const required = await run(group.required);
    const fields = await pool(group.fields, hints[group.operationId]?.concurrency ?? concurrency, run);
    // A field refused for the reason the required-only request was refused says nothing about the field.
    const own = fields.filter((f) => !(required.verdict === 'refused' && f.verdict === 'refused' && f.key === required.key && f.details === required.details));
    const values = accepted.get(group.operationId) ?? new Map<string, Json>();
    accepted.set(group.operationId, values);
    group.fields.forEach((c, i) => {
      if (c.kind === 'field' && c.scope !== null && fields[i]?.verdict === 'accepted' && !values.has(c.scope)) values.set(c.scope, c.value);
    });
    const together = await run(group.together(values));
    // The liberal reader's variants of what was accepted (liberal-cases.ts); the trailing slash once per operation.
    const acceptedFields = group.fields.filter((c, i) => c.kind === 'field' && fields[i]?.verdict === 'accepted');
    const withSlash = required.verdict === 'accepted' && !slashed.has(group.operationId);
    if (withSlash) slashed.add(group.operationId);
    const liberal =
      required.verdict === 'accepted'
        ? await pool(liberalCases(group.required, acceptedFields, withSlash), hints[group.operationId]?.concurrency ?? concurrency, run)
        : [];
    byGroup[index] = [required, ...own, together, ...liberal];
    durations[group.operationId] = (durations[group.operationId] ?? 0) + Date.now() - groupStarted;
  }
  outcomes.push(...byGroup.flat());
  const sorted = Object.fromEntries(Object.entries(requests).sort(([a], [b]) => (a < b ? -1 : 1)));
  return { outcomes, requests: sorted, durations, durationMs: Date.now() - started };
}
