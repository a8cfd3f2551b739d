import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface DynamoOptions {
  region: string;
  /** Local engine address; absent in AWS. */
  endpoint?: string | undefined;
}

/**
 * Bare client + document wrapper. Local engines accept any credentials, so a fixed pair is
 * supplied there to keep a developer's real AWS profile out of the loop.
 */
export function createDocumentClient(options: DynamoOptions): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    region: options.region,
    ...(options.endpoint
      ? { endpoint: options.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
    maxAttempts: 4,
  });
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
}
