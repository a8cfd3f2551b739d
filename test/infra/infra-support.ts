import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, type CfnElement, NestedStack, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { infraConfig, type InfraConfig } from '../../infra/config.js';
import { routeNotFoundRoute, routes } from '../../lib/api/routes.js';
import { buildPromoEngineApp, type PromoEngineApp, type PromoEngineAppOptions } from '../../infra/stacks/promo-engine-app.js';
import { workers } from '../../lib/api/workers.js';
import type { RouteDef } from '../../lib/api/route.js';

const root = join(import.meta.dirname, '..', '..');

/** The feature flags of cdk.json: a bare `new App()` does not read them. */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(join(root, 'cdk.json'), 'utf8')) as { context?: Record<string, unknown> };
  return cdkJson.context ?? {};
}

/**
 * An App with cdk.json's flags, bundling skipped for every stack (the real bundling runs in
 * `cdk synth`) and the built-in CloudFormation validation off (slow, and `cdk synth` runs it).
 */
export function testApp(): App {
  return new App({
    context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] },
    builtinCloudFormationValidation: false,
  });
}

/** The real app (routes, workers, config), with options overridden. */
export function buildTestApp(overrides: Partial<PromoEngineAppOptions> = {}): { app: App; built: PromoEngineApp } {
  const app = testApp();
  const built = buildPromoEngineApp(app, { config: infraConfig, routes, routeNotFoundRoute, workers, ...overrides });
  return { app, built };
}

export const withDomain = (config: InfraConfig): InfraConfig => ({
  ...config,
  domain: { zoneName: 'example.com', hostedZoneId: 'Z0123456789EXAMPLE' },
});

/** The nested stacks directly under `stack`, in construct order. */
export const nestedStacksOf = (stack: Stack): NestedStack[] =>
  stack.node.findAll().filter((c): c is NestedStack => NestedStack.isNestedStack(c) && c.nestedStackParent === stack);

/** CloudFormation resources of one stack's own template (nested stacks count as one resource each). */
export const resourceCountOf = (stack: Stack): number => Object.keys(Template.fromStack(stack).toJSON().Resources ?? {}).length;

/**
 * A stack's template with its nested stacks' resources merged in, each `{ Ref: <parameter> }` of a nested template
 * replaced by the value the parent passes for that parameter (a role's `Fn::GetAtt`, the log group's `Ref`): what
 * CloudFormation resolves at deploy time, so the helpers below can follow a route to its function and role as if the
 * stack were one template. Throws if two templates use one logical id.
 */
export function flattenedTemplate(stack: Stack): Template {
  const parent = Template.fromStack(stack).toJSON() as { Resources: Record<string, { Properties?: { Parameters?: Record<string, unknown> } }> };
  const resources: Record<string, unknown> = { ...parent.Resources };
  for (const nested of nestedStacksOf(stack)) {
    const resourceId = stack.getLogicalId(nested.nestedStackResource as CfnElement);
    const passed = parent.Resources[resourceId]?.Properties?.Parameters ?? {};
    const substitute = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(substitute);
      if (!value || typeof value !== 'object') return value;
      const entries = Object.entries(value);
      const [only] = entries;
      if (entries.length === 1 && only?.[0] === 'Ref' && typeof only[1] === 'string' && only[1] in passed) return passed[only[1]];
      return Object.fromEntries(entries.map(([k, v]) => [k, substitute(v)]));
    };
    const child = Template.fromStack(nested).toJSON() as { Resources?: Record<string, unknown> };
    for (const [id, resource] of Object.entries(child.Resources ?? {})) {
      if (id in resources) throw new Error(`logical id ${id} of ${nested.node.path} is also used elsewhere in ${stack.node.path}`);
      resources[id] = substitute(resource);
    }
  }
  return Template.fromJSON({ ...parent, Resources: resources });
}

export const routeKeyOf = (route: RouteDef): string => (route.path === '$default' ? '$default' : `${route.method} ${route.path}`);

type Resource = { Type: string; Properties?: Record<string, unknown>; Metadata?: Record<string, unknown> };

export interface PolicyStatementJson {
  Effect: 'Allow' | 'Deny';
  Action: string | string[];
  Resource: unknown;
}

const resourcesByTemplate = new WeakMap<Template, Map<string, ReturnType<Template['findResources']>>>();
/**
 * `template.findResources(type)`, read once per template: `findResources` matches and copies the whole template on
 * every call, and the stack tests ask for the same types once per function (~290 per region), which made the
 * stateless-stack file the suite's fourth-longest (issue 34). Callers only read what this returns.
 */
export const findResourcesOnce = (template: Template, type: string): ReturnType<Template['findResources']> => {
  let byType = resourcesByTemplate.get(template);
  if (!byType) resourcesByTemplate.set(template, (byType = new Map()));
  let found = byType.get(type);
  if (!found) byType.set(type, (found = template.findResources(type)));
  return found;
};
const resourcesOf = (template: Template, type: string): Record<string, Resource> => findResourcesOnce(template, type) as Record<string, Resource>;

