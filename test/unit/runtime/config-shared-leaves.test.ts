import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../lib/config.js';

// lib/config.ts checks several variables with one shared zod instance (cold start): each must still be checked and named on its own.
describe('configuration variables that share a check', () => {
  it('names every malformed URL and every empty name, each under its own variable', () => {
    const bad = { TABLE_NAME: '', DYNAMODB_ENDPOINT: 'not a url', S3_ENDPOINT: 'also not', BUCKET_NAME: '', JOBS_QUEUE_URL: 'nope' };
    let message = '';
    try {
      loadConfig(bad);
    } catch (e) {
      message = (e as Error).message;
    }
    for (const name of ['TABLE_NAME', 'DYNAMODB_ENDPOINT', 'S3_ENDPOINT', 'BUCKET_NAME', 'JOBS_QUEUE_URL']) expect(message).toContain(`${name}: `);
    expect(message).not.toContain('SQS_ENDPOINT');
  });

  it('applies each default on its own and keeps the URLs as given', () => {
    const config = loadConfig({ TABLE_NAME: 't', DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000', SQS_ENDPOINT: 'http://127.0.0.1:9324' });
    expect(config).toMatchObject({
      tableName: 't',
      region: 'eu-central-1',
      cluster: 'api',
      dynamoDbEndpoint: 'http://127.0.0.1:8000',
      sqsEndpoint: 'http://127.0.0.1:9324',
    });
    expect(config.s3Endpoint).toBeUndefined();
    expect(loadConfig({ TABLE_NAME: 't', AWS_REGION: 'us-east-1', CLUSTER: 'us1' })).toMatchObject({ region: 'us-east-1', cluster: 'us1' });
  });
});
