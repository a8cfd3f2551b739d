import { describe, expect, it } from 'vitest';
import { type CaseHints, queryString, requestCases, type RequestCase } from '../../../scripts/compatibility/request-cases.js';
import type { Outcome, RequestCheckResult } from '../../../scripts/compatibility/request-check.js';
import { covers, parseExceptions } from '../../../scripts/compatibility/request-exceptions.js';
import { judge } from '../../../scripts/compatibility/request-report.js';
import type { RequestSnapshot } from '../../../scripts/compatibility/request-snapshot.js';
import type { Json } from '../../../scripts/compatibility/schema-fields.js';

/** A reference in miniature: a oneOf body whose branches share a base through allOf and $ref. */
const snapshot: RequestSnapshot = {
  source: 'test',
  scopes: ['api'],
  schemas: {
    Base: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        active: { type: 'boolean' },
        days: { type: 'array', items: { type: 'integer', enum: [0, 1, 2] } },
        tags: { type: 'array', items: { type: 'string' } },
        limit: { type: 'integer', minimum: 5, maximum: 9 },
        starts: { type: 'string', format: 'date-time' },
      },
      required: ['name'],
    },
    Coupon: {
      allOf: [
        { $ref: '#/components/schemas/Base' },
        { type: 'object', properties: { kind: { type: 'string', enum: ['COUPON'] }, off: { type: 'number' } }, required: ['off'] },
      ],
    },
    Gift: {
      allOf: [
        { $ref: '#/components/schemas/Base' },
        { type: 'object', properties: { kind: { type: 'string', enum: ['GIFT'] }, amount: { type: 'integer', example: 500 } } },
      ],
    },
  },
  operations: {
    'create-thing': {
      reference: { operationId: 'create-thing', method: 'POST', path: '/things' },
      path: [],
      query: [
        { name: 'filters', required: false, style: 'deepObject', schema: { type: 'object', properties: { status: { type: 'string', enum: ['A', 'B'] } } } },
      ],
      body: { contentType: 'application/json', schema: { oneOf: [{ $ref: '#/components/schemas/Coupon' }, { $ref: '#/components/schemas/Gift' }] } },
    },
  },
};

/** What the runner hands the together request: the first value each field was accepted with. */
function firstAccepted(cases: RequestCase[], accepted: (c: RequestCase) => boolean = () => true): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const c of cases) if (c.kind === 'field' && c.scope && accepted(c) && !out.has(c.scope)) out.set(c.scope, c.value);
  return out;
}

const fieldsOf = (cases: RequestCase[]) => cases.filter((c) => c.kind === 'field').map((c) => `${c.location}.${c.field}=${JSON.stringify(c.value)}`);

describe('request cases built from the reference', () => {
  it('makes one selection per oneOf branch, labelled by its discriminator, and always sends the discriminator', () => {
    const groups = requestCases(snapshot);
    expect(groups.map((g) => g.variant)).toEqual(['body: kind=COUPON (1/2)', 'body: kind=GIFT (2/2)']);
    expect(groups[0]?.required.body).toEqual({ name: 'compat', kind: 'COUPON', off: 1 });
    expect(groups[1]?.required.body).toEqual({ name: 'compat', kind: 'GIFT' });
  });

  it('tries every field alone, each enum value once (an enum array all at once), both booleans, bounds, formats and examples', () => {
    const [coupon, gift] = requestCases(snapshot);
    expect(fieldsOf(coupon?.fields ?? [])).toEqual([
      'query.filters.status="A"',
      'query.filters.status="B"',
      'body.name="compat"',
      'body.active=true',
      'body.active=false',
      'body.days=[0,1,2]',
      'body.days=[]',
      'body.tags=["compat"]',
      'body.tags=[]',
      'body.limit=5',
      'body.starts="2030-01-01T00:00:00.000Z"',
      'body.kind="COUPON"',
      'body.off=1',
    ]);
    // The second branch tries its own fields, and the shared ones again (a oneOf above them chose otherwise).
    expect(fieldsOf(gift?.fields ?? [])).toContain('body.amount=500');
    expect(fieldsOf(gift?.fields ?? [])).toContain('body.active=false');
    const days = coupon?.fields.find((c) => c.field === 'days' && Array.isArray(c.value) && c.value.length > 0);
    expect(days?.body).toEqual({ name: 'compat', kind: 'COUPON', off: 1, days: [0, 1, 2] });
  });

  it('applies hints: placeholders, unique strings, required fields (also tried absent), companions and exclusive groups', () => {
    const hints: Record<string, CaseHints> = {
      'create-thing': {
        values: { 'body.starts': '$seed.start' },
        unique: ['body.name'],
        required: ['body.active'],
        companions: { 'body.limit': ['body.starts'] },
        exclusive: [['body.tags', 'body.days']],
      },
    };
    const [coupon] = requestCases(snapshot, hints);
    expect(coupon?.required.body).toEqual({ name: expect.stringMatching(/^compat-name-\d+$/), active: true, kind: 'COUPON', off: 1 });
    const without = coupon?.fields.find((c) => c.kind === 'without');
    expect(without).toMatchObject({ field: 'active', body: { name: expect.stringMatching(/^compat-name-\d+$/), kind: 'COUPON', off: 1 } });
    expect(without?.body).not.toHaveProperty('active');
    expect(coupon?.fields.find((c) => c.field === 'limit')?.body).toMatchObject({ limit: 5, starts: '$seed.start' });
    const names = new Set(coupon?.fields.map((c) => (c.body as { name: string }).name));
    expect(names.size).toBe(coupon?.fields.length);
    const together = coupon?.together(firstAccepted(coupon.fields)).body as Record<string, unknown>;
    expect(together).not.toHaveProperty('days');
    expect(together.tags).toEqual(['compat']);
  });

  it('leaves out of the together request what was never accepted, and keeps values accepted alone', () => {
    const [coupon] = requestCases(snapshot);
    const together = coupon?.together(firstAccepted(coupon.fields, (c) => c.field !== 'limit'));
    expect(together?.body).toEqual({
      name: 'compat',
      active: true,
      days: [0, 1, 2],
      tags: ['compat'],
      starts: '2030-01-01T00:00:00.000Z',
      kind: 'COUPON',
      off: 1,
    });
    expect(together?.query).toEqual({ filters: { status: 'A' } });
  });

  it('writes query objects deepObject style, arrays with indexes, and an empty object as an empty value', () => {
    expect(queryString({ filters: { campaigns: { conditions: { $in: ['a', 'b'], $has_value: '' } }, status: { $active: {} } }, limit: 5 })).toBe(
      'filters[campaigns][conditions][$in][0]=a&filters[campaigns][conditions][$in][1]=b&filters[campaigns][conditions][$has_value]=&filters[status][$active]=&limit=5',
    );
    expect(queryString({ expand: ['category'] })).toBe('expand=category');
  });
});

