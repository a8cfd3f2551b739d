import {
  ConditionalCheckFailedException,
  InternalServerError,
  ProvisionedThroughputExceededException,
  RequestLimitExceeded,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { dependencyFaultOf } from '../../../lib/db/client.js';
import { errorReply } from '../../../lib/http/error-responder.js';
import { silentLogger } from '../../../lib/logger.js';

const meta = { $metadata: {} };
const canceled = (codes: string[]) =>
  new TransactionCanceledException({ ...meta, message: 'Transaction cancelled', CancellationReasons: codes.map((Code) => ({ Code })) });
const withCode = (code: string) => Object.assign(new Error(`connect ${code}`), { code });

describe('dependencyFaultOf', () => {
  it('classifies DynamoDB throttling, including a transaction cancelled for throttling, as throttled (retry after 1 s)', () => {
    for (const error of [
      new ProvisionedThroughputExceededException({ ...meta, message: 'x' }),
      new RequestLimitExceeded({ ...meta, message: 'x' }),
      Object.assign(new Error('x'), { name: 'ThrottlingException' }),
      canceled(['None', 'ThrottlingError']),
    ]) {
      expect(dependencyFaultOf(error), error.name).toMatchObject({ kind: 'throttled', retryAfterSeconds: 1 });
    }
  });

  it('classifies 5xx, timeouts and socket failures as unavailable (retry after 5 s)', () => {
    const aggregate = Object.assign(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], 'connect failed'), { code: undefined });
    for (const error of [
      new InternalServerError({ ...meta, message: 'x' }),
      withCode('ECONNREFUSED'),
      withCode('ECONNRESET'),
      aggregate,
      Object.assign(new Error('timed out'), { name: 'TimeoutError' }),
      Object.assign(new Error('bad gateway'), { $metadata: { httpStatusCode: 502 } }),
    ]) {
      expect(dependencyFaultOf(error), error.message).toMatchObject({ kind: 'unavailable', retryAfterSeconds: 5 });
    }
  });

  it('leaves failed conditions, cancelled transactions with failed conditions and plain bugs alone', () => {
    expect(dependencyFaultOf(new ConditionalCheckFailedException({ ...meta, message: 'x' }))).toBeNull();
    expect(dependencyFaultOf(canceled(['ConditionalCheckFailed', 'None']))).toBeNull();
    expect(dependencyFaultOf(new TypeError('undefined is not a function'))).toBeNull();
    expect(dependencyFaultOf(Object.assign(new Error('ValidationException'), { $fault: 'client', $metadata: { httpStatusCode: 400 } }))).toBeNull();
    expect(dependencyFaultOf('a string')).toBeNull();
  });
});

describe('errorReply for dependency faults', () => {
  it('writes 503 service_unavailable with Retry-After and logs the cause as a warning, never the message', () => {
    const warned: string[] = [];
    const reply = errorReply(new ProvisionedThroughputExceededException({ ...meta, message: 'table secret-name' }), 'v-1', {
      ...silentLogger,
      warn: (m, f) => warned.push(`${m} ${JSON.stringify(f)}`),
    });
    expect(reply.statusCode).toBe(503);
    expect(reply.headers).toEqual({ 'Retry-After': '1' });
    expect(reply.body).toMatchObject({ code: 503, key: 'service_unavailable', message: 'Service unavailable', request_id: 'v-1' });
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain('ProvisionedThroughputExceededException');
    expect(warned[0]).not.toContain('secret-name');
  });
});
