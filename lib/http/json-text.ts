/**
 * A key that cannot stay data: wherever input is copied key by key (zod records, spreads,
 * `obj[key] = value`), `__proto__` replaces the copy's prototype instead of adding a field, so the
 * value would be lost or, worse, inherited by lookups. Refused at the edge instead of dropped.
 */
export const FORBIDDEN_KEY = '__proto__';

export class ForbiddenKeyError extends Error {
  override readonly name = 'ForbiddenKeyError';

  constructor() {
    super(`${FORBIDDEN_KEY} is not accepted as a property name`);
  }
}

// A reviver slows JSON.parse down; only text that could spell the key (directly or with \u escapes) pays for it.
const MAY_HOLD_FORBIDDEN_KEY = /__proto__|\\u/;

/**
 * JSON.parse that refuses FORBIDDEN_KEY at any depth.
 * @throws SyntaxError on malformed text; ForbiddenKeyError when an object has the key.
 */
export function parseJsonText(text: string): unknown {
  if (!MAY_HOLD_FORBIDDEN_KEY.test(text)) return JSON.parse(text) as unknown;
  return JSON.parse(text, (key, value: unknown) => {
    if (key === FORBIDDEN_KEY) throw new ForbiddenKeyError();
    return value;
  }) as unknown;
}
