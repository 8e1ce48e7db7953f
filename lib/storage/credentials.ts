import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { GetCommand, UpdateCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { indexes, keys, sha256Hex, type ItemKey } from './table-items';
import type { Store } from './client';
import type { PhoneSettings } from '../domain/model';

/** A credential is stored under its fingerprint only; the secret itself is shown once and never kept. */
export const fingerprint = (secret: string): string => sha256Hex(secret);

/** An API key as stored under its fingerprint, keys aside (also what the authorizer reads). */
export type ApiKeyItem = {
  id: string;
  workspace_id: string;
  name: string;
  scopes: string[];
  fingerprint: string;
  created_at: string;
  revoked_at: string | null;
};

/** A webhook endpoint as stored under its id, keys aside (also what the authorizer reads). */
export type EndpointItem = {
  id: string;
  workspace_id: string;
  token_fingerprint: string;
  active: boolean;
  created_at: string;
  last_call_at: string | null;
  /**
   * The workspace's phone settings (docs/api.md#workspaces), copied here so that the lead webhook reads them
   * with the endpoint, in the authorizer's one call: written at creation and by every `workspace
   * set`. Absent on an endpoint created before: the defaults.
   */
  phone_matching?: PhoneSettings['phone_matching'];
  phone_region?: string;
};

export type StoredApiKey = ApiKeyItem & ItemKey & { gsi1pk: string; gsi1sk: string };
export type StoredEndpoint = EndpointItem & ItemKey;

/** The one builder of each credential item kind (docs/data-model.md, "Items"). */
export const credentialItems = {
  /** Under its fingerprint (the authorizer's GetItem); gsi1 lists a workspace's keys, oldest first. */
  apiKey: (key: ApiKeyItem): StoredApiKey => ({
    ...keys.apiKey(key.fingerprint),
    ...key,
    gsi1pk: keys.apiKeysOfWorkspace(key.workspace_id),
    gsi1sk: `${key.created_at}#${key.id}`,
  }),
  endpoint: (endpoint: EndpointItem): StoredEndpoint => ({
    ...keys.endpoint(endpoint.id),
    ...endpoint,
  }),
};

/** Access pattern "key by fingerprint": strongly consistent, so a revocation counts on the next call. */
export async function getApiKeyByFingerprint(store: Store, fingerprint: string): Promise<ApiKeyItem | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: keys.apiKey(fingerprint), ConsistentRead: true }),
  );
  return Item as ApiKeyItem | undefined;
}

/** Access pattern "API keys of a workspace": Query gsi1 on WS#<ws>#APIKEYS, oldest first. */
export async function listApiKeysOfWorkspace(store: Store, workspaceId: string): Promise<ApiKeyItem[]> {
  const found: ApiKeyItem[] = [];
  const pages = paginateQuery(
    { client: store.db },
    {
      TableName: store.tableName,
      IndexName: indexes.listsInCreationOrder,
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.apiKeysOfWorkspace(workspaceId) },
    },
  );
  for await (const page of pages) found.push(...((page.Items ?? []) as ApiKeyItem[]));
  return found;
}

/** Access pattern "endpoint by id": strongly consistent, so a regenerated token counts on the next call. */
export async function getEndpoint(store: Store, endpointId: string): Promise<EndpointItem | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: keys.endpoint(endpointId), ConsistentRead: true }),
  );
  return Item as EndpointItem | undefined;
}

/**
 * The transaction item copying a workspace's phone settings to its endpoint (`workspace set`):
 * conditional on the endpoint existing and being this workspace's.
 */
export const endpointSettingsUpdate = (
  store: Store,
  endpoint: { id: string; workspaceId: string },
  settings: PhoneSettings,
) => ({
  Update: {
    TableName: store.tableName,
    Key: keys.endpoint(endpoint.id),
    UpdateExpression: 'SET phone_matching = :matching, phone_region = :region',
    ConditionExpression: 'attribute_exists(pk) AND workspace_id = :workspace',
    ExpressionAttributeValues: {
      ':matching': settings.phone_matching,
      ':region': settings.phone_region,
      ':workspace': endpoint.workspaceId,
    },
  },
});

export type WebhookCall =
  | { kind: 'recorded'; endpoint: EndpointItem }
  | { kind: 'refused'; endpoint: EndpointItem }
  | { kind: 'unknown_endpoint' };

/**
 * Access pattern "webhook call": one conditional UpdateItem checks the token and the status and
 * records the last call received (docs/api.md#webhook-endpoint-checks). Strongly consistent by
 * nature, so a regenerated token or a disabled webhook fails on the very next call. A refusal
 * brings the endpoint back (ReturnValuesOnConditionCheckFailure), which tells a refused token
 * from an endpoint that does not exist; without a token the condition cannot hold, and the same
 * one call answers which. Comparing fingerprints (SHA-256 of the token) in DynamoDB leaks nothing
 * about the token through timing.
 */
export async function checkTokenAndStampLastCall(
  store: Store,
  endpointId: string,
  tokenFingerprint: string | undefined,
  at: Date,
): Promise<WebhookCall> {
  try {
    const { Attributes } = await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keys.endpoint(endpointId),
        UpdateExpression: 'SET last_call_at = :at',
        ConditionExpression: 'token_fingerprint = :fp AND active = :active',
        ExpressionAttributeValues: { ':at': at.toISOString(), ':fp': tokenFingerprint ?? 'none', ':active': true },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { kind: 'recorded', endpoint: Attributes as EndpointItem };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    if (!error.Item) return { kind: 'unknown_endpoint' };
    return { kind: 'refused', endpoint: unmarshall(error.Item) as EndpointItem };
  }
}
