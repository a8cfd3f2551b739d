import { CreateQueueCommand, DeleteQueueCommand, GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';

export interface TestQueue {
  url: string;
  dlqUrl: string;
  arn: string;
}

/**
 * A queue of the caller's own with a dead-letter queue (redrive after `maxReceiveCount`), so a
 * test file's jobs never meet another file's poller on the suite's shared queue.
 */
export async function createQueueWithDlq(
  sqs: SQSClient,
  name: string,
  options: { visibilityTimeoutSeconds: number; maxReceiveCount?: number },
): Promise<TestQueue> {
  const dlq = await sqs.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }));
  const dlqAttrs = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }));
  const main = await sqs.send(
    new CreateQueueCommand({
      QueueName: name,
      Attributes: {
        VisibilityTimeout: String(options.visibilityTimeoutSeconds),
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqAttrs.Attributes?.QueueArn, maxReceiveCount: options.maxReceiveCount ?? 3 }),
      },
    }),
  );
  const url = main.QueueUrl ?? '';
  const attrs = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }));
  return { url, dlqUrl: dlq.QueueUrl ?? '', arn: attrs.Attributes?.QueueArn ?? '' };
}

/** Deletes queues made by a test file, ignoring ones already gone. */
export async function deleteQueues(sqs: SQSClient, urls: readonly string[]): Promise<void> {
  for (const url of urls) await sqs.send(new DeleteQueueCommand({ QueueUrl: url })).catch(() => undefined);
}
