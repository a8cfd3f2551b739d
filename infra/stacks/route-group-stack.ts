import { NestedStack } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { RouteDef } from '../../lib/api/route.js';

/** `Custom Event Schemas` → `CustomEventSchemas`: the construct-id form of a name. */
export const pascal = (name: string): string =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');

/**
 * The route group a row belongs to: its OpenAPI tag (Voucherify's resource group). A pure function of the row
 * alone, never of its position or of the other rows, so adding a route to a tag adds resources to that tag's
 * nested stack only and no existing function changes stack (or logical id). Renaming a tag moves its functions.
 */
export const routeGroupOf = (route: Pick<RouteDef, 'tag'>): string => `Routes${pascal(route.tag)}`;

/**
 * The route functions of one tag, with their HTTP API integrations, routes and invoke permissions: a nested stack,
 * one resource of the stateless stack however many routes the tag has (docs/decisions.md, "Route functions in
 * nested stacks"). What they share (the HTTP APIs, the route roles, the log group, the stateful stack's table,
 * bucket and queues) stays in the parent and arrives as parameters, which CDK adds for each reference.
 */
export class RouteGroupStack extends NestedStack {
  readonly tag: string;

  constructor(scope: Construct, tag: string) {
    super(scope, routeGroupOf({ tag }), { description: `Promotion engine route functions of the ${tag} tag` });
    this.tag = tag;
  }
}
