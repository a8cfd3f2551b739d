import type { DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';

type Logger = NonNullable<DynamoDBClientConfig['logger']>;

const ignore = (): void => {};

/**
 * The logger our DynamoDB client gets: it drops everything, as the SDK's default NoOpLogger does,
 * but it has no `info` and no `error`. The SDK's logger middleware calls `logger?.info?.({ input:
 * filter(input), output: filter(output) })` after every call (and `error` after every failed one,
 * a refused condition included), and with a no-op `info` still builds that object: a walk of the
 * whole reply through its schema to redact sensitive members, about a tenth of the SDK's CPU per
 * DynamoDB call. Without the method the optional call skips it. `debug` and `warn` stay, as no-ops:
 * credential providers and serde call them without `?.`.
 * (test/unit/db/sdk-logger.test.ts checks that the SDK still calls only those two without `?.`.)
 */
export const silentSdkLogger = { debug: ignore, warn: ignore } as unknown as Logger;
