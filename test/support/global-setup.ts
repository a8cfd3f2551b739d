import type { TestProject } from 'vitest/node';
import { startEngines } from '../../infra/local/engines.js';

export interface EngineEndpoints {
  dynamoEndpoint: string;
  s3Endpoint: string;
  sqsEndpoint: string;
  region: string;
  tableName: string;
  bucketName: string;
  queueUrls: Record<string, string>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    engines: EngineEndpoints;
  }
}

/** Starts the three engines once for the whole run; every test owns its data via a fresh project. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const engines = await startEngines({ dataDir: null });
  const { stop, ...endpoints } = engines;
  project.provide('engines', endpoints);
  return stop;
}
