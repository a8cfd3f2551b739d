/**
 * Every deployed function once, from the route and worker tables: what `cdk synth` bundles in its
 * one build (HouseFunction) and what `npm run bundle-sizes` prints.
 */
import { routeNotFoundRoute, routes } from '../../lib/api/routes.js';
import { scheduledWorkers, workers } from '../../lib/api/workers.js';
import type { BundleRequest } from './handler-bundles.js';

export interface BundleTarget extends BundleRequest {
  kind: 'api' | 'worker';
  label: string;
  /** Handler module, relative to the repository root. */
  handler: string;
  /** Whether the function reads or writes the export bucket (its route's or worker's `bucket`). */
  usesS3: boolean;
  /** Whether it sends queue messages (a non-empty `sendsTo`). */
  usesSqs: boolean;
}

/** Every deployed function once: the route table's handlers (with `$default`), the queue workers and the scheduled workers. */
export function bundleTargets(): BundleTarget[] {
  const byHandler = new Map<string, BundleTarget>();
  for (const route of [...routes, routeNotFoundRoute]) {
    const label = route === routeNotFoundRoute ? '$default' : `${route.method} ${route.path}`;
    const previous = byHandler.get(route.handler);
    byHandler.set(route.handler, {
      kind: 'api',
      label: previous ? `${previous.label}, ${label}` : label,
      handler: route.handler,
      usesS3: (previous?.usesS3 ?? false) || !!route.needs.bucket,
      usesSqs: (previous?.usesSqs ?? false) || route.needs.sendsTo.length > 0,
    });
  }
  for (const worker of workers) {
    byHandler.set(worker.handler, {
      kind: 'worker',
      label: `worker ${worker.name}`,
      handler: worker.handler,
      usesS3: !!worker.needs.bucket,
      usesSqs: worker.needs.sendsTo.length > 0,
    });
  }
  for (const worker of scheduledWorkers) {
    byHandler.set(worker.handler, { kind: 'worker', label: `worker ${worker.name}`, handler: worker.handler, usesS3: false, usesSqs: false });
  }
  return [...byHandler.values()];
}
