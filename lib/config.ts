import * as z from 'zod';

const envSchema = z.object({
  TABLE_NAME: z.string().min(1),
  AWS_REGION: z.string().min(1).default('eu-central-1'),
  /** Set only by the local runtime and tests; in AWS the SDK's default endpoint is right. */
  DYNAMODB_ENDPOINT: z.url().optional(),
  /** The cluster label of this deployment: api, us1, as1. */
  CLUSTER: z.string().min(1).default('api'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
});

export interface Config {
  tableName: string;
  region: string;
  dynamoDbEndpoint: string | undefined;
  cluster: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
}

/**
 * Parses the process environment once, at container start. A missing or malformed value
 * fails loudly here rather than as an odd error on the first request.
 * @throws Error naming every bad variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const bad = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${bad}`);
  }
  const e = parsed.data;
  return {
    tableName: e.TABLE_NAME,
    region: e.AWS_REGION,
    dynamoDbEndpoint: e.DYNAMODB_ENDPOINT,
    cluster: e.CLUSTER,
    logLevel: e.LOG_LEVEL,
  };
}
