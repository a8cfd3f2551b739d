import { randomUUID } from 'node:crypto';
import type { SQSRecord } from 'aws-lambda';

/** An SQS record as Lambda hands it to a worker, for invoking worker handlers directly in tests. */
export function sqsRecord(body: string, receiveCount = 1): SQSRecord {
  return {
    messageId: randomUUID(),
    receiptHandle: 'r',
    body,
    attributes: { ApproximateReceiveCount: String(receiveCount), SentTimestamp: '0', SenderId: 'test', ApproximateFirstReceiveTimestamp: '0' },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:local:000000000000:test',
    awsRegion: 'local',
  };
}
