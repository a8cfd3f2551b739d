import * as z from '../zod.js';
import { type AppError, BadRequestError, InvalidPayloadError, InvalidQueryParamsError } from '../errors.js';
import { type Ignorable, ignorableKeys, withoutKeys } from './lenient.js';

/** Where a value came from decides the error key the spec and Voucherify use for it. */
export type InputSource = 'params' | 'query' | 'json' | 'form';

/** `Property .a.b <problem>`, the phrasing of Voucherify's `details`. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.length > 0 ? `.${issue.path.map(String).join('.')}` : '';
      return `Property ${path || '(root)'} ${issue.message}`;
    })
    .join('; ');
}

function missingNames(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.filter((issue) => issue.code === 'invalid_type' && issue.input === undefined).map((issue) => issue.path.map(String).join('.'));
}

function errorFor(source: InputSource, issues: readonly z.core.$ZodIssue[]): AppError {
  const details = describeIssues(issues);
  switch (source) {
    case 'query':
      return new InvalidQueryParamsError(details);
    case 'form': {
      const missing = missingNames(issues);
      return new BadRequestError('missing_parameters', missing.length > 0 ? `Missing parameters: ${missing.join(', ')}` : 'Missing parameters', details);
    }
    default:
      return new InvalidPayloadError(details);
  }
}

/** How many times a request is read again without what it may drop: one per level of nested unions that each hid keys. */
const MAX_REREADS = 4;

/**
 * Validates one part of a request against its schema. Keys the schema does not know, and `null`
 * for a field it wants a value for, are dropped and the part read again (lib/http/lenient.ts);
 * `ignored` hears of each dropped key, so a typo can still be found in the logs.
 * @throws AppError (400) with the key that fits the source: invalid_query_params,
 *   missing_parameters (form bodies, as the spec's introspection) or invalid_payload.
 */
export function validate<S extends z.core.$ZodType>(
  schema: S,
  value: unknown,
  source: InputSource,
  ignored?: (keys: readonly Ignorable[]) => void,
): z.output<S> {
  let result = z.safeParse(schema, value);
  if (result.success) return result.data;
  let input = value;
  const dropped: Ignorable[] = [];
  for (let round = 0; round < MAX_REREADS && !result.success; round += 1) {
    const drops = ignorableKeys(result.error.issues, input);
    if (drops.length === 0) break;
    const next = withoutKeys(
      input,
      drops.map((d) => d.path),
    );
    if (next.removed === 0) break;
    dropped.push(...drops);
    input = next.value;
    result = z.safeParse(schema, input);
  }
  if (!result.success) throw errorFor(source, result.error.issues);
  if (dropped.length > 0) ignored?.(dropped);
  return result.data;
}
