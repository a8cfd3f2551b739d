import { type CfnElement, Duration, Stack } from 'aws-cdk-lib';
import { Schedule } from 'aws-cdk-lib/aws-events';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { describe, expect, it } from 'vitest';
import { infraConfig } from '../../infra/config.js';
import { queueNamed, queueUrlVariables, resources } from '../../lib/api/resources.js';
import { routeNotFoundRoute, routes } from '../../lib/api/routes.js';
import { OPEN_JOB_KEY_PATTERN, RATE_LIMIT_KEY_PATTERN, StatelessStack } from '../../infra/stacks/stateless-stack.js';
import { routeGroupOf } from '../../infra/stacks/route-group-stack.js';
import { HANDLER_METADATA_KEY } from '../../infra/constructs/house-function.js';
import {
  consumedQueueName,
  exportJobsDeadLetterWorker,
  exportJobsWorker,
  heapFlags,
  jobsDeadLetterWorker,
  jobsWorker,
  pointsExpiryWorker,
  scheduledWorkers,
  streamWorkers,
  workers,
  type WorkerDef,
} from '../../lib/api/workers.js';
import { jobKinds } from '../../lib/jobs/job.js';
import type { RouteDef } from '../../lib/api/route.js';
import {
  allowedActions,
  apiNamed,
  buildTestApp,
  DYNAMODB_WRITE_ACTIONS,
  flattenedTemplate,
  functionOfHandler,
  findResourcesOnce,
  nestedStacksOf,
  resourceCountOf,
  type PolicyStatementJson,
  roleStatementsOfFunction,
  routeKeyOf,
  routesOfApi,
  withDomain,
} from './infra-support.js';

const { built } = buildTestApp({ pipeline: false, nag: false });
const clusters = [...built.regions.entries()].map(([label, stacks]) => ({ label, stacks }));

/** The one write a read-only route may do: UpdateItem on the rate-limit counters' keys, and nothing else. */
const isRateLimitCounterGrant = (statement: PolicyStatementJson & { Condition?: unknown }): boolean =>
  JSON.stringify(statement.Condition ?? null) === JSON.stringify({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [RATE_LIMIT_KEY_PATTERN] } });

/** The one delete a status-moving worker may do: its jobs' open-job markers. */
const isOpenJobMarkerGrant = (statement: PolicyStatementJson & { Condition?: unknown }): boolean =>
  JSON.stringify(statement.Condition ?? null) === JSON.stringify({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [OPEN_JOB_KEY_PATTERN] } });

/** Route key → handler file, each key once: what an API must serve. */
const expectedRoutes = (rows: readonly RouteDef[]): [string, string][] => [
  ...rows.map((r): [string, string] => [routeKeyOf(r), r.handler]),
  ['$default', routeNotFoundRoute.handler],
];

