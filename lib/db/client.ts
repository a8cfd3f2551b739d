import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { silentSdkLogger } from '../sdk-logger.js';

export interface DynamoOptions {
  region: string;
  /** Local engine address; absent in AWS. */
  endpoint?: string | undefined;
  /** Time to open a connection before the attempt fails (and is retried). */
  connectionTimeoutMs?: number;
  /** Time for one attempt's reply before it fails (and is retried). */
  requestTimeoutMs?: number;
  /** Attempts per call, the first included. */
  maxAttempts?: number;
}

/**
 * Bounds of one DynamoDB call in AWS. API functions time out after 10 s (infra/config.ts) and a
 * request makes a few calls in series, so one call gives up after at most
 * 3 attempts x (1 s connect | 2 s reply) + the standard strategy's jittered backoff (≤ 0.3 s
 * between attempts, ≤ 1.5 s after throttling): the caller gets a 503 error object, never a
 * Lambda timeout. DynamoDB answers in milliseconds; a 2 s silence is a fault, not a slow reply.
 */
export const AWS_DYNAMO_LIMITS = { connectionTimeoutMs: 1_000, requestTimeoutMs: 2_000, maxAttempts: 3 } as const;
/**
 * The local engines share a laptop's (or CI's) few cores with the test runner; a 100-item
 * transaction on DynamoDB Local can take seconds there, so replies get more time before they are
 * abandoned and retried.
 */
export const LOCAL_DYNAMO_LIMITS = { connectionTimeoutMs: 2_000, requestTimeoutMs: 20_000, maxAttempts: 3 } as const;

/**
 * Bare client + document wrapper, with bounded timeouts and the SDK's standard retry strategy
 * (exponential backoff with full jitter, a retry-token bucket, bounded attempts). Local engines
 * accept any credentials, so a fixed pair is supplied there to keep a developer's real AWS profile
 * out of the loop.
 */
export function createDocumentClient(options: DynamoOptions): DynamoDBDocumentClient {
  const limits = options.endpoint ? LOCAL_DYNAMO_LIMITS : AWS_DYNAMO_LIMITS;
  const client = new DynamoDBClient({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    retryMode: 'standard',
    logger: silentSdkLogger,
    maxAttempts: options.maxAttempts ?? limits.maxAttempts,
    requestHandler: {
      connectionTimeout: options.connectionTimeoutMs ?? limits.connectionTimeoutMs,
      requestTimeout: options.requestTimeoutMs ?? limits.requestTimeoutMs,
      throwOnRequestTimeout: true,
    },
  });
  return DynamoDBDocumentClient.from(client, {
    // Client maps (metadata, schema properties) may have a key named `constructor`; the marshaller
    // tells plain objects from class instances by `constructor.name`, and would refuse such a map.
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: true },
  });
}

/** Error names the AWS SDKs use for throttling (the SDK's own retry classification, plus DynamoDB's). */
const THROTTLING = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'Throttling',
  'RequestLimitExceeded',
  'LimitExceededException',
  'TooManyRequestsException',
  'RequestThrottled',
  'RequestThrottledException',
  'SlowDown',
  'TransactionInProgressException',
]);
/** Cancellation reasons of a transaction that mean "try again later", not "your conditions failed". */
const THROTTLED_CANCELLATIONS = new Set(['ThrottlingError', 'ProvisionedThroughputExceeded', 'RequestLimitExceeded']);
/** Socket errors of an unreachable or vanished endpoint. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED']);

interface SdkErrorShape {
  name?: unknown;
  code?: unknown;
  errors?: unknown;
  $fault?: unknown;
  $retryable?: unknown;
  $metadata?: { httpStatusCode?: unknown };
}

function networkCodeOf(error: SdkErrorShape): string | undefined {
  if (typeof error.code === 'string' && NETWORK_CODES.has(error.code)) return error.code;
  // Node's happy-eyeballs connect reports each address's failure inside an AggregateError.
  if (Array.isArray(error.errors)) {
    for (const inner of error.errors as SdkErrorShape[]) if (typeof inner?.code === 'string' && NETWORK_CODES.has(inner.code)) return inner.code;
  }
  return undefined;
}

/** Why a dependency call failed for reasons of the dependency, and when to try again. */
export interface DependencyFault {
  kind: 'throttled' | 'unavailable';
  /** What the log gets: the SDK's error name or socket code, never a message (it may quote a key). */
  cause: string;
  retryAfterSeconds: number;
}

/**
 * Classifies an error that escaped the SDK's retries: throttling, a server-side fault (5xx), a
 * timeout or an unreachable endpoint is a DependencyFault (the API answers 503 and the caller may
 * retry); anything else (a failed condition, a validation error: our bug) is null.
 */
export function dependencyFaultOf(error: unknown): DependencyFault | null {
  if (!(error instanceof Error)) return null;
  const e = error as Error & SdkErrorShape;
  if (error instanceof TransactionCanceledException) {
    const throttled = (error.CancellationReasons ?? []).find((r) => THROTTLED_CANCELLATIONS.has(r.Code ?? ''));
    return throttled ? { kind: 'throttled', cause: `TransactionCanceled:${throttled.Code}`, retryAfterSeconds: 1 } : null;
  }
  if (THROTTLING.has(error.name)) return { kind: 'throttled', cause: error.name, retryAfterSeconds: 1 };
  const network = networkCodeOf(e);
  if (network) return { kind: 'unavailable', cause: network, retryAfterSeconds: 5 };
  if (error.name === 'TimeoutError' || error.name === 'RequestTimeout' || error.name === 'RequestTimeoutException') {
    return { kind: 'unavailable', cause: error.name, retryAfterSeconds: 5 };
  }
  const status = e.$metadata?.httpStatusCode;
  if (e.$fault === 'server' || (typeof status === 'number' && status >= 500)) return { kind: 'unavailable', cause: error.name, retryAfterSeconds: 5 };
  return null;
}