/** `{ "Fn::GetAtt": [id, "Arn"] }` or `{ Ref: id }` → id. */
function logicalIdOf(value: unknown): string | undefined {
  if (value && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (typeof v.Ref === 'string') return v.Ref;
    const getAtt = v['Fn::GetAtt'];
    if (Array.isArray(getAtt) && typeof getAtt[0] === 'string') return getAtt[0];
  }
  return undefined;
}

/** The logical id of the HTTP API named `name`. */
export function apiNamed(template: Template, name: string): string {
  const ids = Object.entries(resourcesOf(template, 'AWS::ApiGatewayV2::Api'))
    .filter(([, r]) => r.Properties?.Name === name)
    .map(([id]) => id);
  if (ids.length !== 1) throw new Error(`expected one API named ${name}, found ${ids.length}`);
  return ids[0] as string;
}

export interface ApiRoute {
  routeKey: string;
  functionId: string;
  /** The handler module the function was bundled from (its `promo-engine:handler` metadata). */
  handlerFile: unknown;
}

/** Every route of one API, followed through its integration to the function behind it. */
export function routesOfApi(template: Template, apiLogicalId: string): ApiRoute[] {
  const integrations = resourcesOf(template, 'AWS::ApiGatewayV2::Integration');
  const functions = resourcesOf(template, 'AWS::Lambda::Function');
  return Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route'))
    .filter((r) => logicalIdOf(r.Properties?.ApiId) === apiLogicalId)
    .map((r) => {
      const target = JSON.stringify(r.Properties?.Target);
      const integrationId = /"Ref":"([^"]+)"/.exec(target)?.[1] ?? '';
      const integration = integrations[integrationId];
      const functionId = logicalIdOf(integration?.Properties?.IntegrationUri) ?? '';
      return {
        routeKey: String(r.Properties?.RouteKey),
        functionId,
        handlerFile: functions[functionId]?.Metadata?.['promo-engine:handler'],
      };
    });
}

/** The logical id of the function bundled from `handlerFile` (exactly one expected). */
export function functionOfHandler(template: Template, handlerFile: string): string {
  const ids = Object.entries(resourcesOf(template, 'AWS::Lambda::Function'))
    .filter(([, r]) => r.Metadata?.['promo-engine:handler'] === handlerFile)
    .map(([id]) => id);
  if (ids.length !== 1) throw new Error(`expected one function for ${handlerFile}, found ${ids.length}`);
  return ids[0] as string;
}

/** Every Allow statement that applies to a function's execution role: inline and attached policies. */
export function roleStatementsOfFunction(template: Template, functionLogicalId: string): PolicyStatementJson[] {
  const fn = resourcesOf(template, 'AWS::Lambda::Function')[functionLogicalId];
  const roleId = logicalIdOf(fn?.Properties?.Role);
  if (!roleId) throw new Error(`function ${functionLogicalId} has no role in this template`);
  const role = resourcesOf(template, 'AWS::IAM::Role')[roleId];
  const inline = ((role?.Properties?.Policies ?? []) as { PolicyDocument: { Statement: PolicyStatementJson[] } }[]).flatMap((p) => p.PolicyDocument.Statement);
  const attached = Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
    .filter((p) => ((p.Properties?.Roles ?? []) as unknown[]).some((r) => logicalIdOf(r) === roleId))
    .flatMap((p) => (p.Properties as { PolicyDocument: { Statement: PolicyStatementJson[] } }).PolicyDocument.Statement);
  const managed = (role?.Properties?.ManagedPolicyArns ?? []) as unknown[];
  if (managed.length > 0) throw new Error(`role ${roleId} has managed policies, which this check cannot see into`);
  return [...inline, ...attached].filter((s) => s.Effect === 'Allow');
}

const actionsOf = (s: PolicyStatementJson): string[] => (Array.isArray(s.Action) ? s.Action : [s.Action]);

/** IAM action patterns (`dynamodb:Put*`, `*`) matched the way IAM does: case-insensitive globs. */
export function allowedActions(statements: readonly PolicyStatementJson[], wanted: readonly string[]): string[] {
  const patterns = statements.flatMap(actionsOf).map(
    (a) =>
      new RegExp(
        `^${a
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*/g, '.*')
          .replace(/\?/g, '.')}$`,
        'i',
      ),
  );
  return wanted.filter((action) => patterns.some((p) => p.test(action)));
}

/** The DynamoDB actions that change data. */
export const DYNAMODB_WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:TransactWriteItems',
  'dynamodb:PartiQLInsert',
  'dynamodb:PartiQLUpdate',
  'dynamodb:PartiQLDelete',
  'dynamodb:DeleteTable',
  'dynamodb:UpdateTable',
] as const;