describe.each(clusters)('stateless stack of $label', ({ label, stacks }) => {
  // The route functions live in nested stacks: read the stack with them merged in, parameters followed to the parent.
  const template = flattenedTemplate(stacks.stateless);
  const api = apiNamed(template, `${infraConfig.appName}-${label}`);
  const downloadApi = apiNamed(template, `${infraConfig.appName}-${label}-download`);

  it('serves every api-cluster route of the route table exactly once, plus $default, each on the function of its handler', () => {
    const served = routesOfApi(template, api).map((r) => [r.routeKey, r.handlerFile]);
    const expected = expectedRoutes(routes.filter((r) => r.cluster === 'api'));
    expect(served.map(([key]) => key).sort()).toEqual(expected.map(([key]) => key).sort());
    expect(served.sort()).toEqual(expected.sort());
    expect(served.map(([key]) => key)).toContain('POST /v1/oauth/token');
    expect(served.map(([key]) => key)).toContain('POST /v1/oauth/introspect');
  });

  it('serves only the download-cluster routes and its own $default on the download API', () => {
    const served = routesOfApi(template, downloadApi).map((r) => [r.routeKey, r.handlerFile]);
    expect(served.sort()).toEqual(expectedRoutes(routes.filter((r) => r.cluster === 'download')).sort());
  });

  it('builds one function per route and per worker with the house defaults', () => {
    for (const route of [...routes, routeNotFoundRoute]) functionOfHandler(template, route.handler);
    template.resourceCountIs('AWS::Lambda::Function', routes.length + 1 + workers.length + scheduledWorkers.length + streamWorkers.length);
    const functions = findResourcesOnce(template, 'AWS::Lambda::Function');
    const exportWorker = functionOfHandler(template, exportJobsWorker.handler);
    const apiFunctions = new Set([...routes, routeNotFoundRoute].map((route) => functionOfHandler(template, route.handler)));
    for (const [id, fn] of Object.entries(functions)) {
      // Only the export worker bounds its heap (lib/api/workers.ts `heap`): the others keep the runtime's. The API
      // functions map no stacks at run time (2–5 ms of every cold start; scripts/map-stack.ts maps them afterwards).
      const nodeOptions = id === exportWorker ? `--enable-source-maps ${heapFlags(exportJobsWorker).join(' ')}` : '--enable-source-maps';
      expect(fn.Properties, id).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        TracingConfig: { Mode: 'Active' },
        LoggingConfig: { LogGroup: { Ref: expect.stringMatching(/Logs/) } },
        Environment: { Variables: { CLUSTER: label, TABLE_NAME: expect.anything() } },
      });
      expect(fn.Properties.Environment.Variables.NODE_OPTIONS, id).toBe(apiFunctions.has(id) ? undefined : nodeOptions);
      expect(fn.Properties.Environment.Variables.AWS_REGION, id).toBeUndefined();
    }
    expect(heapFlags(exportJobsWorker)).toEqual(['--max-old-space-size=128', '--max-semi-space-size=4']);
    const logGroups = Object.values(findResourcesOnce(template, 'AWS::Logs::LogGroup'));
    for (const group of logGroups) expect(group.Properties.RetentionInDays).toBe(infraConfig.logRetentionDays);
  });

  it('gives read-only routes no way to write to the table but their rate-limit counters, and writers the write actions', () => {
    for (const route of [...routes, routeNotFoundRoute]) {
      const all = roleStatementsOfFunction(template, functionOfHandler(template, route.handler));
      const counters = all.filter(isRateLimitCounterGrant);
      const statements = all.filter((s) => !isRateLimitCounterGrant(s));
      const writes = allowedActions(statements, DYNAMODB_WRITE_ACTIONS);
      expect(counters.length, route.handler).toBe(route.access === 'read' && route.auth !== 'none' ? 1 : 0);
      for (const counter of counters) expect(counter.Action, route.handler).toBe('dynamodb:UpdateItem');
      if (route.access === 'read') expect(writes, route.handler).toEqual([]);
      else expect(writes, route.handler).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem']));
      expect(allowedActions(statements, ['dynamodb:Query', 'dynamodb:GetItem']), route.handler).toEqual(['dynamodb:Query', 'dynamodb:GetItem']);
      expect(allowedActions(statements, ['dynamodb:Scan']), route.handler).toEqual([]);
    }
  });

  it('shares an execution role only between routes whose grants are the same, and gives workers one each', () => {
    const roleOf = (handler: string): unknown => findResourcesOnce(template, 'AWS::Lambda::Function')[functionOfHandler(template, handler)]?.Properties?.Role;
    const grantSet = (r: (typeof routes)[number]): string =>
      JSON.stringify([r.access, r.access === 'read' && r.auth !== 'none', r.needs.bucket ?? null, [...r.needs.sendsTo].sort()]);
    const byRole = new Map<string, Set<string>>();
    for (const route of [...routes, routeNotFoundRoute]) {
      const role = JSON.stringify(roleOf(route.handler));
      byRole.set(role, (byRole.get(role) ?? new Set()).add(grantSet(route)));
    }
    for (const sets of byRole.values()) expect(sets.size).toBe(1);
    expect(byRole.size).toBeLessThan(20);
    const workerRoles = new Set([...workers, ...scheduledWorkers].map((w) => JSON.stringify(roleOf(w.handler))));
    expect(workerRoles.size).toBe(workers.length + scheduledWorkers.length);
    for (const role of workerRoles) expect(byRole.has(role)).toBe(false);
  });

  it('names the table and its indexes in every DynamoDB grant, never a wildcard', () => {
    for (const policy of Object.values(findResourcesOnce(template, 'AWS::IAM::Policy'))) {
      for (const statement of policy.Properties.PolicyDocument.Statement) {
        const actions: string[] = [statement.Action].flat();
        if (!actions.some((a) => a.startsWith('dynamodb:'))) continue;
        // The stream event source's grants: ListStreams takes no resource but `*`; the reads name the table's stream.
        if (actions.every((a) => a === 'dynamodb:ListStreams' || a.startsWith('xray:'))) continue;
        if (actions.every((a) => ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'].includes(a))) continue;
        expect(JSON.stringify(statement.Resource), JSON.stringify(actions)).not.toContain('*');
        // The counter and marker grants name the table only: UpdateItem and DeleteItem have no use for an index; so does a walk's Scan.
        const tableScan = actions.length === 1 && actions[0] === 'dynamodb:Scan';
        if (!isRateLimitCounterGrant(statement) && !isOpenJobMarkerGrant(statement) && !tableScan) {
          for (const index of ['GSI1', 'GSI2', 'GSI3', 'GSI4', 'GSI5']) expect(JSON.stringify(statement.Resource)).toContain(`/index/${index}`);
        }
      }
    }
  });

  it('keeps the bucket and queues away from routes that are not export-related, and lets the enqueuing ones only send', () => {
    for (const route of [...routes, routeNotFoundRoute].filter((r) => r.cluster === 'api' && !r.scope?.scopes.includes('exports'))) {
      const statements = roleStatementsOfFunction(template, functionOfHandler(template, route.handler));
      const expected = route.needs.sendsTo.length ? ['sqs:SendMessage'] : [];
      expect(allowedActions(statements, ['s3:GetObject', 's3:PutObject', 'sqs:SendMessage', 'sqs:ReceiveMessage']), route.handler).toEqual(expected);
    }
  });

  it('feeds each worker from the queue it consumes, with the table access it states, no sends, and export-file writes only when it states them', () => {
    for (const worker of workers) {
      const statements = roleStatementsOfFunction(template, functionOfHandler(template, worker.handler));
      expect(
        allowedActions(statements, ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:SendMessage', 's3:GetObject', 's3:PutObject', 's3:AbortMultipartUpload']),
        worker.handler,
      ).toEqual([
        'sqs:ReceiveMessage',
        'sqs:DeleteMessage',
        // The webhook delivery worker re-enqueues a failed delivery and dead-letters one past its bound.
        ...(worker.needs.sendsTo.length > 0 || worker.sendsToDeadLetter ? ['sqs:SendMessage'] : []),
        ...(worker.needs.bucket === 'write'
          ? ['s3:GetObject', 's3:PutObject', 's3:AbortMultipartUpload']
          : worker.needs.bucket === 'read'
            ? ['s3:GetObject']
            : []),
      ]);
      // The dead-letter worker only moves statuses (UpdateItem) and deletes the markers of the jobs it ends; the others
      // write items (the jobs worker puts vouchers).
      if (worker.table === 'update') {
        const markers = statements.filter(isOpenJobMarkerGrant);
        expect(
          allowedActions(
            statements.filter((st) => !isOpenJobMarkerGrant(st)),
            DYNAMODB_WRITE_ACTIONS,
          ),
          worker.handler,
        ).toEqual(['dynamodb:UpdateItem']);
        expect(markers.map((st) => st.Action)).toEqual(['dynamodb:DeleteItem']);
      } else
        expect(allowedActions(statements, DYNAMODB_WRITE_ACTIONS), worker.handler).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:UpdateItem']));
    }
  });

  it('gives every job kind a queue with exactly one worker and one dead-letter consumer, each fed by one event source', () => {
    const queueIdOf = (queue: IQueue) => stacks.stateful.getLogicalId(queue.node.defaultChild as CfnElement);
    const mappings = Object.values(findResourcesOnce(template, 'AWS::Lambda::EventSourceMapping'));
    for (const kind of Object.values(jobKinds)) {
      const pair = stacks.stateful.queues.get(kind.queue);
      if (!pair) throw new Error(`no queue ${kind.queue}`);
      for (const [consumed, queue] of [
        [kind.queue, pair.queue],
        [queueNamed(kind.queue).deadLetter, pair.deadLetter],
      ] as const) {
        expect(
          workers.filter((w) => consumedQueueName(w) === consumed).map((w) => w.name),
          consumed,
        ).toHaveLength(1);
        const fed = mappings.filter((m) => JSON.stringify(m.Properties.EventSourceArn).includes(`PublishOutputFnGetAtt${queueIdOf(queue)}Arn`));
        expect(fed, consumed).toHaveLength(1);
      }
    }
  });

  it('gives the export bucket to the export jobs worker only among the workers: the jobs worker has no S3 grant and no BUCKET_NAME', () => {
    for (const worker of workers) {
      const fn = functionOfHandler(template, worker.handler);
      const statements = roleStatementsOfFunction(template, fn);
      const variables = findResourcesOnce(template, 'AWS::Lambda::Function')[fn]?.Properties.Environment.Variables as Record<string, unknown>;
      const hasBucket = worker === exportJobsWorker;
      expect(allowedActions(statements, ['s3:PutObject']).length > 0, worker.name).toBe(hasBucket);
      expect('BUCKET_NAME' in variables, worker.name).toBe(hasBucket);
    }
    expect(jobsWorker.needs.bucket).toBeNull();
  });

  it('lets the workers that walk a project (project removal, customer erasure) Scan the base table, and no other function', () => {
    const functions = Object.keys(findResourcesOnce(template, 'AWS::Lambda::Function'));
    const scanners = new Set([jobsWorker, exportJobsWorker].map((w) => functionOfHandler(template, w.handler)));
    for (const fn of functions) {
      const scans = roleStatementsOfFunction(template, fn).filter((st) => [st.Action].flat().includes('dynamodb:Scan'));
      expect(scans.length > 0, fn).toBe(scanners.has(fn));
      for (const st of scans) expect(JSON.stringify(st.Resource), fn).not.toContain('/index/');
    }
    expect(workers.filter((w) => w.scansTable).map((w) => w.name)).toEqual([jobsWorker.name, exportJobsWorker.name]);
  });

  it('lets the export bucket writers list it, so a file the lifecycle rule removed reads as missing (404), not refused', () => {
    const statements = roleStatementsOfFunction(template, functionOfHandler(template, exportJobsWorker.handler));
    expect(allowedActions(statements, ['s3:ListBucket'])).toEqual(['s3:ListBucket']);
    const list = statements.find((st) => [st.Action].flat().includes('s3:ListBucket'));
    expect(JSON.stringify(list?.Resource)).not.toContain('/*');
  });

  it.each([jobsDeadLetterWorker, exportJobsDeadLetterWorker])(
    'feeds $name from its dead-letter queue only, with status updates and nothing else',
    (deadLetterWorker) => {
      const jobs = queueNamed(deadLetterWorker.queue);
      const queueIdOf = (queue: IQueue) => stacks.stateful.getLogicalId(queue.node.defaultChild as CfnElement);
      const pair = stacks.stateful.queues.get(jobs.name);
      if (!pair) throw new Error('no jobs queue');
      const deadLetterQueueId = queueIdOf(pair.deadLetter);
      const fn = functionOfHandler(template, deadLetterWorker.handler);
      const outputOf = (queueId: string) =>
        Match.objectLike({ 'Fn::GetStackOutput': Match.objectLike({ OutputName: Match.stringLikeRegexp(`^PublishOutputFnGetAtt${queueId}Arn`) }) });
      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: { Ref: fn },
        EventSourceArn: outputOf(deadLetterQueueId),
        BatchSize: deadLetterWorker.batchSize,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
      const mappings = Object.values(findResourcesOnce(template, 'AWS::Lambda::EventSourceMapping')).filter(
        (m) => JSON.stringify(m.Properties.FunctionName) === JSON.stringify({ Ref: fn }),
      );
      expect(mappings).toHaveLength(1);
      const statements = roleStatementsOfFunction(template, fn);
      const sqsStatements = statements.filter((st) => [st.Action].flat().some((a) => a.startsWith('sqs:')));
      expect(sqsStatements.map((st) => JSON.stringify(st.Resource))).toEqual([JSON.stringify(mappings[0]?.Properties.EventSourceArn)]);
      expect(JSON.stringify(sqsStatements)).not.toContain(queueIdOf(pair.queue));
      expect(
        allowedActions(statements, [
          'sqs:ReceiveMessage',
          'sqs:DeleteMessage',
          'sqs:ChangeMessageVisibility',
          'sqs:SendMessage',
          'sqs:PurgeQueue',
          's3:GetObject',
          's3:PutObject',
        ]),
      ).toEqual(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility']);
      // Besides status moves, only DeleteItem of open-job markers (the move that ends a job deletes its marker).
      const unconditioned = statements.filter((st) => !isOpenJobMarkerGrant(st));
      expect(allowedActions(unconditioned, [...DYNAMODB_WRITE_ACTIONS, 'dynamodb:Scan'])).toEqual(['dynamodb:UpdateItem']);
      expect(allowedActions(statements, [...DYNAMODB_WRITE_ACTIONS, 'dynamodb:Scan'])).toEqual(['dynamodb:UpdateItem', 'dynamodb:DeleteItem']);
      expect(allowedActions(statements, ['dynamodb:GetItem'])).toEqual(['dynamodb:GetItem']);
      const variables = findResourcesOnce(template, 'AWS::Lambda::Function')[fn]?.Properties.Environment.Variables as Record<string, unknown>;
      expect(Object.keys(variables).sort()).toEqual(['CLUSTER', queueUrlVariables(jobs).deadLetter, 'NODE_OPTIONS', 'TABLE_NAME'].sort());
      template.hasResourceProperties('AWS::Lambda::Function', {
        Timeout: deadLetterWorker.timeoutSeconds,
        Description: Match.stringLikeRegexp(`^worker ${deadLetterWorker.name}`),
      });
    },
  );

  it('runs the points expiry worker on an EventBridge schedule: a rate rule targeting its function, which may write the table and nothing else', () => {
    const fn = functionOfHandler(template, pointsExpiryWorker.handler);
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: Schedule.rate(Duration.minutes(pointsExpiryWorker.everyMinutes)).expressionString,
      State: 'ENABLED',
      Targets: Match.arrayWith([
        Match.objectLike({ Arn: { 'Fn::GetAtt': [fn, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 3600 } }),
      ]),
    });
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'events.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [fn, 'Arn'] },
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Timeout: pointsExpiryWorker.timeoutSeconds,
      Description: Match.stringLikeRegexp('^worker points-expiry-worker'),
    });
    const statements = roleStatementsOfFunction(template, fn);
    expect(allowedActions(statements, ['dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'])).toEqual([
      'dynamodb:Query',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
    ]);
    expect(allowedActions(statements, ['dynamodb:Scan', 's3:PutObject', 'sqs:SendMessage'])).toEqual([]);
    const variables = findResourcesOnce(template, 'AWS::Lambda::Function')[fn]?.Properties.Environment.Variables as Record<string, unknown>;
    expect(Object.keys(variables).sort()).toEqual(['CLUSTER', 'NODE_OPTIONS', 'TABLE_NAME']);
  });

  it('keeps every route function, with its integration, route and invoke permission, in the nested stack of its tag', () => {
    const parent = Template.fromStack(stacks.stateless);
    // The parent holds the workers' functions only, and no route, integration or invoke permission.
    expect(
      Object.values(parent.findResources('AWS::Lambda::Function'))
        .map((f) => f.Metadata?.[HANDLER_METADATA_KEY])
        .sort(),
    ).toEqual([...workers, ...scheduledWorkers, ...streamWorkers].map((w) => w.handler).sort());
    for (const type of ['AWS::ApiGatewayV2::Route', 'AWS::ApiGatewayV2::Integration']) parent.resourceCountIs(type, 0);
    // The one invoke permission each scheduled worker's rule needs; no route's.
    parent.resourceCountIs('AWS::Lambda::Permission', scheduledWorkers.length);
    const groupOfHandler = new Map([...routes, routeNotFoundRoute].map((r) => [r.handler, routeGroupOf(r)]));
    const nested = nestedStacksOf(stacks.stateless);
    expect(nested.map((n) => n.node.id).sort()).toEqual([...new Set(groupOfHandler.values())].sort());
    parent.resourceCountIs('AWS::CloudFormation::Stack', nested.length);
    let served = 0;
    for (const stack of nested) {
      const child = Template.fromStack(stack);
      const handlers = Object.values(child.findResources('AWS::Lambda::Function')).map((f) => f.Metadata?.[HANDLER_METADATA_KEY] as string);
      expect(handlers.length, stack.node.id).toBeGreaterThan(0);
      for (const handler of handlers) expect(groupOfHandler.get(handler), handler).toBe(stack.node.id);
      // Each route's integration and invoke permission sit beside it (the fallback serves both APIs: two of each).
      const routeCount = Object.keys(child.findResources('AWS::ApiGatewayV2::Route')).length;
      child.resourceCountIs('AWS::ApiGatewayV2::Integration', routeCount);
      child.resourceCountIs('AWS::Lambda::Permission', routeCount);
      served += routeCount;
    }
    expect(served).toBe(routes.length + 2);
  });

  it("throttles both APIs' default stage and writes JSON access logs without headers", () => {
    for (const apiId of [api, downloadApi]) {
      template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
        ApiId: { Ref: apiId },
        StageName: '$default',
        AutoDeploy: true,
        DefaultRouteSettings: { ThrottlingRateLimit: infraConfig.api.throttle.rateLimit, ThrottlingBurstLimit: infraConfig.api.throttle.burstLimit },
        AccessLogSettings: { DestinationArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('AccessLogs'), 'Arn'] }, Format: Match.anyValue() },
      });
    }
    for (const stage of Object.values(findResourcesOnce(template, 'AWS::ApiGatewayV2::Stage'))) {
      const format = JSON.parse(stage.Properties.AccessLogSettings.Format) as Record<string, string>;
      expect(format.requestId).toBe('$context.requestId');
      expect(Object.values(format).filter((v) => /header|authorization|querystring/i.test(v))).toEqual([]);
    }
  });

  it("outputs the API URL, the download URL and the operator CLI's arguments", () => {
    template.hasOutput('ApiUrl', { Value: Match.anyValue() });
    template.hasOutput('DownloadUrl', { Value: Match.anyValue() });
    const admin = JSON.stringify(template.findOutputs('AdminCommand'));
    expect(admin).toContain(`--stage ${label} --table `);
    expect(admin).toContain(`--region ${stacks.stateless.region}`);
  });

  it('has no custom domain unless one is configured', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::DomainName', 0);
  });
});

