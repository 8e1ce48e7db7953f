import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { fingerprint, newWebhookToken } from '../auth/secrets';
import type { Deps } from '../deps';
import { getEndpoint, type EndpointItem } from '../storage/credentials';
import { keys, type ItemKey } from '../storage/keys';
import { AdminInputError } from './errors';
import { checkedId } from './ids';
import { requireWorkspace } from './workspace';

export type WebhookTokenView = { endpoint_id: string; url: string; token: string };
export type WebhookStatusView = { endpoint_id: string; url: string; active: boolean; last_call_at: string | null };
export type StoredEndpoint = EndpointItem & ItemKey;

export const webhookUrl = (publicBaseUrl: string, endpointId: string): string =>
  `${publicBaseUrl.replace(/\/+$/, '')}/webhooks/ingest-lead?endpoint_id=${endpointId}`;

/** Only the token's fingerprint is stored: the token returned here is shown once and then lost. */
export function newEndpoint(
  deps: Pick<Deps, 'newId'>,
  input: { workspaceId: string; active: boolean; createdAt: string },
): { item: StoredEndpoint; token: string } {
  const token = newWebhookToken();
  const id = deps.newId();
  return {
    token,
    item: {
      ...keys.endpoint(id),
      id,
      workspace_id: input.workspaceId,
      token_fingerprint: fingerprint(token),
      active: input.active,
      created_at: input.createdAt,
      last_call_at: null,
    },
  };
}

/** "Générer le webhook": creates the workspace's endpoint, or gives the existing one a new token. */
export async function generateWebhook(
  deps: Deps,
  workspaceId: string,
  publicBaseUrl: string,
): Promise<WebhookTokenView> {
  const id = checkedId('workspace', workspaceId);
  const workspace = await requireWorkspace(deps, id);
  if (workspace.endpoint_id) return rotateToken(deps, id, workspace.endpoint_id, publicBaseUrl);
  const { item, token } = newEndpoint(deps, { workspaceId: id, active: true, createdAt: deps.clock().toISOString() });
  try {
    // One endpoint per workspace: the workspace item records it only if it has none yet.
    await deps.db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: deps.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
          {
            Update: {
              TableName: deps.tableName,
              Key: keys.workspace(id),
              UpdateExpression: 'SET endpoint_id = :id',
              ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(endpoint_id)',
              ExpressionAttributeValues: { ':id': item.id },
            },
          },
        ],
      }),
    );
  } catch (error) {
    const lostRace =
      error instanceof TransactionCanceledException &&
      error.CancellationReasons?.[1]?.Code === 'ConditionalCheckFailed';
    if (lostRace) return generateWebhook(deps, id, publicBaseUrl);
    throw error;
  }
  return { endpoint_id: item.id, url: webhookUrl(publicBaseUrl, item.id), token };
}

/** "Régénérer le token": the old token stops working with this write (the authorizer reads consistently). */
export async function regenerateWebhook(
  deps: Deps,
  workspaceId: string,
  publicBaseUrl: string,
): Promise<WebhookTokenView> {
  const id = checkedId('workspace', workspaceId);
  return rotateToken(deps, id, await requireEndpointId(deps, id), publicBaseUrl);
}

export async function setWebhookActive(
  deps: Deps,
  workspaceId: string,
  active: boolean,
  publicBaseUrl: string,
): Promise<WebhookStatusView> {
  const id = checkedId('workspace', workspaceId);
  const endpointId = await requireEndpointId(deps, id);
  const { Attributes } = await deps.db.send(
    new UpdateCommand({
      TableName: deps.tableName,
      Key: keys.endpoint(endpointId),
      UpdateExpression: 'SET active = :active',
      ConditionExpression: 'workspace_id = :workspace',
      ExpressionAttributeValues: { ':active': active, ':workspace': id },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return statusView(Attributes as EndpointItem, publicBaseUrl);
}

export async function webhookStatus(
  deps: Deps,
  workspaceId: string,
  publicBaseUrl: string,
): Promise<WebhookStatusView> {
  const endpointId = await requireEndpointId(deps, checkedId('workspace', workspaceId));
  const endpoint = await getEndpoint(deps, endpointId);
  if (!endpoint) throw new Error(`Le webhook ${endpointId} de l'espace ${workspaceId} est introuvable.`);
  return statusView(endpoint, publicBaseUrl);
}

async function requireEndpointId(deps: Deps, workspaceId: string): Promise<string> {
  const workspace = await requireWorkspace(deps, workspaceId);
  if (!workspace.endpoint_id) {
    throw new AdminInputError("Cet espace n'a pas encore de webhook : créez-le avec « webhook generate ».");
  }
  return workspace.endpoint_id;
}

async function rotateToken(
  deps: Deps,
  workspaceId: string,
  endpointId: string,
  publicBaseUrl: string,
): Promise<WebhookTokenView> {
  const token = newWebhookToken();
  await deps.db.send(
    new UpdateCommand({
      TableName: deps.tableName,
      Key: keys.endpoint(endpointId),
      UpdateExpression: 'SET token_fingerprint = :fingerprint',
      ConditionExpression: 'workspace_id = :workspace',
      ExpressionAttributeValues: { ':fingerprint': fingerprint(token), ':workspace': workspaceId },
    }),
  );
  return { endpoint_id: endpointId, url: webhookUrl(publicBaseUrl, endpointId), token };
}

const statusView = (endpoint: EndpointItem, publicBaseUrl: string): WebhookStatusView => ({
  endpoint_id: endpoint.id,
  url: webhookUrl(publicBaseUrl, endpoint.id),
  active: endpoint.active,
  last_call_at: endpoint.last_call_at,
});