const outcome = (o: Partial<Outcome>): Outcome => ({
  operationId: 'create-thing',
  kind: 'field',
  variant: 'body: kind=GIFT (2/2)',
  location: 'body',
  field: 'tags',
  value: '["x"]',
  verdict: 'refused',
  status: 400,
  key: 'invalid_payload',
  details: 'no',
  ...o,
});

describe('the exceptions table of docs/decisions.md', () => {
  const table = [
    '<!-- request-exceptions:start -->',
    '| Operation | Selection | Field | Value | Why |',
    '|---|---|---|---|---|',
    '| create-thing | * | `body.tags` | * | Tags are not kept, and a \\| in a reason is fine |',
    '| create-thing | `kind=GIFT` | `(request)` | * | Gifts are not built |',
    '| create-thing | * | `body.name` | `(absent)` | A thing needs a name |',
    '| create-thing | * | `body.active` | `false` | Things are always active |',
    '| create-thing | * | `body.tags.*` | `(absent)` | Tags need their parts |',
    '| create-thing | * | `body.off` | * | Never refused: an unused row |',
    '<!-- request-exceptions:end -->',
  ].join('\n');

  it('parses the rows between the markers, escaped pipes included', () => {
    const rows = parseExceptions(`# Decisions\n\ntext\n${table}\nmore`);
    expect(rows.map((r) => [r.operationId, r.selection, r.field, r.value])).toEqual([
      ['create-thing', '*', 'body.tags', '*'],
      ['create-thing', 'kind=GIFT', '(request)', '*'],
      ['create-thing', '*', 'body.name', '(absent)'],
      ['create-thing', '*', 'body.active', 'false'],
      ['create-thing', '*', 'body.tags.*', '(absent)'],
      ['create-thing', '*', 'body.off', '*'],
    ]);
    expect(rows[0]?.why).toBe('Tags are not kept, and a | in a reason is fine');
    expect(() => parseExceptions('no table')).toThrow(/request-exceptions:start/);
  });

  it('names a field and what lies under it, a value, an absent field, and a whole request of a selection', () => {
    const [tags, gifts, name, inactive, parts] = parseExceptions(table);
    expect(tags && covers(tags, outcome({ field: 'tags[]' }))).toBe(true);
    expect(tags && covers(tags, outcome({ field: 'tagsets' }))).toBe(false);
    expect(gifts && covers(gifts, outcome({ kind: 'together', field: null, location: null }))).toBe(true);
    expect(gifts && covers(gifts, outcome({ kind: 'required', variant: 'body: kind=COUPON (1/2)', field: null, location: null }))).toBe(false);
    expect(name && covers(name, outcome({ kind: 'without', field: 'name', value: null }))).toBe(true);
    // An (absent) row names that field only; `.*` names what lies under it.
    expect(name && covers(name, outcome({ kind: 'without', field: 'name.first', value: null }))).toBe(false);
    expect(parts && covers(parts, outcome({ kind: 'without', field: 'tags.first', value: null }))).toBe(true);
    expect(parts && covers(parts, outcome({ kind: 'without', field: 'tags', value: null }))).toBe(false);
    expect(inactive && covers(inactive, outcome({ field: 'active', value: 'false' }))).toBe(true);
    expect(inactive && covers(inactive, outcome({ field: 'active', value: 'true' }))).toBe(false);
  });

  it('fails a refusal no row names, a row that names no refusal, and any 5xx', () => {
    const result: RequestCheckResult = {
      outcomes: [
        outcome({}),
        outcome({ field: 'active', value: 'true' }),
        outcome({ verdict: 'error', status: 500, field: 'limit' }),
        outcome({ verdict: 'accepted', status: 200, field: 'off' }),
      ],
      requests: { 'create-thing': 4 },
      durations: {},
      durationMs: 0,
    };
    const verdicts = judge(result, parseExceptions(table));
    expect(verdicts.documented.map((d) => d.outcome.field)).toEqual(['tags']);
    expect(verdicts.undocumented.map((o) => `${o.field}=${o.value}`)).toEqual(['active=true']);
    expect(verdicts.errors.map((o) => o.field)).toEqual(['limit']);
    expect(verdicts.unused.map((e) => e.field)).toEqual(['(request)', 'body.name', 'body.active', 'body.tags.*', 'body.off']);
  });
});
