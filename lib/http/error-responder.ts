import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { HttpReply } from './reply.js';

/** The spec's error object. */
export interface ErrorBody {
  code: number;
  key: string;
  message: string;
  details?: string;
  request_id: string;
  resource_id?: string;
  resource_type?: string;
}

/**
 * Turns anything thrown into the error reply. AppErrors are the caller's fault and are shown
 * as they are; anything else is ours: an opaque 500 whose detail goes to the log only.
 */
export function errorReply(error: unknown, requestId: string, logger: Pick<Logger, 'error'>): HttpReply {
  if (error instanceof AppError) {
    const body: ErrorBody = {
      code: error.status,
      key: error.key,
      message: error.message,
      ...(error.details !== undefined ? { details: error.details } : {}),
      request_id: requestId,
      ...(error.resourceId !== undefined ? { resource_id: error.resourceId } : {}),
      ...(error.resourceType !== undefined ? { resource_type: error.resourceType } : {}),
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
