import type { Construct } from 'constructs';
import type { RouteDef } from '../../lib/api/route.js';
import type { ClusterConfig, InfraConfig } from '../config.js';
import type { WorkerDef } from '../../lib/api/workers.js';
import { StatefulStack } from './stateful-stack.js';
import { StatelessStack } from './stateless-stack.js';

/** What one region is built from: the config, and the route and worker tables. */
export interface RegionInputs {
  config: InfraConfig;
  cluster: ClusterConfig;
  routes: readonly RouteDef[];
  routeNotFoundRoute: RouteDef;
  workers: readonly WorkerDef[];
}

export interface RegionStacks {
  stateful: StatefulStack;
  stateless: StatelessStack;
}

/** CloudFormation stack names of a cluster; the same whether deployed by hand or by the pipeline. */
export function regionStackNames(config: InfraConfig, cluster: ClusterConfig): { stateful: string; stateless: string } {
  const prefix = `${config.appName}-${cluster.label}`;
  return { stateful: `${prefix}-Stateful`, stateless: `${prefix}-Stateless` };
}

/**
 * The stateful/stateless pair of one region under `scope` (the app, or a pipeline stage), with
 * ids `idPrefix + Stateful|Stateless` and fixed stack names.
 */
export function addRegionStacks(scope: Construct, idPrefix: string, inputs: RegionInputs): RegionStacks {
  const { config, cluster } = inputs;
  const env = { account: config.account, region: cluster.region };
  const names = regionStackNames(config, cluster);
  const stateful = new StatefulStack(scope, `${idPrefix}Stateful`, {
    env,
    stackName: names.stateful,
    description: `Promotion engine ${cluster.label}: table, export bucket, job queues (data; retained on delete)`,
    terminationProtection: true,
    cluster,
    config,
    workers: inputs.workers,
  });
  const stateless = new StatelessStack(scope, `${idPrefix}Stateless`, {
    env,
    stackName: names.stateless,
    description: `Promotion engine ${cluster.label}: functions, HTTP APIs, workers`,
    cluster,
    config,
    stateful,
    routes: inputs.routes,
    routeNotFoundRoute: inputs.routeNotFoundRoute,
    workers: inputs.workers,
  });
  stateless.addStackDependency(stateful, 'reads the table, bucket and queues');
  return { stateful, stateless };
}
