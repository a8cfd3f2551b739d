import * as z from '../zod.js';
import { type AppError, BadRequestError, InvalidPayloadError, InvalidQueryParamsError } from '../errors.js';

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

/**
 * Validates one part of a request against its schema.
 * @throws AppError (400) with the key that fits the source: invalid_query_params,
 *   missing_parameters (form bodies, as the spec's introspection) or invalid_payload.
 */
export function validate<S extends z.core.$ZodType>(schema: S, value: unknown, source: InputSource): z.output<S> {
  const result = z.safeParse(schema, value);
  if (!result.success) throw errorFor(source, result.error.issues);
  return result.data;
}
