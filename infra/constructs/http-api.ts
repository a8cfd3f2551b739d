import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { DomainName, HttpApi, HttpMethod, HttpRoute, HttpRouteKey, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { ARecord, AaaaRecord, type IHostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { ApiGatewayv2DomainProperties } from 'aws-cdk-lib/aws-route53-targets';
import { Construct } from 'constructs';
import type { RouteDef } from '../../lib/api/route.js';
import type { LogRetentionDays } from '../config.js';
import { retentionOf } from './house-function.js';

export interface RouteTableApiProps {
  apiName: string;
  description: string;
  throttle: { rateLimit: number; burstLimit: number };
  logRetentionDays: LogRetentionDays;
  /** A custom domain for the API's default stage, with its certificate and zone. */
  customDomain?: { hostName: string; certificate: ICertificate; zone: IHostedZone };
}

/**
 * One field per `$context` variable; no request header is logged (they carry `X-App-Token` and
 * bearer tokens), nor the query string (download links carry a token).
 */
const accessLogFields = {
  requestId: '$context.requestId',
  // The Lambda request id of the invocation: the access log line joins Lambda's own log without the function's lines.
  lambdaRequestId: '$context.integration.requestId',
  requestTime: '$context.requestTimeEpoch',
  ip: '$context.identity.sourceIp',
  method: '$context.httpMethod',
  path: '$context.path',
  routeKey: '$context.routeKey',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationStatus: '$context.integrationStatus',
  integrationError: '$context.integrationErrorMessage',
  error: '$context.error.message',
} as const;

/** Why routes carry no API Gateway authorizer (cdk-nag AwsSolutions-APIG4), acknowledged on each route. */
const NO_AUTHORIZER_REASON =
  'Every request is authenticated inside its handler, as the Voucherify API specifies: the X-App-Id/X-App-Token key pair or an OAuth bearer token, checked against the table, with per-endpoint scopes and IP allow-lists. An API Gateway authorizer cannot express the key-pair scheme and would add a second Lambda call per request; $default answers only 404/405.';

export const routeKeyOf = (route: RouteDef): string => (route.path === '$default' ? '$default' : `${route.method} ${route.path}`);

/**
 * An API Gateway HTTP API whose routes are rows of the route table, each integrated with the
 * function built from its handler module. Its `$default` stage is throttled and writes JSON
 * access logs to its own log group. Authentication happens in the handlers (the spec's key pair
 * and OAuth tokens), so routes carry no API Gateway authorizer.
 */
export class RouteTableApi extends Construct {
  readonly api: HttpApi;
  readonly stage: HttpStage;
  /** The URL clients use: the custom domain's when there is one, else the execute-api one. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: RouteTableApiProps) {
    super(scope, id);
    this.api = new HttpApi(this, 'Api', {
      apiName: props.apiName,
      description: props.description,
      createDefaultStage: false,
    });
    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: retentionOf(props.logRetentionDays),
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const domainName = props.customDomain
      ? new DomainName(this, 'DomainName', { domainName: props.customDomain.hostName, certificate: props.customDomain.certificate })
      : undefined;
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(accessLogFields)),
      },
      ...(domainName ? { domainMapping: { domainName } } : {}),
    });
    if (props.customDomain && domainName) {
      const target = RecordTarget.fromAlias(new ApiGatewayv2DomainProperties(domainName.regionalDomainName, domainName.regionalHostedZoneId));
      new ARecord(this, 'AliasRecord', { zone: props.customDomain.zone, recordName: props.customDomain.hostName, target });
      new AaaaRecord(this, 'AliasRecordIpv6', { zone: props.customDomain.zone, recordName: props.customDomain.hostName, target });
      this.url = `https://${props.customDomain.hostName}/`;
    } else {
      this.url = this.stage.url;
    }
  }

  /**
   * Adds one row of the route table, integrated with `fn`. The route, its integration and the invoke
   * permission are made under `scope` (the nested stack of the route's function), named after this API
   * and the operation, so one function can serve both APIs from one scope.
   */
  addRoute(route: RouteDef, fn: IFunction, scope: Construct): HttpRoute {
    const routeKey = route.path === '$default' ? HttpRouteKey.DEFAULT : HttpRouteKey.with(route.path, HttpMethod[route.method]);
    const id = `${this.node.id}-${route.operationId}`;
    const httpRoute = new HttpRoute(scope, `Route-${id}`, {
      httpApi: this.api,
      routeKey,
      integration: new HttpLambdaIntegration(`Integration-${id}`, fn),
    });
    // On the route itself: it lives in a nested stack, outside the API's construct subtree.
    Validations.of(httpRoute).acknowledge({ id: 'AwsSolutions-APIG4', reason: NO_AUTHORIZER_REASON });
    return httpRoute;
  }
}
