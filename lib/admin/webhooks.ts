import { newWebhookToken } from '../auth/secrets';
import type { Deps } from '../deps';
import { messages } from '../messages';
import {
  fingerprint,
  getEndpoint,
  replaceEndpointToken,
  setEndpointActive,
  type EndpointItem,
} from '../storage/credentials';
import { createEndpoint } from '../storage/credential-creation';
import { phoneSettingsStateOf } from '../storage/workspace-config';
import { AdminInputError } from './errors';
import { checkedId } from './ids';
import { requireWorkspace } from './workspace';

export type WebhookTokenView = { endpoint_id: string; url: string; token: string };
export type WebhookStatusView = { endpoint_id: string; url: string; active: boolean; last_call_at: string | null };

export const webhookUrl = (publicBaseUrl: string, endpointId: string): string =>
  `${publicBaseUrl.replace(/\/+$/, '')}/webhooks/ingest-lead?endpoint_id=${endpointId}`;

/** Only the token's fingerprint is stored: the token returned here is shown once and then lost. */
export function newEndpoint(
  deps: Pick<Deps, 'newId'>,
  input: { workspaceId: string; active: boolean; createdAt: string },
): { endpoint: EndpointItem; token: string } {
  const token = newWebhookToken();
  return {
    token,
    endpoint: {
      id: deps.newId(),
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
  // The lead webhook reads the workspace's phone settings on its endpoint (decisions 6.4): the new
  // endpoint carries the ones just read, and is created only if the configuration version is still
  // the one read (a `workspace set` meanwhile raises it).
  const { settings, configVersion } = phoneSettingsStateOf(workspace as unknown as Record<string, unknown>);
  const { endpoint, token } = newEndpoint(deps, {
    workspaceId: id,
    active: true,
    createdAt: deps.clock().toISOString(),
  });
  // One endpoint per workspace: when the workspace changed since the read (another generation won
  // the race, a `workspace set`, or it is gone), start over from a fresh read.
  if ((await createEndpoint(deps, { ...endpoint, ...settings }, configVersion)) === 'workspace_changed') {
    return generateWebhook(deps, id, publicBaseUrl);
  }
  return { endpoint_id: endpoint.id, url: webhookUrl(publicBaseUrl, endpoint.id), token };
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
  const endpoint = await setEndpointActive(deps, { id: endpointId, workspaceId: id, active });
  return statusView(endpoint, publicBaseUrl);
}

export async function webhookStatus(
  deps: Deps,
  workspaceId: string,
  publicBaseUrl: string,
): Promise<WebhookStatusView> {
  const endpointId = await requireEndpointId(deps, checkedId('workspace', workspaceId));
  const endpoint = await getEndpoint(deps, endpointId);
  if (!endpoint) throw new Error(messages.admin.webhook.endpointMissing(endpointId, workspaceId));
  return statusView(endpoint, publicBaseUrl);
}

async function requireEndpointId(deps: Deps, workspaceId: string): Promise<string> {
  const workspace = await requireWorkspace(deps, workspaceId);
  if (!workspace.endpoint_id) {
    throw new AdminInputError(messages.admin.webhook.notGenerated);
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
  await replaceEndpointToken(deps, { id: endpointId, workspaceId, tokenFingerprint: fingerprint(token) });
  return { endpoint_id: endpointId, url: webhookUrl(publicBaseUrl, endpointId), token };
}

const statusView = (endpoint: EndpointItem, publicBaseUrl: string): WebhookStatusView => ({
  endpoint_id: endpoint.id,
  url: webhookUrl(publicBaseUrl, endpoint.id),
  active: endpoint.active,
  last_call_at: endpoint.last_call_at,
});