describe('rows that arrive later', () => {
  const downloadRoute: RouteDef = {
    ...routeNotFoundRoute,
    operationId: 'download-export-fixture',
    method: 'GET',
    path: '/v1/exports/{exportId}',
    handler: 'functions/oauth/introspect-oauth-token.ts',
    cluster: 'download',
    access: 'read',
    needs: { bucket: 'read', sendsTo: [], env: [] },
  };
  const exportRoute: RouteDef = {
    ...routeNotFoundRoute,
    operationId: 'create-export-fixture',
    method: 'POST',
    path: '/v1/exports',
    handler: 'functions/oauth/generate-oauth-token.ts',
    cluster: 'api',
    access: 'write',
    scope: { side: 'server', scopes: ['exports'] },
    needs: { bucket: 'read', sendsTo: [resources.queues[0].name], env: [] },
  };
  const bulkRoute = {
    ...routeNotFoundRoute,
    operationId: 'bulk-fixture',
    method: 'POST',
    path: '/v1/bulk-fixture',
    handler: 'functions/http/route-not-found.ts',
    access: 'write',
    needs: { bucket: null, sendsTo: [resources.queues[0].name], env: [] },
  } as RouteDef;
  const worker: WorkerDef = {
    name: 'export-fixture',
    queue: resources.queues[0].name,
    handler: 'functions/http/route-not-found.ts',
    batchSize: 5,
    timeoutSeconds: 60,
    summary: 'fixture worker',
    needs: { bucket: null, sendsTo: [], env: [] },
  };
  const { built: later } = buildTestApp({
    pipeline: false,
    nag: false,
    clusters: ['api'],
    // The real table's own GET /v1/exports/{exportId} rows are left out: the fixtures stand in for them.
    routes: [...routes.filter((r) => r.path !== '/v1/exports/{exportId}'), downloadRoute, exportRoute, bulkRoute],
    workers: [worker],
  });
  const stack = later.regions.get('api')?.stateless;
  if (!stack) throw new Error('no api stack');
  const template = flattenedTemplate(stack);
  const functionOf = (operationId: string): string => {
    const fn = stack.functions.get(operationId);
    if (!fn) throw new Error(operationId);
    return Stack.of(fn).getLogicalId(fn.node.defaultChild as never);
  };

  it('puts a download-cluster route on the download API only, beside its $default', () => {
    const download = routesOfApi(template, apiNamed(template, `${infraConfig.appName}-api-download`)).map((r) => r.routeKey);
    expect(download.sort()).toEqual(['$default', 'GET /v1/exports/{exportId}']);
    const main = routesOfApi(template, apiNamed(template, `${infraConfig.appName}-api`)).map((r) => r.routeKey);
    expect(main).not.toContain('GET /v1/exports/{exportId}');
    expect(main).toContain('POST /v1/exports');
  });

  it('lets the download route read export files but not write them or the table', () => {
    const statements = roleStatementsOfFunction(template, functionOf(downloadRoute.operationId));
    expect(allowedActions(statements, ['s3:GetObject', 's3:PutObject', ...DYNAMODB_WRITE_ACTIONS])).toEqual(['s3:GetObject']);
  });

  it('lets an exports-scope route enqueue jobs and read files', () => {
    const statements = roleStatementsOfFunction(template, functionOf(exportRoute.operationId));
    expect(allowedActions(statements, ['sqs:SendMessage', 's3:GetObject', 's3:PutObject'])).toEqual(['sqs:SendMessage', 's3:GetObject']);
  });

  it('gives a route that states the queues it sends to exactly those, and no bucket', () => {
    const statements = roleStatementsOfFunction(template, functionOf(bulkRoute.operationId));
    expect(allowedActions(statements, ['sqs:SendMessage', 's3:GetObject', 's3:PutObject'])).toEqual(['sqs:SendMessage']);
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('^POST /v1/bulk-fixture'),
      Environment: { Variables: Match.objectLike({ JOBS_QUEUE_URL: Match.anyValue() }) },
    });
  });

  it('feeds a worker from its queue in batches of its batch size, reporting partial failures', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: functionOf(`worker:${worker.name}`) },
      BatchSize: worker.batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    template.hasResourceProperties('AWS::Lambda::Function', { Timeout: worker.timeoutSeconds, Description: Match.stringLikeRegexp('^worker export-fixture') });
    expect(allowedActions(roleStatementsOfFunction(template, functionOf(`worker:${worker.name}`)), ['sqs:ReceiveMessage', 'sqs:DeleteMessage'])).toEqual([
      'sqs:ReceiveMessage',
      'sqs:DeleteMessage',
    ]);
  });

  it("refuses a worker whose timeout the queue's visibility timeout cannot cover", () => {
    const { app, built: plain } = buildTestApp({ pipeline: false, nag: false, clusters: ['api'], workers: [] });
    const stateful = plain.regions.get('api')?.stateful;
    if (!stateful) throw new Error('no api stack');
    const tooSlow: WorkerDef = { ...worker, name: 'too-slow', timeoutSeconds: infraConfig.defaultWorkerTimeoutSeconds + 1 };
    const cluster = { label: 'api' as const, region: stateful.region };
    expect(
      () =>
        new StatelessStack(app, 'TooSlow', {
          env: { account: infraConfig.account, region: stateful.region },
          cluster,
          config: infraConfig,
          stateful,
          routes,
          routeNotFoundRoute,
          workers: [tooSlow],
        }),
    ).toThrow(/visibility timeout/);
  });
});

