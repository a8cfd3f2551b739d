import { describe, expect, it } from 'vitest';
import { failedMessageIds, toSqsRecord } from '../../../infra/local/sqs-poller.js';

const ids = ['m1', 'm2', 'm3'];

describe('failedMessageIds (ReportBatchItemFailures, as Lambda reads it)', () => {
  it.each([
    ['nothing', undefined],
    ['null', null],
    ['an empty object', {}],
    ['a null list', { batchItemFailures: null }],
    ['an empty list', { batchItemFailures: [] }],
  ])('counts every message as done when the handler returns %s', (_, response) => {
    expect(failedMessageIds(ids, response)).toEqual(new Set());
  });

  it('fails only the messages it names', () => {
    expect(failedMessageIds(ids, { batchItemFailures: [{ itemIdentifier: 'm2' }] })).toEqual(new Set(['m2']));
  });

  it.each([
    ['an id not in the batch', { batchItemFailures: [{ itemIdentifier: 'other' }] }],
    ['an empty id', { batchItemFailures: [{ itemIdentifier: '' }] }],
    ['a null id', { batchItemFailures: [{ itemIdentifier: null }] }],
    ['a misspelt key', { batchItemFailures: [{ itemId: 'm1' }] }],
    ['a list that is not a list', { batchItemFailures: 'm1' }],
  ])('fails the whole batch for %s', (_, response) => {
    expect(failedMessageIds(ids, response)).toEqual(new Set(ids));
  });
});

describe('toSqsRecord', () => {
  it('builds the record Lambda passes, attributes and base64 binary values included', () => {
    const record = toSqsRecord(
      {
        MessageId: 'id-1',
        ReceiptHandle: 'rh-1',
        Body: 'hello',
        MD5OfBody: '5d41402abc4b2a76b9719d911017c592',
        Attributes: { ApproximateReceiveCount: '2', SentTimestamp: '1700000000000', SenderId: 'S', ApproximateFirstReceiveTimestamp: '1700000000001' },
        MessageAttributes: { blob: { DataType: 'Binary', BinaryValue: new Uint8Array([1, 2, 3]) } },
      },
      'arn:aws:sqs:eu-central-1:123456789012:jobs',
    );
    expect(record).toEqual({
      messageId: 'id-1',
      receiptHandle: 'rh-1',
      body: 'hello',
      attributes: { ApproximateReceiveCount: '2', SentTimestamp: '1700000000000', SenderId: 'S', ApproximateFirstReceiveTimestamp: '1700000000001' },
      messageAttributes: { blob: { binaryValue: 'AQID', stringListValues: [], binaryListValues: [], dataType: 'Binary' } },
      md5OfBody: '5d41402abc4b2a76b9719d911017c592',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:eu-central-1:123456789012:jobs',
      awsRegion: 'eu-central-1',
    });
  });
});
