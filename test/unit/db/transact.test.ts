import { TransactionCanceledException, TransactionConflictException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { transact } from '../../../lib/db/transact.js';

/** A client whose send() throws each given error once, then succeeds. */
function failing(...errors: Error[]): { ddb: DynamoDBDocumentClient; calls: () => number } {
  let calls = 0;
  const ddb = {
    send: async () => {
      const error = errors[calls];
      calls += 1;
      if (error) throw error;
      return {};
    },
  } as unknown as DynamoDBDocumentClient;
  return { ddb, calls: () => calls };
}

const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: 'cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

const put = { Put: { TableName: 't', Item: { PK: 'a', SK: 'b' } } };

describe('transact', () => {
  it('reports the positions of the items whose condition failed', async () => {
    const { ddb } = failing(cancelled('None', 'ConditionalCheckFailed', 'None', 'ConditionalCheckFailed'));
    expect(await transact({ ddb }, [put, put, put, put])).toEqual({ ok: false, failed: [1, 3] });
  });

  it('reports a lost race as a conflict, whether cancelled for it or refused outright', async () => {
    expect(await transact({ ddb: failing(cancelled('None', 'TransactionConflict')).ddb }, [put, put])).toEqual({ ok: false, conflict: true });
    const refused = new TransactionConflictException({ message: 'conflict', $metadata: {} });
    expect(await transact({ ddb: failing(refused).ddb }, [put])).toEqual({ ok: false, conflict: true });
  });

  it('rethrows cancellations for other reasons, which retrying cannot fix', async () => {
    await expect(transact({ ddb: failing(cancelled('ValidationError')).ddb }, [put])).rejects.toBeInstanceOf(TransactionCanceledException);
  });

  it('refuses more than 100 items before calling DynamoDB', async () => {
    const { ddb, calls } = failing();
    await expect(
      transact(
        { ddb },
        Array.from({ length: 101 }, () => put),
      ),
    ).rejects.toThrow(/at most 100/);
    expect(calls()).toBe(0);
  });
});
