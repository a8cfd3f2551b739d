import { type CfnElement, CfnOutput, Duration, Fn, Stack, type StackProps } from 'aws-cdk-lib';
import { Certificate, CertificateValidation, type ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import { type IGrantable, PolicyStatement, type Role } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { HostedZone, type IHostedZone } from 'aws-cdk-lib/aws-route53';
import type { Construct, IConstruct } from 'constructs';
import type { ResourceNeeds, RouteDef } from '../../lib/api/route.js';
import { type ClusterConfig, clusterHostNames, type InfraConfig } from '../config.js';
import { functionLogGroup, functionRole, HouseFunction } from '../constructs/house-function.js';
import type { LogGroup } from 'aws-cdk-lib/aws-logs';
import { RouteTableApi } from '../constructs/http-api.js';
import { acknowledgeWildcards } from '../constructs/nag-acknowledgements.js';
import { grantTableAccess } from '../constructs/table-access.js';
import { queueNamed, queueUrlVariables } from '../../lib/api/resources.js';
import {
  consumedQueueName,
  heapFlags,
  type ScheduledWorkerDef,
  scheduledWorkers,
  type StreamWorkerDef,
  streamWorkers,
  type WorkerDef,
} from '../../lib/api/workers.js';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { OPEN_JOB_PARTITION_PREFIX } from '../../lib/jobs/open-job.js';
import { pascal, RouteGroupStack, routeGroupOf } from './route-group-stack.js';
import { type StatefulResources, VISIBILITY_TIMEOUT_FACTOR } from './stateful-stack.js';

export interface StatelessStackProps extends StackProps {
  cluster: ClusterConfig;
  config: InfraConfig;
  stateful: StatefulResources;
  /** The route table (lib/api/routes.ts); every row becomes a route of one of the two APIs. */
  routes: readonly RouteDef[];
  /** Serves whatever no route matches, on both APIs. */
  routeNotFoundRoute: RouteDef;
  workers: readonly WorkerDef[];
  /** The scheduled workers (default lib/api/workers.ts `scheduledWorkers`): a function and an EventBridge rule each. */
  scheduledWorkers?: readonly ScheduledWorkerDef[];
  /** The table stream's consumers (default lib/api/workers.ts `streamWorkers`): the outbox. */
  streamWorkers?: readonly StreamWorkerDef[];
}

/** Partition keys of the rate-limit counters (keys.rateLimitWindow): the only items read-only routes may change. */
export const RATE_LIMIT_KEY_PATTERN = 'P#*#RATE#*';

/**
 * Partition keys of the open-job markers (lib/jobs/open-job.ts): the only items a function that only moves statuses
 * (`table: 'update'`) may delete, since the move that ends a job deletes its marker in the same transaction.
 */
export const OPEN_JOB_KEY_PATTERN = `${OPEN_JOB_PARTITION_PREFIX}#*`;

/**
 * Everything that computes in one region: one function per handler of the route table, the
 * main HTTP API and the download-cluster HTTP API (both generated from the table), the queue
 * workers, and their least-privilege grants. Holds no data: it can be destroyed and redeployed.
 *
 * The route functions, with their integrations, routes and invoke permissions, live in one nested
 * stack per tag of the route table (`RouteGroupStack`), so this stack's own resource count does not
 * grow with the routes; the APIs, the shared route roles, the log group and the workers stay here.
 */
export class StatelessStack extends Stack {
  readonly api: RouteTableApi;
  readonly downloadApi: RouteTableApi;
  /** Route operationId (or `worker:<name>`) → its function; the fallback's is shared by both APIs. */
  readonly functions = new Map<string, HouseFunction>();
  /** Route group (`routeGroupOf`) → the nested stack holding its route functions. */
  readonly routeGroups = new Map<string, RouteGroupStack>();

  private readonly props: StatelessStackProps;
  /** Every function of the stack logs here (one stream per function instance, named after it). */
  private readonly functionLogs: LogGroup;
  /** Route functions' execution roles, one per set of grants (see `routeRole`). */
  private readonly routeRoles = new Map<string, Role>();

  constructor(scope: Construct, id: string, props: StatelessStackProps) {
    super(scope, id, props);
    this.props = props;
    const { config, cluster } = props;
    const domains = this.customDomains();
    this.functionLogs = functionLogGroup(this, 'FunctionLogs', config.logRetentionDays);

    const apiName = `${config.appName}-${cluster.label}`;
    this.api = new RouteTableApi(this, 'Api', {
      apiName,
      description: `Promotion engine API, cluster ${cluster.label}`,
      throttle: config.api.throttle,
      logRetentionDays: config.logRetentionDays,
      ...(domains ? { customDomain: domains.api } : {}),
    });
    this.downloadApi = new RouteTableApi(this, 'DownloadApi', {
      apiName: `${apiName}-download`,
      description: `Promotion engine download cluster, cluster ${cluster.label}`,
      throttle: config.api.throttle,
      logRetentionDays: config.logRetentionDays,
      ...(domains ? { customDomain: domains.download } : {}),
    });

    for (const route of props.routes) {
      const api = route.cluster === 'download' ? this.downloadApi : this.api;
      api.addRoute(route, this.routeFunction(route), this.routeGroup(route));
    }
    const fallback = this.routeFunction(props.routeNotFoundRoute);
    this.api.addRoute(props.routeNotFoundRoute, fallback, this.routeGroup(props.routeNotFoundRoute));
    this.downloadApi.addRoute(props.routeNotFoundRoute, fallback, this.routeGroup(props.routeNotFoundRoute));

    for (const worker of props.workers) this.addWorker(worker);
    for (const worker of props.scheduledWorkers ?? scheduledWorkers) this.addScheduledWorker(worker);
    for (const worker of props.streamWorkers ?? streamWorkers) this.addStreamWorker(worker);

    new CfnOutput(this, 'ApiUrl', { value: this.api.url, description: `Base URL of the ${cluster.label} cluster` });
    new CfnOutput(this, 'DownloadUrl', { value: this.downloadApi.url, description: `Base URL of the ${cluster.label} download cluster` });
    new CfnOutput(this, 'Cluster', { value: cluster.label });
    new CfnOutput(this, 'AdminCommand', {
      value: Fn.join('', [`npm run admin -- --stage ${cluster.label} --table `, props.stateful.table.tableName, ` --region ${this.region}`]),
      description: 'Points the operator CLI at this stage; append a command, e.g. project create --name Shop',
    });
  }

  private baseEnvironment(): Record<string, string> {
    return { TABLE_NAME: this.props.stateful.table.tableName, CLUSTER: this.props.cluster.label };
  }

  /** The nested stack of the route's tag, made on first use. */
  private routeGroup(route: RouteDef): RouteGroupStack {
    const id = routeGroupOf(route);
    const existing = this.routeGroups.get(id);
    if (existing) return existing;
    const group = new RouteGroupStack(this, route.tag);
    this.routeGroups.set(id, group);
    return group;
  }

  private routeFunction(route: RouteDef): HouseFunction {
    const existing = this.functions.get(route.operationId);
    if (existing) return existing;
    const { config } = this.props;
    const summary = route.path === '$default' ? `$default: ${route.summary}` : `${route.method} ${route.path}: ${route.summary}`;
    const rateLimit = this.props.cluster.rateLimit ?? config.api.rateLimit;
    const fn = new HouseFunction(this.routeGroup(route), pascal(route.operationId), {
      handlerFile: route.handler,
      usesS3: !!route.needs.bucket,
      description: summary.slice(0, 256),
      environment: {
        ...this.baseEnvironment(),
        RATE_LIMIT_REQUESTS: String(rateLimit.requestsPerWindow),
        RATE_LIMIT_WINDOW_SECONDS: String(rateLimit.windowSeconds),
      },
      timeout: Duration.seconds(config.api.functionTimeoutSeconds),
      memorySize: config.api.memorySizeMb,
      logGroup: this.functionLogs,
      role: this.routeRole(route),
      // A request waits for its function's cold start: stacks are mapped afterwards (scripts/map-stack.ts).
      sourceMapStacks: false,
    });
    this.addResourceEnvironment(fn, route.needs);
    this.functions.set(route.operationId, fn);
    return fn;
  }

  /**
   * The execution role of a route function. Routes whose grants are identical (table access, the
   * rate-limit counter, bucket, queues) share one role: a role per function cost two resources per
   * route and put the stack over CloudFormation's 500 (docs/decisions.md, "Route roles shared by
   * grants"); sharing gives no function a permission it would not have had alone.
   */
  private routeRole(route: RouteDef): Role {
    const countsRequests = route.access === 'read' && route.auth !== 'none';
    const sendsTo = [...route.needs.sendsTo].sort();
    const parts = [
      route.access,
      countsRequests ? 'counted' : '',
      route.needs.bucket ? `bucket-${route.needs.bucket}` : '',
      ...sendsTo.map((q) => `sends-${q}`),
    ];
    const id = `RouteRole${pascal(parts.filter(Boolean).join('-'))}`;
    const existing = this.routeRoles.get(id);
    if (existing) return existing;
    const role = functionRole(this, id, `Route functions with ${parts.filter(Boolean).join(', ')} access`.slice(0, 1000), this.functionLogs);
    grantTableAccess(this.props.stateful.table, role, route.access);
    // Read-only routes still count their requests: UpdateItem on the rate-limit counters only.
    if (countsRequests) {
      role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: ['dynamodb:UpdateItem'],
          resources: [this.props.stateful.table.tableArn],
          conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [RATE_LIMIT_KEY_PATTERN] } },
        }),
      );
    }
    this.grantResources(role, route.needs);
    this.routeRoles.set(id, role);
    return role;
  }

  private addWorker(worker: WorkerDef): void {
    const { config, stateful } = this.props;
    const pair = stateful.queues.get(worker.queue);
    if (!pair) throw new Error(`Worker ${worker.name} reads ${worker.queue}, which the stateful stack does not define`);
    const deadLetter = worker.consumes === 'dead-letter';
    const source = deadLetter ? pair.deadLetter : pair.queue;
    const visibility = deadLetter ? pair.deadLetterVisibilityTimeout : pair.visibilityTimeout;
    const consumed = consumedQueueName(worker);
    if (worker.timeoutSeconds * VISIBILITY_TIMEOUT_FACTOR > visibility.toSeconds()) {
      throw new Error(
        `Worker ${worker.name}: timeout ${worker.timeoutSeconds}s needs a visibility timeout of at least ${VISIBILITY_TIMEOUT_FACTOR}x on ${consumed}`,
      );
    }
    const urlVariables = queueUrlVariables(queueNamed(worker.queue));
    const fn = new HouseFunction(this, `Worker${pascal(worker.name)}`, {
      handlerFile: worker.handler,
      usesS3: !!worker.needs.bucket,
      description: `worker ${worker.name}: ${worker.summary}`.slice(0, 256),
      environment: { ...this.baseEnvironment(), [deadLetter ? urlVariables.deadLetter : urlVariables.queue]: source.queueUrl },
      timeout: Duration.seconds(worker.timeoutSeconds),
      memorySize: config.api.memorySizeMb,
      logGroup: this.functionLogs,
      nodeFlags: heapFlags(worker),
    });
    const access = worker.table ?? 'write';
    grantTableAccess(stateful.table, fn, access);
    if (access === 'update') {
      // Ending a job (FAILED, ERROR) deletes its open-job marker in the same transaction: DeleteItem on the markers' keys only.
      fn.addToRolePolicy(
        new PolicyStatement({
          actions: ['dynamodb:DeleteItem'],
          resources: [stateful.table.tableArn],
          conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [OPEN_JOB_KEY_PATTERN] } },
        }),
      );
    }
    this.grantResources(fn, worker.needs);
    this.addResourceEnvironment(fn, worker.needs);
    // The base table only: a walk never reads an index.
    if (worker.scansTable) fn.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:Scan'], resources: [stateful.table.tableArn] }));
    if (worker.sendsToDeadLetter) {
      pair.deadLetter.grantSendMessages(fn);
      fn.addEnvironment(urlVariables.deadLetter, pair.deadLetter.queueUrl);
    }
    // The event source grants receive, delete and visibility changes on the consumed queue only.
    fn.addEventSource(new SqsEventSource(source, { batchSize: worker.batchSize, reportBatchItemFailures: true }));
    this.functions.set(`worker:${worker.name}`, fn);
  }

  /**
   * A consumer of the table's stream: its function (table read, the queues it sends to), and a
   * DynamoDB Streams event source filtered to the entities it maps, so other changes cost no
   * invocation. A failing record is retried (bisected, then from the failed record on:
   * ReportBatchItemFailures) `retryAttempts` times; then its batch's position goes to the outbox
   * failure queue (alarmed). Records older than a day are skipped the same way.
   */
  private addStreamWorker(worker: StreamWorkerDef): void {
    const { config, stateful } = this.props;
    const fn = new HouseFunction(this, `Worker${pascal(worker.name)}`, {
      handlerFile: worker.handler,
      usesS3: false,
      description: `worker ${worker.name}: ${worker.summary}`.slice(0, 256),
      environment: this.baseEnvironment(),
      timeout: Duration.seconds(worker.timeoutSeconds),
      memorySize: config.api.memorySizeMb,
      logGroup: this.functionLogs,
    });
    grantTableAccess(stateful.table, fn, 'read');
    this.grantResources(fn, worker.needs);
    this.addResourceEnvironment(fn, worker.needs);
    const entityIn = FilterRule.or(...worker.entities);
    fn.addEventSource(
      new DynamoEventSource(stateful.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: worker.batchSize,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        retryAttempts: worker.retryAttempts,
        maxRecordAge: Duration.days(1),
        onFailure: new SqsDlq(stateful.outboxFailures),
        filters: [
          FilterCriteria.filter({ dynamodb: { NewImage: { entity: { S: entityIn } } } }),
          // A removal has no new image: its old one names the entity.
          FilterCriteria.filter({ eventName: FilterRule.isEqual('REMOVE'), dynamodb: { OldImage: { entity: { S: entityIn } } } }),
        ],
      }),
    );
    this.functions.set(`worker:${worker.name}`, fn);
  }

  /**
   * A scheduled worker: its function (table write access, nothing else) and the EventBridge rule
   * invoking it every `everyMinutes`. An invocation that fails is retried twice by EventBridge and
   * dropped after an hour; the work itself is resumable, so the next run makes a lost one good.
   */
  private addScheduledWorker(worker: ScheduledWorkerDef): void {
    const { config, stateful } = this.props;
    const fn = new HouseFunction(this, `Worker${pascal(worker.name)}`, {
      handlerFile: worker.handler,
      usesS3: false,
      description: `worker ${worker.name}: ${worker.summary}`.slice(0, 256),
      environment: this.baseEnvironment(),
      timeout: Duration.seconds(worker.timeoutSeconds),
      memorySize: config.api.memorySizeMb,
      logGroup: this.functionLogs,
    });
    grantTableAccess(stateful.table, fn, 'write');
    new Rule(this, `Schedule${pascal(worker.name)}`, {
      description: `Runs ${worker.name} every ${worker.everyMinutes} minutes`,
      schedule: Schedule.rate(Duration.minutes(worker.everyMinutes)),
      targets: [new LambdaFunction(fn, { retryAttempts: 2, maxEventAge: Duration.hours(1) })],
    });
    this.functions.set(`worker:${worker.name}`, fn);
  }

  /** Grants the bucket and queue access that `needs` declares; the acknowledgement goes on the role. */
  private grantResources(grantee: IGrantable & IConstruct, needs: ResourceNeeds): void {
    const { stateful } = this.props;
    if (needs.bucket) {
      const actions = needs.bucket === 'write' ? ['s3:GetObject', 's3:PutObject', 's3:AbortMultipartUpload', 's3:DeleteObject'] : ['s3:GetObject'];
      grantee.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ actions, resources: [stateful.exportBucket.arnForObjects('*')] }));
      // With ListBucket, a GetObject of a file the lifecycle rule removed answers 404 (NoSuchKey), not 403: the jobs that
      // rewrite or read old files (a customer's erasure) tell a gone file from a refused one.
      if (needs.bucket === 'write')
        grantee.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [stateful.exportBucket.bucketArn] }));
      const bucketId = Stack.of(stateful.exportBucket).getLogicalId(stateful.exportBucket.node.defaultChild as CfnElement);
      const scope = grantee instanceof HouseFunction ? (grantee.role ?? grantee) : grantee;
      acknowledgeWildcards(scope, [
        {
          finding: new RegExp(`^Resource::[^*]*${bucketId}[^*]*/\\*$`),
          reason:
            'Objects of the export bucket only: export file keys are generated per export, so no fixed ARN can name them; the actions are object-level and listed one by one, and lifecycle rules delete the files.',
        },
      ]);
    }
    for (const name of needs.sendsTo) {
      const pair = stateful.queues.get(name);
      if (!pair) throw new Error(`a function sends to ${name}, which the stateful stack does not define`);
      pair.queue.grantSendMessages(grantee);
    }
  }

  /** The environment that `needs` implies: bucket name, queue URLs, the download base URL. */
  private addResourceEnvironment(fn: HouseFunction, needs: ResourceNeeds): void {
    const { stateful } = this.props;
    if (needs.bucket) fn.addEnvironment('BUCKET_NAME', stateful.exportBucket.bucketName);
    for (const name of needs.sendsTo) {
      const pair = stateful.queues.get(name);
      if (!pair) throw new Error(`${fn.handlerFile} sends to ${name}, which the stateful stack does not define`);
      fn.addEnvironment(queueUrlVariables(queueNamed(name)).queue, pair.queue.queueUrl);
    }
    // Export replies show `result.url` on this region's download cluster.
    if (needs.env.includes('DOWNLOAD_BASE_URL')) fn.addEnvironment('DOWNLOAD_BASE_URL', this.downloadApi.url);
  }

  /** Certificates and zone for the custom domains, or null when no domain is configured. */
  private customDomains(): { api: DomainSetting; download: DomainSetting } | null {
    const { config, cluster } = this.props;
    if (!config.domain) return null;
    const zone = HostedZone.fromHostedZoneAttributes(this, 'Zone', {
      hostedZoneId: config.domain.hostedZoneId,
      zoneName: config.domain.zoneName,
    });
    const hosts = clusterHostNames(cluster.label, config.domain.zoneName);
    const certificate = new Certificate(this, 'Certificate', {
      domainName: hosts.api,
      subjectAlternativeNames: [hosts.download],
      validation: CertificateValidation.fromDns(zone),
    });
    return {
      api: { hostName: hosts.api, certificate, zone },
      download: { hostName: hosts.download, certificate, zone },
    };
  }
}

interface DomainSetting {
  hostName: string;
  certificate: ICertificate;
  zone: IHostedZone;
}
