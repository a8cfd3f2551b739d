import { type App, NestedStack, Stack } from 'aws-cdk-lib';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { infraConfig } from '../../infra/config.js';
import { resources } from '../../lib/api/resources.js';
import { routeNotFoundRoute, routes } from '../../lib/api/routes.js';
import type { RouteDef } from '../../lib/api/route.js';
import { addNagChecks } from '../../infra/stacks/promo-engine-app.js';
import { buildTestApp, testApp, withDomain } from './infra-support.js';

/** cdk-nag's unacknowledged findings under `scope`, one line per rule and resource. */
function findings(scope: IConstruct): string[] {
  const report = new AwsSolutionsChecks().validateScope(scope);
  return report.violations.flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} (${v.severity}) at ${r.constructPath}: ${v.description}`));
}

/** Synthesizes with the app's own nag plugin: in memory, any violation (error or warning) throws. */
function synthError(app: App): unknown {
  try {
    app.synth();
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('cdk-nag AwsSolutions', () => {
  it('finds nothing unacknowledged in the deployed app: three regions and the pipeline', () => {
    const { app, built } = buildTestApp();
    expect(built.regions.size).toBe(infraConfig.clusters.length);
    expect(built.pipeline).not.toBeNull();
    const error = synthError(app);
    expect(findings(app)).toEqual([]);
    expect(error).toBeUndefined();
  });

  it('finds nothing unacknowledged once download and export routes, a worker and custom domains exist', () => {
    const later: RouteDef[] = [
      {
        ...routeNotFoundRoute,
        operationId: 'download-fixture',
        method: 'GET',
        path: '/v1/exports/{id}',
        handler: 'functions/oauth/introspect-oauth-token.ts',
        cluster: 'download',
        needs: { bucket: 'read', sendsTo: [], env: [] },
      },
      {
        ...routeNotFoundRoute,
        operationId: 'export-fixture',
        method: 'POST',
        path: '/v1/exports',
        handler: 'functions/oauth/generate-oauth-token.ts',
        access: 'write',
        scope: { side: 'server', scopes: ['exports'] },
        needs: { bucket: 'read', sendsTo: [resources.queues[0].name], env: ['DOWNLOAD_BASE_URL'] },
      },
    ];
    const { app } = buildTestApp({
      pipeline: false,
      clusters: ['api'],
      config: withDomain(infraConfig),
      routes: [...routes, ...later],
      workers: [
        {
          name: 'export-worker-fixture',
          queue: resources.queues[0].name,
          handler: 'functions/http/route-not-found.ts',
          batchSize: 10,
          timeoutSeconds: 60,
          summary: 'fixture',
          needs: { bucket: 'write', sendsTo: [], env: [] },
        } as never,
      ],
    });
    const error = synthError(app);
    expect(findings(app)).toEqual([]);
    expect(error).toBeUndefined();
  });

  it('does report a non-compliant resource, so a clean result means something', () => {
    const app = testApp();
    new Bucket(new Stack(app, 'Careless'), 'OpenBucket');
    const found = findings(app);
    expect(found.some((f) => f.startsWith('AwsSolutions-S1 '))).toBe(true);
    expect(found.some((f) => f.startsWith('AwsSolutions-S10 '))).toBe(true);
  });

  it('looks into nested stacks (where the route functions live), both in a scan and when synthesizing', () => {
    const app = testApp();
    addNagChecks(app);
    new Bucket(new NestedStack(new Stack(app, 'Parent'), 'Careless'), 'OpenBucket');
    expect(findings(app).some((f) => f.startsWith('AwsSolutions-S1 ') && f.includes('Parent/Careless/OpenBucket'))).toBe(true);
    expect(String(synthError(app))).toMatch(/AwsSolutions-S1/);
  });

  it("applies the route functions' acknowledgements inside their nested stacks", () => {
    const { built } = buildTestApp({ pipeline: false, nag: false, clusters: ['api'] });
    const stateless = built.regions.get('api')?.stateless;
    if (!stateless) throw new Error('no api stack');
    const group = [...stateless.routeGroups.values()][0];
    if (!group) throw new Error('no route group');
    // Unacknowledged, each function (Node 22: AwsSolutions-L1) and each route (no authorizer: AwsSolutions-APIG4) is a
    // finding; the acknowledgements sit on the function and the route themselves, so they hold in any stack.
    expect(findings(group)).toEqual([]);
  });
});
