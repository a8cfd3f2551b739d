import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../lib/config.js';

const failure = (env: Record<string, string | undefined>): string => {
  try {
    loadConfig(env);
  } catch (e) {
    return (e as Error).message;
  }
  return '';
};

// lib/config.ts checks the environment by hand (cold start); these are the messages the zod object it replaced gave, word for word.
describe('configuration messages', () => {
  it('says what zod said for each kind of bad value, the variable first', () => {
    expect(failure({})).toBe('Invalid configuration: TABLE_NAME: Invalid input: expected string, received undefined');
    expect(failure({ TABLE_NAME: '' })).toBe('Invalid configuration: TABLE_NAME: Too small: expected string to have >=1 characters');
    expect(failure({ TABLE_NAME: 't', LOG_LEVEL: 'verbose' })).toBe(
      'Invalid configuration: LOG_LEVEL: Invalid option: expected one of "debug"|"info"|"warn"|"error"',
    );
    expect(failure({ TABLE_NAME: 't', WEBHOOK_TARGETS: 'all' })).toBe(
      'Invalid configuration: WEBHOOK_TARGETS: Invalid option: expected one of "public"|"local"',
    );
    expect(failure({ TABLE_NAME: 't', DYNAMODB_ENDPOINT: '' })).toBe('Invalid configuration: DYNAMODB_ENDPOINT: Invalid URL');
    expect(failure({ TABLE_NAME: 't', RATE_LIMIT_REQUESTS: '' })).toBe('Invalid configuration: RATE_LIMIT_REQUESTS: a whole number');
  });

  it('names every bad variable, in the order of the variables, each on its own', () => {
    const bad = {
      TABLE_NAME: '',
      DYNAMODB_ENDPOINT: 'not a url',
      S3_ENDPOINT: 'also not',
      BUCKET_NAME: '',
      JOBS_QUEUE_URL: 'nope',
      RATE_LIMIT_WINDOW_SECONDS: '0',
    };
    expect(failure(bad)).toBe(
      'Invalid configuration: TABLE_NAME: Too small: expected string to have >=1 characters; DYNAMODB_ENDPOINT: Invalid URL; ' +
        'JOBS_QUEUE_URL: Invalid URL; BUCKET_NAME: Too small: expected string to have >=1 characters; S3_ENDPOINT: Invalid URL; ' +
        'RATE_LIMIT_WINDOW_SECONDS: a whole number of seconds from 1 to 3600',
    );
  });

  it('applies the defaults, keeps URLs as zod reads them and trims the download base', () => {
    const config = loadConfig({ TABLE_NAME: 't', DYNAMODB_ENDPOINT: ' http://127.0.0.1:8000 ', DOWNLOAD_BASE_URL: 'https://d.example.com///' });
    expect(config).toEqual({
      tableName: 't',
      region: 'eu-central-1',
      dynamoDbEndpoint: 'http://127.0.0.1:8000',
      cluster: 'api',
      logLevel: 'info',
      queueUrls: {},
      downloadBaseUrl: 'https://d.example.com',
      webhookTargets: 'public',
      rateLimit: { limit: 6000, windowSeconds: 60 },
    });
    expect(loadConfig({ TABLE_NAME: 't', AWS_REGION: 'us-east-1', CLUSTER: 'us1' })).toMatchObject({ region: 'us-east-1', cluster: 'us1' });
  });
});
