import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { voucher as voucherEntity } from '../../../lib/db/entities.js';
import type { VoucherSessions } from '../../../lib/redemptions/session-lock.js';
import { publicationSetup } from '../publications/support.js';

const DAY = 86_400_000;

/** A voucher holding `sessions`, as LOCK validations leave them (lib/redemptions/session-lock.ts). */
async function heldVoucher(code: string, sessions: (now: number) => VoucherSessions) {
  const setup = await publicationSetup();
  const made = await setup.api.call('create-voucher', {
    params: { code },
    json: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, redemption: { quantity: 2 } },
  });
  expect(made.status).toBe(200);
  await setup.runtime.ddb.send(
    new UpdateCommand({
      TableName: setup.runtime.tableName,
      Key: voucherEntity.key(setup.projectId, code),
      UpdateExpression: 'SET sessions = :s',
      ExpressionAttributeValues: { ':s': sessions(setup.clock.now().getTime()) },
    }),
  );
  const stored = async () => {
    const read = await setup.runtime.ddb.send(
      new GetCommand({ TableName: setup.runtime.tableName, Key: voucherEntity.key(setup.projectId, code), ConsistentRead: true }),
    );
    return voucherEntity.fromItem(read.Item ?? {});
  };
  return { ...setup, stored };
}

describe('DELETE /v1/vouchers/{code}/sessions/{sessionKey} (release-validation-session)', () => {
  it('frees the hold of the named session only, at once, and raises the revision redemptions condition on', async () => {
    const { api, stored } = await heldVoucher('HOLD-1', (now) => ({
      cart: { expiresAt: new Date(now + 7 * DAY).toISOString(), uses: 1, credits: 0 },
      other: { expiresAt: new Date(now + DAY).toISOString(), uses: 1, credits: 0 },
    }));
    const res = await api.call('release-validation-session', { params: { code: 'HOLD-1', sessionKey: 'cart' } });
    expect(res.status).toBe(204);
    const after = await stored();
    expect(Object.keys(after.sessions ?? {})).toEqual(['other']);
    expect(after.sessionsRevision).toBe(1);
    // Released already: nothing is held under that key any more.
    const again = await api.call('release-validation-session', { params: { code: 'HOLD-1', sessionKey: 'cart' } });
    expect(again.status).toBe(404);
    expect(again.json).toMatchObject({ code: 404, key: 'not_found', resource_type: 'session', resource_id: 'cart' });
  });

  it('answers 404 for an expired session (it freed itself) and prunes its entry, 404 voucher for an unknown code', async () => {
    const { api, clock, stored } = await heldVoucher('HOLD-2', (now) => ({ short: { expiresAt: new Date(now + 1000).toISOString(), uses: 1, credits: 0 } }));
    clock.advance(1000);
    const expired = await api.call('release-validation-session', { params: { code: 'HOLD-2', sessionKey: 'short' } });
    expect(expired.status).toBe(404);
    expect(expired.json).toMatchObject({ key: 'not_found', resource_type: 'session' });
    expect((await stored()).sessions).toEqual({});
    const unknown = await api.call('release-validation-session', { params: { code: 'NO-SUCH-CODE', sessionKey: 'short' } });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ key: 'not_found', resource_type: 'voucher', resource_id: 'NO-SUCH-CODE' });
    const never = await api.call('release-validation-session', { params: { code: 'HOLD-2', sessionKey: 'never-held' } });
    expect(never.json).toMatchObject({ key: 'not_found', resource_type: 'session' });
  });

  it('refuses a session key with control characters with 400', async () => {
    const { api } = await heldVoucher('HOLD-3', () => ({}));
    const res = await api.call('release-validation-session', { params: { code: 'HOLD-3', sessionKey: 'a\u0001b' } });
    expect(res.status).toBe(400);
  });
});
