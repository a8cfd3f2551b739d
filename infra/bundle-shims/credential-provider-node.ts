/**
 * What the deployed bundles use in place of `@aws-sdk/credential-provider-node` (infra/constructs/bundling-settings.ts
 * `alias`). Its one importer is each SDK client's runtime config, for its default credential chain. On Lambda the
 * runtime always puts the execution role's credentials in the environment, so the chain always ends at its first
 * link, `fromEnv` (the other links are left out of the bundles already: `lambdaExternalModules`). The chain's own
 * logic is about 3 KiB of every minified handler. The local runtime and the scripts are not bundled and keep the chain.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';

export const defaultProvider = (init: Parameters<typeof fromEnv>[0] = {}): ReturnType<typeof fromEnv> => fromEnv(init);