describe('custom domains', () => {
  const { built: withDomains } = buildTestApp({ pipeline: false, nag: false, clusters: ['api', 'us1'], config: withDomain(infraConfig) });

  it.each([
    ['api', 'api.example.com', 'download.example.com'],
    ['us1', 'us1.api.example.com', 'us1.download.example.com'],
  ] as const)('serves %s on %s and %s with a DNS-validated certificate and alias records', (label, apiHost, downloadHost) => {
    const stack = withDomains.regions.get(label)?.stateless;
    if (!stack) throw new Error(label);
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::CertificateManager::Certificate', {
      DomainName: apiHost,
      SubjectAlternativeNames: [downloadHost],
      ValidationMethod: 'DNS',
    });
    for (const host of [apiHost, downloadHost]) {
      template.hasResourceProperties('AWS::ApiGatewayV2::DomainName', { DomainName: host });
      template.hasResourceProperties('AWS::Route53::RecordSet', { Name: `${host}.`, Type: 'A', HostedZoneId: 'Z0123456789EXAMPLE' });
    }
    template.resourceCountIs('AWS::ApiGatewayV2::ApiMapping', 2);
    template.hasOutput('ApiUrl', { Value: `https://${apiHost}/` });
    template.hasOutput('DownloadUrl', { Value: `https://${downloadHost}/` });
  });

  it("keeps the stack and each of its nested stacks under CloudFormation's 500 resources with room for thirty more routes, custom domains included", () => {
    const stack = withDomains.regions.get('api')?.stateless;
    if (!stack) throw new Error('api');
    // A route costs a function, an integration, a route and an invoke permission, all in the nested stack of its tag
    // (docs/decisions.md, "Route functions in nested stacks"); its role is shared with the routes that have the same
    // grants and stays in the parent ("Route roles shared by grants"). When a nested stack fails this, split its tag.
    const nested = nestedStacksOf(stack);
    expect(nested.length).toBeGreaterThan(1);
    for (const s of [stack, ...nested]) expect(resourceCountOf(s), s.node.path).toBeLessThanOrEqual(500 - 4 * 30);
    // CloudFormation allows 200 parameters per template: each reference to the parent (a role, an API, the log group) is one.
    for (const s of nested) expect(Object.keys(Template.fromStack(s).toJSON().Parameters ?? {}).length, s.node.path).toBeLessThanOrEqual(50);
    // The functions share one log group, so the stack's log groups do not grow with the routes.
    expect(Object.keys(Template.fromStack(stack).findResources('AWS::Logs::LogGroup')).length).toBe(3);
  });
});

