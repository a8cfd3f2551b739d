import { dependencyFaultOf } from '../db/client.js';
import { AppError, type ErrorKey, ServiceUnavailableError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { HttpReply } from './reply.js';
import { showLoneSurrogates } from './unicode.js';

/** The spec's error object. */
export interface ErrorBody {
  code: number;
  key: ErrorKey;
  message: string;
  details?: string;
  request_id: string;
  resource_id?: string;
  resource_type?: string;
  error?: { message: string };
}

/**
 * Turns anything thrown into the error reply. AppErrors are the caller's fault and are shown
 * as they are. A dependency that throttles, fails or cannot be reached once the SDK's retries are
 * spent is a 503 with `Retry-After` (the request may be sent again). Anything else is ours: an
 * opaque 500 whose detail goes to the log only.
 */
export function errorReply(error: unknown, requestId: string, logger: Pick<Logger, 'error'> & Partial<Pick<Logger, 'warn'>>): HttpReply {
  const fault = dependencyFaultOf(error);
  if (fault) {
    (logger.warn ?? logger.error)('dependency fault', { request_id: requestId, fault: fault.kind, cause: fault.cause });
    const details =
      fault.kind === 'throttled'
        ? 'The data store is throttling requests; retry after the delay in Retry-After'
        : 'The data store did not answer in time; retry after the delay in Retry-After';
    return errorReply(new ServiceUnavailableError(details, fault.retryAfterSeconds, error), requestId, logger);
  }
  if (error instanceof AppError) {
    // What the caller sent may be quoted here (a path, an id); a lone surrogate in it would make the reply one strict JSON readers refuse.
    const body: ErrorBody = {
      code: error.status,
      key: error.key,
      message: showLoneSurrogates(error.message),
      ...(error.details !== undefined ? { details: showLoneSurrogates(error.details) } : {}),
      request_id: requestId,
      ...(error.resourceId !== undefined ? { resource_id: showLoneSurrogates(error.resourceId) } : {}),
      ...(error.resourceType !== undefined ? { resource_type: error.resourceType } : {}),
      ...(error.errorMessage !== undefined ? { error: { message: showLoneSurrogates(error.errorMessage) } } : {}),
    };
    return { statusCode: error.status, body, headers: error.headers };
  }
  logger.error('unhandled error', {
    request_id: requestId,
    error: error instanceof Error ? error.name : typeof error,
    detail: error instanceof Error ? error.message : String(error),
    stack: error instanceof Error ? error.stack : undefined,
  });
  const body: ErrorBody = {
    code: 500,
    key: 'internal_server_error',
    message: 'Internal server error',
    details: 'The request could not be completed; quote the request_id to support',
    request_id: requestId,
  };
  return { statusCode: 500, body };
}
