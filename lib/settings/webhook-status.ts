import type { Deps } from '../storage/client';
import { NotFoundError } from '../domain/model';
import { messages } from '../messages';
import { getEndpoint, type EndpointItem } from '../storage/credentials';
import { checkedId, requireWorkspace } from './admin-input';

/** The workspace's webhook as `webhook show` and `GET /webhook` read it: its URLs and state, never its token. */
export type WebhookStatusView = { endpoint_id: string; url: string; active: boolean; last_call_at: string | null };

export const webhookUrl = (publicBaseUrl: string, endpointId: string): string =>
  `${publicBaseUrl.replace(/\/+$/, '')}/webhooks/ingest-lead?endpoint_id=${endpointId}`;

/** The recruitment webhook's URL: the same endpoint and token as the lead webhook's (docs/api.md). */
export const recruitmentWebhookUrl = (publicBaseUrl: string, endpointId: string): string =>
  `${publicBaseUrl.replace(/\/+$/, '')}/webhooks/recruitment?endpoint_id=${endpointId}`;

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

export async function requireEndpointId(deps: Deps, workspaceId: string): Promise<string> {
  const workspace = await requireWorkspace(deps, workspaceId);
  if (!workspace.endpoint_id) {
    // `GET /webhook` before any generation: 404 (docs/api.md#settings-api); the command line exits 2 as for any domain error.
    throw new NotFoundError(messages.admin.webhook.notGenerated);
  }
  return workspace.endpoint_id;
}

export const statusView = (endpoint: EndpointItem, publicBaseUrl: string): WebhookStatusView => ({
  endpoint_id: endpoint.id,
  url: webhookUrl(publicBaseUrl, endpoint.id),
  active: endpoint.active,
  last_call_at: endpoint.last_call_at,
});