describe('routes added to the table', () => {
  /**
   * The route table with a copy of each of its first `count` rows inserted right after it (a new operation on a new
   * path, in `tag` or the row's own tag): rows added in the middle of the table, as new issues add them.
   */
  const withExtraRows = (count: number, tag?: string): RouteDef[] =>
    routes.flatMap((row, i) =>
      i < count ? [row, { ...row, operationId: `${row.operationId}-extra-${i}`, path: `/v1/extra-${i}${row.path}`, tag: tag ?? row.tag }] : [row],
    );
  const statelessOf = (rows: readonly RouteDef[]) => {
    const stack = buildTestApp({ pipeline: false, nag: false, clusters: ['api'], routes: rows }).built.regions.get('api')?.stateless;
    if (!stack) throw new Error('no api stack');
    return stack;
  };
  const idsByGroup = (stack: StatelessStack): Map<string, string[]> =>
    new Map(nestedStacksOf(stack).map((n) => [n.node.id, Object.keys(Template.fromStack(n).toJSON().Resources ?? {})]));
  const base = statelessOf(routes);
  const grown = statelessOf(withExtraRows(40));

  it("leave the parent stack's resource count as it was when they join existing tags: it does not grow with the routes", () => {
    expect(grown.functions.size).toBe(base.functions.size + 40);
    expect(resourceCountOf(grown)).toBe(resourceCountOf(base));
  });

  it('leave every existing resource in its nested stack under its logical id, and only add to their own tags', () => {
    const before = idsByGroup(base);
    const after = idsByGroup(grown);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    const extraGroups = new Set(routes.slice(0, 40).map(routeGroupOf));
    for (const [group, ids] of before) {
      expect(after.get(group), group).toEqual(expect.arrayContaining(ids));
      if (!extraGroups.has(group)) expect(after.get(group), group).toEqual(ids);
    }
    for (const stack of nestedStacksOf(grown)) expect(resourceCountOf(stack), stack.node.path).toBeLessThanOrEqual(500 - 4 * 30);
  });

  it('cost the parent one resource, the nested stack, for a tag of their own', () => {
    const newTag = statelessOf(withExtraRows(30, 'Fixture Tag'));
    expect(resourceCountOf(newTag)).toBe(resourceCountOf(base) + 1);
    expect(newTag.routeGroups.get(routeGroupOf({ tag: 'Fixture Tag' }))?.node.id).toBe('RoutesFixtureTag');
  });
});
