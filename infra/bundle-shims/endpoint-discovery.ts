/**
 * What the deployed bundles use in place of `@aws-sdk/middleware-endpoint-discovery`
 * (infra/constructs/bundling-settings.ts `alias`). The DynamoDB client imports two things from it:
 * `resolveEndpointDiscoveryConfig`, which adds the discovery settings to the client's config
 * (with an endpoint cache), and the Node config options that read whether discovery is on. No
 * command of the client applies the discovery middleware (DynamoDB's endpoints are regional; the
 * plugin exists for services that need it), so the cache is never read or filled. This keeps the
 * settings the client exposes and drops the cache, with `@aws-sdk/endpoint-cache` and the LRU
 * cache under it: about 2 KiB of every minified handler. test/integration/infra/deployed-bundle.test.ts
 * runs bundled handlers against DynamoDB Local through it.
 */

interface DiscoveryInput {
  endpointDiscoveryEnabled?: boolean | undefined;
  endpointDiscoveryEnabledProvider?: () => Promise<boolean | undefined>;
}

export const resolveEndpointDiscoveryConfig = <T extends DiscoveryInput>(
  input: T,
  { endpointDiscoveryCommandCtor }: { endpointDiscoveryCommandCtor: unknown },
) =>
  Object.assign(input, {
    endpointDiscoveryCommandCtor,
    endpointDiscoveryEnabled:
      input.endpointDiscoveryEnabled !== undefined ? () => Promise.resolve(input.endpointDiscoveryEnabled) : input.endpointDiscoveryEnabledProvider,
    isClientEndpointDiscoveryEnabled: input.endpointDiscoveryEnabled !== undefined,
  });

/** Discovery is never on for these clients: the setting is not read from the environment or the config file. */
export const NODE_ENDPOINT_DISCOVERY_CONFIG_OPTIONS = {
  environmentVariableSelector: (): undefined => undefined,
  configFileSelector: (): undefined => undefined,
  default: undefined,
};
