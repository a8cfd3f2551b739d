import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { AttributeType, BillingMode, type ITable, ProjectionType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption, type IBucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { type IQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { tableDesign } from '../../lib/db/table.js';
import type { ClusterConfig, InfraConfig } from '../config.js';
import { resources } from '../../lib/api/resources.js';
import { consumedQueueName, type WorkerDef } from '../../lib/api/workers.js';

/** A queue with its dead-letter queue, keyed in `StatefulResources.queues` by its local name. */
export interface QueuePair {
  queue: IQueue;
  deadLetter: IQueue;
  visibilityTimeout: Duration;
  /** The dead-letter queue's: 6x the timeout of the workers consuming it (SQS's 30 s default when none does). */
  deadLetterVisibilityTimeout: Duration;
}

/** What the stateless stack of the same region is given. */
export interface StatefulResources {
  table: ITable;
  exportBucket: IBucket;
  queues: ReadonlyMap<string, QueuePair>;
  /** Where the outbox stream worker's batches go after their last retry (alarmed): their events were not enqueued. */
  outboxFailures: IQueue;
}

export interface StatefulStackProps extends StackProps {
  cluster: ClusterConfig;
  config: InfraConfig;
  /** The queue workers; each queue's (and dead-letter queue's) visibility timeout is 6x the longest timeout of its consumers. */
  workers: readonly WorkerDef[];
}

/** SQS must not hand a message to a second worker while the first may still be running (AWS: 6x the function timeout). */
export const VISIBILITY_TIMEOUT_FACTOR = 6;

/** A queue created without a visibility timeout gets SQS's default. */
const SQS_DEFAULT_VISIBILITY_SECONDS = 30;

/** `promo-engine-jobs` → `Jobs`: construct ids from the local queue names. */
const idOf = (queueName: string): string =>
  queueName
    .replace(new RegExp(`^${resources.tableName}-`), '')
    .split(/[^A-Za-z0-9]+/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');

/**
 * Everything that holds data in one region: the single table, the export bucket (with its
 * access-log bucket) and the job queues with their dead-letter queues and alarms. Data outlives
 * the stack: the table and buckets are retained on delete.
 */
export class StatefulStack extends Stack implements StatefulResources {
  readonly table: Table;
  readonly exportBucket: Bucket;
  readonly accessLogBucket: Bucket;
  readonly queues: ReadonlyMap<string, QueuePair>;
  readonly outboxFailures: Queue;

  constructor(scope: Construct, id: string, props: StatefulStackProps) {
    super(scope, id, props);
    const { config, cluster, workers } = props;

    this.table = new Table(this, 'Table', {
      partitionKey: { name: tableDesign.partitionKey, type: AttributeType.STRING },
      sortKey: { name: tableDesign.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: tableDesign.ttlAttribute,
      // The outbox of webhook events (lib/events-out): read by the stateless stack's outbox stream worker.
      stream: StreamViewType[tableDesign.streamView],
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of Object.values(tableDesign.indexes)) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType[index.projection],
      });
    }

    this.accessLogBucket = new Bucket(this, 'AccessLogBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      // S3 server access logging can only deliver to SSE-S3 buckets.
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(config.accessLogExpiryDays) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.accessLogBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: "This bucket is the destination of the export bucket's server access logs; logging it too would need yet another bucket, or loop into itself.",
    });

    this.exportBucket = new Bucket(this, 'ExportBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.accessLogBucket,
      serverAccessLogsPrefix: 'export-bucket/',
      lifecycleRules: [
        {
          id: 'expire-export-files',
          expiration: Duration.days(config.exportFileExpiryDays),
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const alarmTopic = config.alarmTopicArn ? Topic.fromTopicArn(this, 'AlarmTopic', config.alarmTopicArn) : null;
    const queues = new Map<string, QueuePair>();
    for (const local of resources.queues) {
      const timeoutsOn = (queueName: string): number[] => workers.filter((w) => consumedQueueName(w) === queueName).map((w) => w.timeoutSeconds);
      const longest = Math.max(config.defaultWorkerTimeoutSeconds, ...timeoutsOn(local.name));
      const visibilityTimeout = Duration.seconds(VISIBILITY_TIMEOUT_FACTOR * longest);
      const deadLetterConsumers = timeoutsOn(local.deadLetter);
      const deadLetterVisibilityTimeout = Duration.seconds(
        deadLetterConsumers.length > 0 ? VISIBILITY_TIMEOUT_FACTOR * Math.max(...deadLetterConsumers) : SQS_DEFAULT_VISIBILITY_SECONDS,
      );
      const id = idOf(local.name);
      const deadLetter = new Queue(this, `${id}DeadLetterQueue`, {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: Duration.days(14),
        ...(deadLetterConsumers.length > 0 ? { visibilityTimeout: deadLetterVisibilityTimeout } : {}),
      });
      const queue = new Queue(this, `${id}Queue`, {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        visibilityTimeout,
        deadLetterQueue: { queue: deadLetter, maxReceiveCount: local.maxReceiveCount },
      });
      const alarm = new Alarm(this, `${id}DeadLetterAlarm`, {
        alarmDescription: `${cluster.label}: messages of ${local.name} failed ${local.maxReceiveCount} times and wait in its dead-letter queue`,
        metric: deadLetter.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      if (alarmTopic) alarm.addAlarmAction(new SnsAction(alarmTopic));
      // A consumer of the dead-letter queue takes each message within seconds, so the count of
      // visible messages above rarely sees one; every dead letter is received at least once.
      if (deadLetterConsumers.length > 0) {
        const received = new Alarm(this, `${id}DeadLetterReceivedAlarm`, {
          alarmDescription: `${cluster.label}: a job of ${local.name} was dead-lettered (its last delivery died) and its consumer closed it FAILED/ERROR`,
          metric: deadLetter.metricNumberOfMessagesReceived({ period: Duration.minutes(1), statistic: 'Sum' }),
          threshold: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        });
        if (alarmTopic) received.addAlarmAction(new SnsAction(alarmTopic));
      }
      queues.set(local.name, { queue, deadLetter, visibilityTimeout, deadLetterVisibilityTimeout });
    }
    this.queues = queues;

    // The outbox stream worker's on-failure destination: the stream positions of batches it could not enqueue after its retries.
    this.outboxFailures = new Queue(this, 'OutboxFailureQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.outboxFailures).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: "This queue is itself a dead-letter destination: the outbox stream worker's on-failure destination, alarmed below.",
    });
    const outboxAlarm = new Alarm(this, 'OutboxFailureAlarm', {
      alarmDescription: `${cluster.label}: stream records of the outbox could not be turned into webhook deliveries after every retry`,
      metric: this.outboxFailures.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    if (alarmTopic) outboxAlarm.addAlarmAction(new SnsAction(alarmTopic));

    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'The single table: --table of the operator CLI' });
    new CfnOutput(this, 'Region', { value: this.region, description: 'The region: --region of the operator CLI' });
    new CfnOutput(this, 'ExportBucketName', { value: this.exportBucket.bucketName });
  }
}
