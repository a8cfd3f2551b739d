import { type App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { RouteDef } from '../../lib/api/route.js';
import type { ClusterLabel, InfraConfig } from '../config.js';
import { PipelineStack } from '../pipeline/pipeline-stack.js';
import type { WorkerDef } from '../../lib/api/workers.js';
import { addRegionStacks, type RegionInputs, type RegionStacks } from './region-stacks.js';

export interface PromoEngineAppOptions {
  config: InfraConfig;
  routes: readonly RouteDef[];
  routeNotFoundRoute: RouteDef;
  workers: readonly WorkerDef[];
  /** Build only these clusters (default: all configured). */
  clusters?: readonly ClusterLabel[];
  /** Add the deploy pipeline stack (default: true). */
  pipeline?: boolean;
  /** Run cdk-nag's AwsSolutions pack during synthesis (default: true). */
  nag?: boolean;
}

export interface PromoEngineApp {
  regions: ReadonlyMap<ClusterLabel, RegionStacks>;
  pipeline: PipelineStack | null;
}

/**
 * Adds the whole deployment to `app`: for each cluster its stateful and stateless stacks (for a
 * manual `cdk deploy`), the pipeline that deploys the same stacks in order, and cdk-nag.
 */
export function buildPromoEngineApp(app: App, options: PromoEngineAppOptions): PromoEngineApp {
  const { config } = options;
  const wanted = new Set(options.clusters ?? config.clusters.map((c) => c.label));
  const inputs = new Map<ClusterLabel, RegionInputs>();
  for (const cluster of config.clusters) {
    inputs.set(cluster.label, { config, cluster, routes: options.routes, routeNotFoundRoute: options.routeNotFoundRoute, workers: options.workers });
  }

  const regions = new Map<ClusterLabel, RegionStacks>();
  for (const [label, regionInputs] of inputs) {
    if (wanted.has(label)) regions.set(label, addRegionStacks(app, `${config.appName}-${label}-`, regionInputs));
  }

  const pipeline =
    options.pipeline === false
      ? null
      : new PipelineStack(app, `${config.appName}-Pipeline`, {
          env: { account: config.account, region: config.pipeline.region },
          stackName: `${config.appName}-Pipeline`,
          description: 'Promotion engine deploy pipeline: test, synthesize, deploy the regions in order',
          regions: inputs,
        });

  if (options.nag !== false) addNagChecks(app);
  return { regions, pipeline };
}

/** Registers cdk-nag (v3: a policy-validation plugin); any unacknowledged finding fails synthesis. */
export function addNagChecks(app: App): void {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
}
