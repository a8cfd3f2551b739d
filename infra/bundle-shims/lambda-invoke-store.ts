/**
 * What the deployed bundles use in place of `@aws/lambda-invoke-store` (infra/constructs/bundling-settings.ts
 * `alias`). Its one importer is the SDK's recursion-detection middleware, which asks the store for
 * the invocation's X-Ray trace id (and W3C trace context) before falling back to the
 * `_X_AMZN_TRACE_ID` environment variable. The store exists for runtimes that run several
 * invocations in one process at once; these functions run one at a time, where Lambda sets the
 * variable per invocation, so the fallback gives the same trace id. No store: about 2.2 KiB of
 * every minified handler. test/integration/infra/deployed-bundle.test.ts runs bundled handlers
 * against DynamoDB Local through it.
 */
export const InvokeStore = {
  getInstanceAsync: (): Promise<undefined> => Promise.resolve(undefined),
};
