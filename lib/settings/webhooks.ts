import { newWebhookToken } from '../auth/secrets';
import type { Deps } from '../storage/client';
import { messages } from '../messages';
import { commandLine, newAuditEntry, type ActingMemberId } from '../storage/audit-log';
import { fingerprint, getEndpoint, type EndpointItem } from '../storage/credentials';
import { createEndpoint, replaceEndpointToken, setEndpointActive } from '../storage/credential-creation';
import { phoneSettingsStateOf } from '../storage/workspace-config';
import { checkedId, requireWorkspace } from './admin-input';
import { requireEndpointId, statusView, webhookUrl, type WebhookStatusView } from './webhook-status';

export type WebhookTokenView = { endpoint_id: string; url: string; token: string };

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

/**
 * "Générer le webhook": creates the workspace's endpoint, or gives the existing one a new token.
 * `actingMemberId`: the member acting through the settings API (absent: the command line).
 */
export async function generateWebhook(
  deps: Deps,
  workspaceId: string,
  publicBaseUrl: string,
  actingMemberId: ActingMemberId = commandLine,
): Promise<WebhookTokenView> {
  const id = checkedId('workspace', workspaceId);
  const workspace = await requireWorkspace(deps, id);
  if (workspace.endpoint_id) {
    return rotateToken(deps, { workspaceId: id, endpointId: workspace.endpoint_id, actingMemberId }, publicBaseUrl);
  }
  // The lead webhook reads the workspace's phone settings on its endpoint (docs/api.md#workspaces): the new
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
  const audit = newAuditEntry(deps.clock(), {
    workspaceId: id,
    memberId: actingMemberId,
    action: 'webhook.token_generated',
    targetId: endpoint.id,
    summary: messages.audit.webhookGenerated,
  });
  if ((await createEndpoint(deps, { ...endpoint, ...settings }, configVersion, audit)) === 'workspace_changed') {
    return generateWebhook(deps, id, publicBaseUrl, actingMemberId);
  }
  return { endpoint_id: endpoint.id, url: webhookUrl(publicBaseUrl, endpoint.id), token };
}

/** "Régénérer le token": the old token stops working with this write (the authorizer reads consistently). */
export async function regenerateWebhook(
  deps: Deps,
  workspaceId: string,
  publicBaseUrl: string,
  actingMemberId: ActingMemberId = commandLine,
): Promise<WebhookTokenView> {
  const id = checkedId('workspace', workspaceId);
  const endpointId = await requireEndpointId(deps, id);
  return rotateToken(deps, { workspaceId: id, endpointId, actingMemberId }, publicBaseUrl);
}

/** Enables or disables the webhook with its audit entry in one transaction, then reads the endpoint for its status. */
export async function setWebhookActive(
  deps: Deps,
  workspaceId: string,
  active: boolean,
  publicBaseUrl: string,
  actingMemberId: ActingMemberId = commandLine,
): Promise<WebhookStatusView> {
  const id = checkedId('workspace', workspaceId);
  const endpointId = await requireEndpointId(deps, id);
  const audit = newAuditEntry(deps.clock(), {
    workspaceId: id,
    memberId: actingMemberId,
    action: active ? 'webhook.enabled' : 'webhook.disabled',
    targetId: endpointId,
    summary: active ? messages.audit.webhookEnabled : messages.audit.webhookDisabled,
  });
  await setEndpointActive(deps, { id: endpointId, workspaceId: id, active }, audit);
  const endpoint = await getEndpoint(deps, endpointId);
  if (!endpoint) throw new Error(messages.admin.webhook.endpointMissing(endpointId, id));
  return statusView(endpoint, publicBaseUrl);
}

/** A new token and its audit entry (never the token) in one transaction. */
async function rotateToken(
  deps: Deps,
  change: { workspaceId: string; endpointId: string; actingMemberId: ActingMemberId },
  publicBaseUrl: string,
): Promise<WebhookTokenView> {
  const token = newWebhookToken();
  const audit = newAuditEntry(deps.clock(), {
    workspaceId: change.workspaceId,
    memberId: change.actingMemberId,
    action: 'webhook.token_generated',
    targetId: change.endpointId,
    summary: messages.audit.webhookTokenRegenerated,
  });
  await replaceEndpointToken(
    deps,
    { id: change.endpointId, workspaceId: change.workspaceId, tokenFingerprint: fingerprint(token) },
    audit,
  );
  return { endpoint_id: change.endpointId, url: webhookUrl(publicBaseUrl, change.endpointId), token };
}
