import { seedWorkspace } from '../../lib/admin/seed';
import type { AuthDecision } from '../../lib/auth/context';
import { productionDeps } from '../../lib/deps';
import type { Call } from './workspace';

/*
 * The first events of the settings routes on a workspace's tags, API keys and webhook (decisions 7.2): each cold
 * start's call does its real work, on a workspace of their own, seeded here, whose admin is the bench's signed-in
 * person. Its own, because a new webhook token replaces the old one: the bench's workspaces keep theirs.
 */

type FirstCall = (run: number) => { call: Call; decision: AuthDecision };

/** `accessToken`: the session of `email`, who becomes the admin of the seeded workspace. */
export async function workspaceSettingsFirstCalls(
  email: string,
  accessToken: string,
): Promise<Record<string, FirstCall>> {
  const deps = productionDeps();
  const seed = await seedWorkspace(deps, {
    workspace: { name: 'Banc des réglages' },
    members: [{ key: 'admin', name: 'Alice Martin', email, role: 'admin' }],
    tags: [{ key: 'vip', name: 'VIP' }],
    api_keys: [
      { key: 'integration', name: 'Intégration', scopes: ['*'] },
      { key: 'revoked', name: 'À révoquer', scopes: ['*'] },
    ],
    webhook: { active: true },
  }).finally(() => deps.db.destroy());
  const workspace = `/workspaces/${seed.workspace_id}`;
  const decision: AuthDecision = {
    outcome: 'allowed',
    principal: {
      kind: 'member',
      email,
      tokenId: `banc-${email}`,
      issuedAt: Math.floor(Date.now() / 1000),
      membership: { workspaceId: seed.workspace_id, memberId: seed.members.admin as string, role: 'admin' },
    },
  };
  const first =
    (method: string, path: string, body?: (run: number) => unknown): FirstCall =>
    (run) => ({
      call: {
        method,
        path: `${workspace}${path}`,
        headers: { authorization: `Bearer ${accessToken}` },
        body: body?.(run),
      },
      decision,
    });
  return {
    getWorkspace: first('GET', ''),
    listTags: first('GET', '/tags'),
    createTag: first('POST', '/tags', (run) => ({ name: `Banc ${run}` })),
    renameTag: first('PATCH', `/tags/${seed.tags.vip}`, (run) => ({ name: `VIP ${run}` })),
    listApiKeys: first('GET', '/api-keys'),
    createApiKey: first('POST', '/api-keys', (run) => ({ name: `Clé ${run}` })),
    // Revoked by the first run; the next ones answer the first revocation, as `apikey revoke` does.
    revokeApiKey: first('DELETE', `/api-keys/${seed.api_keys.revoked?.id}`),
    listApiKeyChanges: first('GET', `/api-keys/${seed.api_keys.integration?.id}/changes`),
    getWebhook: first('GET', '/webhook'),
    generateWebhookToken: first('POST', '/webhook/token'),
    setWebhookActive: first('PATCH', '/webhook', () => ({ active: true })),
  };
}
