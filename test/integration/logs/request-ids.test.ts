import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { makeHandler as makeGetVoucher } from '../../../functions/vouchers/get-voucher.js';
import { makeHandler as makeWorker } from '../../../functions/workers/jobs-worker.js';
import { lambdaContext, toApiGatewayEvent, type HttpRequestParts } from '../../../infra/local/api-gateway-event.js';
import { endpoint, type ApiEvent } from '../../../lib/http/endpoint.js';
import { createLogger } from '../../../lib/logger.js';
import type { Runtime } from '../../../lib/runtime.js';
import { probeRoute } from '../../support/probe-endpoint.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';
import { sqsRecord } from '../../support/sqs-record.js';

/** What API Gateway (HTTP API) and Lambda put in an event and a context, in their own formats. */
const APIGW_ID = 'JKJaXmPLoAMEScg=';
const LAMBDA_ID = '3f4e2a1c-9b7d-4e8f-a6c5-0d1e2f3a4b5c';

type Line = Record<string, unknown>;

/** A runtime on the test engines whose log lines (all levels, as written) are kept. */
function loggedRuntime(): { runtime: Runtime; lines: () => Line[] } {
  const written: string[] = [];
  const runtime = testRuntime({ logger: createLogger('debug', (line) => written.push(line)) });
  return { runtime, lines: () => written.map((l) => JSON.parse(l) as Line) };
}

function apiEvent(parts: HttpRequestParts, apigwRequestId: string | undefined): ApiEvent {
  const event = toApiGatewayEvent(parts);
  if (apigwRequestId === undefined) delete (event.requestContext as Partial<ApiEvent['requestContext']>).requestId;
  else event.requestContext.requestId = apigwRequestId;
  return event;
}

const context = (functionName: string): Context => ({ ...lambdaContext(functionName), awsRequestId: LAMBDA_ID });

/** The same client, except that counting requests for the rate limit fails (a warning the rate-limit code logs). */
function withFailingRateCounter(ddb: DynamoDBDocumentClient): DynamoDBDocumentClient {
  const send = ddb.send.bind(ddb) as (command: unknown) => Promise<unknown>;
  return new Proxy(ddb, {
    get: (target, property, receiver) =>
      property === 'send'
        ? (command: unknown) =>
            command instanceof UpdateCommand && String(command.input.Key?.PK).includes('#RATE#')
              ? Promise.reject(new Error('counter unavailable'))
              : send(command)
        : Reflect.get(target, property, receiver),
  });
}

describe('request ids in replies and logs', () => {
  it("answers with API Gateway's request id, and every line the request logs, a service's too, carries both ids", async () => {
    const { runtime, lines } = loggedRuntime();
    const pair = await newProject(runtime);
    const before = lines().length;
    const metered: Runtime = { ...runtime, rateLimit: { limit: 100, windowSeconds: 60 }, ddb: withFailingRateCounter(runtime.ddb) };

    const event = apiEvent({ method: 'GET', rawPath: '/v1/vouchers/NOPE', headers: keyPairHeaders(pair), pathParameters: { code: 'NOPE' } }, APIGW_ID);
    const reply = await makeGetVoucher({ runtime: metered })(event, context('get-voucher'));

    expect(reply.statusCode).toBe(404);
    expect(JSON.parse(reply.body ?? '{}')).toMatchObject({ key: 'not_found', request_id: APIGW_ID });
    expect(reply.headers?.['X-Request-Id']).toBe(APIGW_ID);
    const logged = lines().slice(before);
    expect(logged.map((l) => l.message)).toEqual(expect.arrayContaining(['rate limit counter failed; request not metered', 'request']));
    for (const line of logged) expect(line).toMatchObject({ request_id: APIGW_ID, apigw_request_id: APIGW_ID, lambda_request_id: LAMBDA_ID });
  });

  it("stamps both ids on the lines of a failed request: the handler's own, the unhandled error and the request line", async () => {
    const { runtime, lines } = loggedRuntime();
    const pair = await newProject(runtime);
    const before = lines().length;
    const failing = endpoint(probeRoute, {}, async ({ runtime: used }) => {
      used.logger.info('about to fail');
      throw new Error('boom');
    });

    const event = apiEvent({ method: 'DELETE', rawPath: '/v1/probe/X', headers: keyPairHeaders(pair), pathParameters: { code: 'X' } }, APIGW_ID);
    const reply = await failing({ runtime })(event, context('test-probe'));

    expect(reply.statusCode).toBe(500);
    expect(JSON.parse(reply.body ?? '{}')).toMatchObject({ key: 'internal_server_error', request_id: APIGW_ID });
    const logged = lines().slice(before);
    expect(logged.map((l) => l.message)).toEqual(['about to fail', 'unhandled error', 'request']);
    for (const line of logged) expect(line).toMatchObject({ request_id: APIGW_ID, apigw_request_id: APIGW_ID, lambda_request_id: LAMBDA_ID });
  });

  it("makes up a request id when the event has none (no API Gateway in front), and logs it beside Lambda's", async () => {
    const { runtime, lines } = loggedRuntime();
    const pair = await newProject(runtime);
    const before = lines().length;

    const event = apiEvent({ method: 'GET', rawPath: '/v1/vouchers/NOPE', headers: keyPairHeaders(pair), pathParameters: { code: 'NOPE' } }, undefined);
    const reply = await makeGetVoucher({ runtime })(event, context('get-voucher'));

    const requestId = (JSON.parse(reply.body ?? '{}') as Line).request_id;
    expect(requestId).toMatch(/^v-[0-9a-f]{18}$/);
    expect(reply.headers?.['X-Request-Id']).toBe(requestId);
    const logged = lines().slice(before);
    expect(logged.length).toBeGreaterThan(0);
    for (const line of logged) {
      expect(line).toMatchObject({ request_id: requestId, lambda_request_id: LAMBDA_ID });
      expect(line).not.toHaveProperty('apigw_request_id');
    }
  });

  it("stamps the Lambda request id and the SQS message id on a worker's lines", async () => {
    const { runtime, lines } = loggedRuntime();
    const record = sqsRecord(JSON.stringify({ type: 'no-such-job' }));

    const result = await makeWorker({ runtime })({ Records: [record] }, context('jobs-worker'));

    expect(result.batchItemFailures).toEqual([{ itemIdentifier: record.messageId }]);
    const logged = lines();
    expect(logged.map((l) => l.message)).toEqual(['malformed job message']);
    expect(logged[0]).toMatchObject({ lambda_request_id: LAMBDA_ID, message_id: record.messageId });
  });
});
