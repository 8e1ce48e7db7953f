import { randomUUID } from 'node:crypto';
import { AdminInputError } from '../../lib/settings/admin-input';
import { NotFoundError } from '../../lib/domain/model';
import { webhookStatus } from '../../lib/settings/webhook-status';
import { generateWebhook, regenerateWebhook, setWebhookActive } from '../../lib/settings/webhooks';
import { productionDeps } from '../../lib/storage/client';
import { fingerprint, getEndpoint, checkTokenAndStampLastCall } from '../../lib/storage/credentials';
import { loadWorkspaceConfig } from '../../lib/storage/workspace-config';
import { aWorkspace, seedTestWorkspace } from '../support/seed';

const deps = productionDeps();
const base = 'https://crm.example.test/prod/';

const withoutWebhook = async (): Promise<string> =>
  (await seedTestWorkspace(aWorkspace({ webhook: undefined, prospects: [] }))).workspace_id;

describe('webhook generate', () => {
  it('creates an active endpoint the workspace points to, storing only the token fingerprint', async () => {
    const workspaceId = await withoutWebhook();
    const generated = await generateWebhook(deps, workspaceId, base);

    expect(generated).toEqual({
      endpoint_id: expect.any(String),
      url: `https://crm.example.test/prod/webhooks/ingest-lead?endpoint_id=${generated.endpoint_id}`,
      token: expect.any(String),
    });
    const endpoint = await getEndpoint(deps, generated.endpoint_id);
    expect(endpoint).toMatchObject({
      workspace_id: workspaceId,
      token_fingerprint: fingerprint(generated.token),
      active: true,
      last_call_at: null,
    });
    expect(JSON.stringify(endpoint)).not.toContain(generated.token);
    expect((await loadWorkspaceConfig(deps, workspaceId)).workspace?.endpoint_id).toBe(generated.endpoint_id);
  });

  it('rotates the token of an existing endpoint instead of creating a second one', async () => {
    const seed = await seedTestWorkspace();
    const generated = await generateWebhook(deps, seed.workspace_id, base);

    expect(generated.endpoint_id).toBe(seed.webhook?.endpoint_id);
    expect(generated.token).not.toBe(seed.webhook?.token);
    expect((await getEndpoint(deps, generated.endpoint_id))?.token_fingerprint).toBe(fingerprint(generated.token));
  });

  it('refuses an unknown workspace', async () => {
    await expect(generateWebhook(deps, randomUUID(), base)).rejects.toThrow(/Espace de travail inconnu/);
  });
});

describe('webhook regenerate', () => {
  it('replaces the fingerprint: the old token no longer matches', async () => {
    const seed = await seedTestWorkspace();
    const endpointId = seed.webhook?.endpoint_id ?? '';
    const oldToken = seed.webhook?.token ?? '';
    const regenerated = await regenerateWebhook(deps, seed.workspace_id, base);

    expect(regenerated.endpoint_id).toBe(endpointId);
    expect((await getEndpoint(deps, endpointId))?.token_fingerprint).toBe(fingerprint(regenerated.token));
    expect(await checkTokenAndStampLastCall(deps, endpointId, fingerprint(oldToken), new Date())).toMatchObject({
      kind: 'refused',
    });
    expect(
      await checkTokenAndStampLastCall(deps, endpointId, fingerprint(regenerated.token), new Date()),
    ).toMatchObject({
      kind: 'recorded',
      endpoint: { id: endpointId, workspace_id: seed.workspace_id },
    });
    expect(await checkTokenAndStampLastCall(deps, endpointId, undefined, new Date())).toMatchObject({
      kind: 'refused',
    });
    expect(await checkTokenAndStampLastCall(deps, randomUUID(), fingerprint(oldToken), new Date())).toEqual({
      kind: 'unknown_endpoint',
    });
  });

  it('refuses a workspace without webhook', async () => {
    const workspaceId = await withoutWebhook();
    await expect(regenerateWebhook(deps, workspaceId, base)).rejects.toThrow(/générez-le d'abord/);
  });
});

describe('webhook enable, disable and status', () => {
  it('flips the active flag and reports the last call received', async () => {
    const seed = await seedTestWorkspace();
    const endpointId = seed.webhook?.endpoint_id ?? '';
    const url = `https://crm.example.test/prod/webhooks/ingest-lead?endpoint_id=${endpointId}`;

    expect(await setWebhookActive(deps, seed.workspace_id, false, base)).toEqual({
      endpoint_id: endpointId,
      url,
      active: false,
      last_call_at: null,
    });
    expect(
      await checkTokenAndStampLastCall(deps, endpointId, fingerprint(seed.webhook?.token ?? ''), new Date()),
    ).toMatchObject({
      kind: 'refused',
    });

    expect(await setWebhookActive(deps, seed.workspace_id, true, base)).toMatchObject({ active: true });
    const calledAt = new Date('2026-11-22T10:00:00.000Z');
    await checkTokenAndStampLastCall(deps, endpointId, fingerprint(seed.webhook?.token ?? ''), calledAt);
    expect(await webhookStatus(deps, seed.workspace_id, base)).toEqual({
      endpoint_id: endpointId,
      url,
      active: true,
      last_call_at: '2026-11-22T10:00:00.000Z',
    });
  });

  it('seeds a disabled webhook when the file says so', async () => {
    const seed = await seedTestWorkspace(aWorkspace({ webhook: { active: false } }));
    expect(await webhookStatus(deps, seed.workspace_id, base)).toMatchObject({ active: false });
  });

  it('refuses a workspace without webhook and an unknown workspace', async () => {
    const workspaceId = await withoutWebhook();
    await expect(webhookStatus(deps, workspaceId, base)).rejects.toBeInstanceOf(NotFoundError);
    await expect(setWebhookActive(deps, workspaceId, true, base)).rejects.toBeInstanceOf(NotFoundError);
    await expect(webhookStatus(deps, randomUUID(), base)).rejects.toBeInstanceOf(AdminInputError);
  });
});
