import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { infraConfig } from '../../infra/config.js';
import { resources } from '../../lib/api/resources.js';
import { type WorkerDef, workers } from '../../lib/api/workers.js';
import { tableDesign } from '../../lib/db/table.js';
import { buildTestApp } from './infra-support.js';

const { built } = buildTestApp({ pipeline: false, nag: false });
const clusters = [...built.regions.entries()].map(([label, stacks]) => ({ label, stacks }));

describe.each(clusters)('stateful stack of $label', ({ label, stacks }) => {
  const template = Template.fromStack(stacks.stateful);

  it('is deployed to the region configured for the cluster', () => {
    const region = infraConfig.clusters.find((c) => c.label === label)?.region;
    expect(stacks.stateful.region).toBe(region);
    template.hasOutput('Region', { Value: region });
    template.hasOutput('TableName', { Value: { Ref: Match.anyValue() } });
  });

  it('keeps the single table with the keys and indexes of lib/db/table.ts, on demand, with TTL and PITR', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    const indexes = Object.values(tableDesign.indexes);
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: tableDesign.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableDesign.sortKey, KeyType: 'RANGE' },
      ],
      AttributeDefinitions: Match.arrayWith([
        { AttributeName: tableDesign.partitionKey, AttributeType: 'S' },
        ...indexes.map((gsi) => ({ AttributeName: gsi.partitionKey, AttributeType: 'S' })),
      ]),
      GlobalSecondaryIndexes: indexes.map((gsi) => ({
        IndexName: gsi.name,
        KeySchema: [
          { AttributeName: gsi.partitionKey, KeyType: 'HASH' },
          { AttributeName: gsi.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: gsi.projection },
      })),
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: tableDesign.ttlAttribute, Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      DeletionProtectionEnabled: true,
    });
  });

  it('retains the table and both buckets when the stack is deleted', () => {
    template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    const buckets = template.findResources('AWS::S3::Bucket');
    expect(Object.keys(buckets)).toHaveLength(2);
    for (const bucket of Object.values(buckets)) expect(bucket).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });

  it('blocks public access, encrypts, refuses plain HTTP and expires files on every bucket', () => {
    const buckets = template.findResources('AWS::S3::Bucket');
    for (const [id, bucket] of Object.entries(buckets)) {
      expect(bucket.Properties.PublicAccessBlockConfiguration, id).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm, id).toBe('AES256');
      expect(bucket.Properties.LifecycleConfiguration.Rules, id).toContainEqual(
        expect.objectContaining({ Status: 'Enabled', ExpirationInDays: expect.any(Number) }),
      );
      template.hasResourceProperties('AWS::S3::BucketPolicy', {
        Bucket: { Ref: id },
        PolicyDocument: {
          Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
        },
      });
    }
  });

  it("expires export files after the configured days and logs the export bucket's access", () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: {
        Rules: Match.arrayWith([Match.objectLike({ Id: 'expire-export-files', ExpirationInDays: infraConfig.exportFileExpiryDays, Status: 'Enabled' })]),
      },
      LoggingConfiguration: { DestinationBucketName: { Ref: Match.stringLikeRegexp('AccessLogBucket') }, LogFilePrefix: 'export-bucket/' },
    });
  });

  it('gives each job queue a dead-letter queue after maxReceiveCount deliveries, SSE and SSL only', () => {
    for (const local of resources.queues) {
      const pair = stacks.stateful.queues.get(local.name);
      expect(pair, local.name).toBeDefined();
      template.hasResourceProperties('AWS::SQS::Queue', {
        RedrivePolicy: {
          deadLetterTargetArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('DeadLetterQueue'), 'Arn'] },
          maxReceiveCount: local.maxReceiveCount,
        },
        SqsManagedSseEnabled: true,
      });
    }
    expect(resources.queues.every((q) => q.maxReceiveCount === 3)).toBe(true);
    const queues = template.findResources('AWS::SQS::Queue');
    for (const id of Object.keys(queues)) {
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
        },
      });
    }
  });

  it("sets each queue's visibility timeout to at least 6x the worker timeout", () => {
    const queues = Object.values(template.findResources('AWS::SQS::Queue')).filter((q) => q.Properties.RedrivePolicy);
    expect(queues).toHaveLength(resources.queues.length);
    for (const queue of queues) {
      expect(queue.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(6 * infraConfig.defaultWorkerTimeoutSeconds);
    }
  });

  it("sets each dead-letter queue's visibility timeout to 6x the timeout of the worker consuming it", () => {
    for (const local of resources.queues) {
      const consumer = workers.find((w) => w.queue === local.name && w.consumes === 'dead-letter');
      // The webhooks dead-letter queue has no consumer: a delivery given up waits there for the operator (its alarm).
      if (!consumer && local.name === 'promo-engine-webhooks') continue;
      if (!consumer) throw new Error(`no consumer of ${local.deadLetter}`);
      const pair = stacks.stateful.queues.get(local.name);
      expect(pair?.deadLetterVisibilityTimeout.toSeconds()).toBe(6 * consumer.timeoutSeconds);
      template.hasResourceProperties('AWS::SQS::Queue', { RedrivePolicy: Match.absent(), VisibilityTimeout: 6 * consumer.timeoutSeconds });
    }
  });

  it('alarms when a message reaches a dead-letter queue, even though its consumer takes it within seconds', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'NumberOfMessagesReceived',
      Namespace: 'AWS/SQS',
      Statistic: 'Sum',
      Period: 60,
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [Match.stringLikeRegexp('DeadLetterQueue'), 'QueueName'] } }],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
  });

  it('alarms as soon as one message waits in a dead-letter queue', () => {
    // Two per queue: messages waiting (a consumer that is not consuming) and messages received (every dead letter).
    template.resourceCountIs('AWS::CloudWatch::Alarm', 2 * resources.queues.length);
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Namespace: 'AWS/SQS',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [Match.stringLikeRegexp('DeadLetterQueue'), 'QueueName'] } }],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
  });
});

describe('stateful stack with a slow worker', () => {
  it("raises the queue's visibility timeout to 6x that worker's timeout", () => {
    const slow: WorkerDef = {
      name: 'slow-export',
      queue: resources.queues[0].name,
      handler: 'functions/http/route-not-found.ts',
      batchSize: 1,
      timeoutSeconds: 300,
      summary: 'a worker slower than the default',
      needs: { bucket: null, sendsTo: [], env: [] },
    };
    const { built: withSlow } = buildTestApp({ pipeline: false, nag: false, clusters: ['api'], workers: [slow] });
    const stack = withSlow.regions.get('api')?.stateful;
    if (!stack) throw new Error('no api stack');
    Template.fromStack(stack).hasResourceProperties('AWS::SQS::Queue', { RedrivePolicy: Match.anyValue(), VisibilityTimeout: 1800 });
  });
});
