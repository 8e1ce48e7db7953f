import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { productionDeps } from '../../lib/storage/client';
import { eventItems } from '../../lib/storage/event-items';

/**
 * A delivery of a subscription given up after its eighth attempt (503), as the stream handler and the delivery
 * function leave one, written in the test run's table: something to list and redeliver. Its id.
 */
export async function plantFailedDelivery(workspaceId: string, subscriptionId: string): Promise<string> {
  const id = randomUUID();
  const deps = productionDeps();
  await deps.db.send(
    new PutCommand({
      TableName: deps.tableName,
      Item: eventItems.delivery({
        id,
        workspace_id: workspaceId,
        subscription_id: subscriptionId,
        event_id: randomUUID(),
        event_type: 'prospect.created',
        payload: '{}',
        status: 'failed',
        step: 7,
        attempts: 8,
        last_status_code: 503,
        last_error: 'Réponse 503',
        next_attempt_at: null,
        created_at: new Date().toISOString(),
        expires_at: Math.floor(Date.now() / 1000) + 86_400,
      }),
    }),
  );
  deps.db.destroy();
  return id;
}
