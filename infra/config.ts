/**
 * Everything the CDK app needs to know about where and how it deploys, in one typed object.
 * No value here is looked up from the environment or an AWS account: `cdk synth` and `cdk ls`
 * run offline on a fresh clone. Edit this file (account, regions, domain, source connection)
 * before the first real deployment.
 */

/** The cluster labels of the spec; each one is a region with its own API and download API. */
export type ClusterLabel = 'api' | 'us1' | 'as1';

export interface ClusterConfig {
  label: ClusterLabel;
  region: string;
  /** This region's per-project request budget, when it differs from `api.rateLimit`. */
  rateLimit?: RateLimitConfig;
}

/** Per-project request budget of the API (lib/rate-limit/rate-limit.service.ts), shared by all its functions. */
export interface RateLimitConfig {
  /** Requests a project may send per window; 0 turns the limit off. */
  requestsPerWindow: number;
  windowSeconds: number;
}

/**
 * Custom domains, off by default. With a domain set, cluster `api` answers on `api.<zone>` and
 * `download.<zone>`, the others on `<label>.api.<zone>` and `<label>.download.<zone>`. The hosted
 * zone is referenced by id (no lookup); one DNS-validated certificate per region is created.
 */
export interface DomainConfig {
  zoneName: string;
  hostedZoneId: string;
}

export interface PipelineConfig {
  /** Where the pipeline itself lives; it deploys the clusters in `deployOrder`. */
  region: string;
  /** ARN of a CodeConnections (CodeStar) connection to the source host, created once by hand. */
  connectionArn: string;
  /** `owner/name` of the repository. */
  repository: string;
  branch: string;
  /** Waves: each inner list deploys in parallel, the waves one after another. */
  deployOrder: readonly (readonly ClusterLabel[])[];
}

export interface InfraConfig {
  /** Prefix of every stack name and of resource names where a name is given. */
  appName: string;
  /** The one AWS account everything deploys to. A placeholder until set. */
  account: string;
  clusters: readonly ClusterConfig[];
  domain: DomainConfig | null;
  /** Optional SNS topic (by ARN, no lookup) that dead-letter alarms notify. */
  alarmTopicArn: string | null;
  api: {
    /** Requests per second (steady) and burst for the whole default stage of each API. */
    throttle: { rateLimit: number; burstLimit: number };
    /** Per project, counted in DynamoDB across all containers; a cluster may override it. */
    rateLimit: RateLimitConfig;
    functionTimeoutSeconds: number;
    memorySizeMb: number;
  };
  /** Queue workers' timeout when a worker does not set one; the queue's visibility timeout is 6x the largest. */
  defaultWorkerTimeoutSeconds: number;
  logRetentionDays: LogRetentionDays;
  /** Export files are deleted this many days after they are written. */
  exportFileExpiryDays: number;
  /** S3 server access logs are kept this long. */
  accessLogExpiryDays: number;
  pipeline: PipelineConfig;
}

/** The retention periods CloudWatch Logs accepts that this project uses. */
export type LogRetentionDays = 7 | 14 | 30 | 60 | 90 | 180 | 365;

export const infraConfig: InfraConfig = {
  appName: 'PromoEngine',
  account: '111111111111',
  clusters: [
    { label: 'api', region: 'eu-central-1' },
    { label: 'us1', region: 'us-east-1' },
    { label: 'as1', region: 'ap-southeast-1' },
  ],
  domain: null,
  alarmTopicArn: null,
  api: {
    throttle: { rateLimit: 1000, burstLimit: 2000 },
    rateLimit: { requestsPerWindow: 6000, windowSeconds: 60 },
    functionTimeoutSeconds: 10,
    memorySizeMb: 1024,
  },
  defaultWorkerTimeoutSeconds: 120,
  logRetentionDays: 30,
  exportFileExpiryDays: 7,
  accessLogExpiryDays: 90,
  pipeline: {
    region: 'eu-central-1',
    connectionArn: 'arn:aws:codeconnections:eu-central-1:111111111111:connection/00000000-0000-0000-0000-000000000000',
    repository: 'example-org/promo-engine',
    branch: 'main',
    deployOrder: [['api'], ['us1', 'as1']],
  },
};

/** Host names of a cluster's two APIs under `zoneName`. */
export function clusterHostNames(label: ClusterLabel, zoneName: string): { api: string; download: string } {
  const prefix = label === 'api' ? '' : `${label}.`;
  return { api: `${prefix}api.${zoneName}`, download: `${prefix}download.${zoneName}` };
}
