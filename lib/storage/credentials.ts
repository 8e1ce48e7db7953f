import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { Deps } from '../deps';
import { keys } from './keys';

export type ApiKeyItem = {
  id: string;
  workspace_id: string;
  name: string;
  scopes: string[];
  fingerprint: string;
  created_at: string;
  revoked_at: string | null;
};

export type EndpointItem = {
  id: string;
  workspace_id: string;
  token_fingerprint: string;
  active: boolean;
  created_at: string;
  last_call_at: string | null;
};

type Store = Pick<Deps, 'db' | 'tableName'>;

/** Access pattern "key by fingerprint": strongly consistent, so a revocation counts on the next call. */
export async function getApiKeyByFingerprint(store: Store, fingerprint: string): Promise<ApiKeyItem | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: keys.apiKey(fingerprint), ConsistentRead: true }),
  );
  return Item as ApiKeyItem | undefined;
}

/** Access pattern "endpoint by id": strongly consistent, so a regenerated token counts on the next call. */
export async function getEndpoint(store: Store, endpointId: string): Promise<EndpointItem | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: keys.endpoint(endpointId), ConsistentRead: true }),
  );
  return Item as EndpointItem | undefined;
}

/**
 * Records the last call received. Conditional on the token and status just checked, so a token
 * regenerated or a webhook disabled between the read and this write still refuses the call.
 */
export async function recordEndpointCall(
  store: Store,
  endpointId: string,
  tokenFingerprint: string,
  at: Date,
): Promise<boolean> {
  try {
    await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keys.endpoint(endpointId),
        UpdateExpression: 'SET last_call_at = :at',
        ConditionExpression: 'token_fingerprint = :fp AND active = :active',
        ExpressionAttributeValues: { ':at': at.toISOString(), ':fp': tokenFingerprint, ':active': true },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
