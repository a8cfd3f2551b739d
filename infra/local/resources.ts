/**
 * Names of the stateful resources the local runtime creates. In AWS the stateful stack owns
 * them and hands their names to functions through the environment.
 */
export const localResources = {
  tableName: 'promo-engine',
  bucketName: 'promo-engine-exports',
  /** Queues with their dead-letter queues; `maxReceiveCount` deliveries before a message moves there. */
  queues: [{ name: 'promo-engine-jobs', deadLetter: 'promo-engine-jobs-dlq', maxReceiveCount: 3, visibilityTimeoutSeconds: 30 }],
  region: 'eu-central-1',
} as const;

export type LocalQueue = (typeof localResources.queues)[number];
