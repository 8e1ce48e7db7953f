import { randomUUID } from 'node:crypto';
import { listApiKeys } from '../../lib/settings/api-key-list';
import { createApiKey, revokeApiKey } from '../../lib/settings/api-keys';
import { AdminInputError } from '../../lib/settings/admin-input';
import { InvalidInputError, NotFoundError } from '../../lib/domain/model';
import { authorize } from '../../lib/auth/authorize';
import { productionDeps } from '../../lib/storage/client';
import { allScopes } from '../../lib/routes';
import { fingerprint, getApiKeyByFingerprint } from '../../lib/storage/credentials';
import { aWorkspace, seedTestWorkspace } from '../support/seed';

const deps = productionDeps();

const listPipelinesWith = (secret: string) =>
  authorize(deps, {
    method: 'GET',
    resource: '/pipelines',
    headers: { Authorization: `Bearer ${secret}` },
    query: null,
  });

const emptyWorkspace = () => seedTestWorkspace(aWorkspace({ api_keys: [], prospects: [] }));

describe('apikey create', () => {
  it('creates a key with the five scopes by default, storing only its fingerprint', async () => {
    const { workspace_id: workspaceId } = await emptyWorkspace();
    const created = await createApiKey(deps, { workspaceId, name: '  Zapier  ' });

    expect(created).toEqual({
      id: expect.any(String),
      name: 'Zapier',
      scopes: [...allScopes],
      secret: expect.any(String),
    });
    expect(created.scopes).toEqual([
      'pipelines:read',
      'prospects:read',
      'prospects:write',
      'notes:write',
      'tags:write',
    ]);
    const stored = await getApiKeyByFingerprint(deps, fingerprint(created.secret));
    expect(stored).toMatchObject({ id: created.id, workspace_id: workspaceId, revoked_at: null });
    expect(JSON.stringify(stored)).not.toContain(created.secret);
    expect(await listPipelinesWith(created.secret)).toMatchObject({ outcome: 'allowed' });
  });

  it('accepts `*` and any of the five scopes, and refuses any other', async () => {
    const { workspace_id: workspaceId } = await emptyWorkspace();
    const all = await createApiKey(deps, { workspaceId, name: 'Tout', scopes: ['*'] });
    expect(all.scopes).toEqual(['*']);
    const notesOnly = await createApiKey(deps, { workspaceId, name: 'Notes', scopes: ['notes:write', ' tags:write'] });
    expect(notesOnly.scopes).toEqual(['notes:write', 'tags:write']);
    expect(await listPipelinesWith(notesOnly.secret)).toMatchObject({ outcome: 'forbidden' });

    await expect(createApiKey(deps, { workspaceId, name: 'X', scopes: ['prospects:delete'] })).rejects.toThrow(
      /Droit inconnu : prospects:delete/,
    );
    await expect(createApiKey(deps, { workspaceId, name: 'X', scopes: [''] })).rejects.toBeInstanceOf(
      InvalidInputError,
    );
    expect(await listApiKeys(deps, workspaceId)).toHaveLength(2);
  });

  it('refuses an unknown workspace and an empty name', async () => {
    await expect(createApiKey(deps, { workspaceId: randomUUID(), name: 'Zapier' })).rejects.toThrow(
      /Espace de travail inconnu/,
    );
    await expect(createApiKey(deps, { workspaceId: 'not-a-uuid', name: 'Zapier' })).rejects.toBeInstanceOf(
      AdminInputError,
    );
    const { workspace_id: workspaceId } = await emptyWorkspace();
    await expect(createApiKey(deps, { workspaceId, name: ' ' })).rejects.toBeInstanceOf(InvalidInputError);
  });
});

describe('apikey list', () => {
  it('lists ids, names, scopes and dates, oldest first, never a secret', async () => {
    const seed = await seedTestWorkspace();
    const later = { ...deps, clock: () => new Date('2099-01-01T00:00:00.000Z') };
    const created = await createApiKey(later, { workspaceId: seed.workspace_id, name: 'Make', scopes: ['tags:write'] });

    const listed = await listApiKeys(deps, seed.workspace_id);
    expect(listed.at(-1)).toEqual({
      id: created.id,
      name: 'Make',
      scopes: ['tags:write'],
      created_at: '2099-01-01T00:00:00.000Z',
      revoked_at: null,
    });
    expect(listed.map((key) => key.id).sort()).toEqual(
      [seed.api_keys.admin?.id, seed.api_keys.reader?.id, created.id].sort(),
    );
    const printed = JSON.stringify(listed);
    for (const secret of [created.secret, seed.api_keys.admin?.secret ?? '']) expect(printed).not.toContain(secret);
    expect(printed).not.toContain('fingerprint');
  });

  it('refuses an unknown workspace', async () => {
    await expect(listApiKeys(deps, randomUUID())).rejects.toBeInstanceOf(AdminInputError);
  });
});

describe('apikey revoke', () => {
  it('stops the key at once and keeps the first revocation date', async () => {
    const seed = await seedTestWorkspace();
    const admin = seed.api_keys.admin;
    if (!admin) throw new Error('seed output incomplete');
    expect(await listPipelinesWith(admin.secret)).toMatchObject({ outcome: 'allowed' });

    const revoked = await revokeApiKey(deps, { workspaceId: seed.workspace_id, keyId: admin.id });
    expect(revoked).toEqual({ id: admin.id, revoked_at: expect.stringMatching(/Z$/) });
    expect(await listPipelinesWith(admin.secret)).toEqual({ outcome: 'unauthorized' });
    const again = await revokeApiKey(deps, { workspaceId: seed.workspace_id, keyId: admin.id });
    expect(again).toEqual(revoked);

    const listed = await listApiKeys(deps, seed.workspace_id);
    expect(listed.find((key) => key.id === admin.id)?.revoked_at).toBe(revoked.revoked_at);
    expect(listed.find((key) => key.id === seed.api_keys.reader?.id)?.revoked_at).toBeNull();
  });

  it("refuses an unknown id and another workspace's key, revoking nothing", async () => {
    const mine = await seedTestWorkspace();
    const theirs = await seedTestWorkspace();
    const theirKey = theirs.api_keys.admin;
    if (!theirKey) throw new Error('seed output incomplete');

    await expect(revokeApiKey(deps, { workspaceId: mine.workspace_id, keyId: randomUUID() })).rejects.toThrow(
      /Clé d'API inconnue/,
    );
    await expect(revokeApiKey(deps, { workspaceId: mine.workspace_id, keyId: theirKey.id })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(revokeApiKey(deps, { workspaceId: randomUUID(), keyId: theirKey.id })).rejects.toBeInstanceOf(
      AdminInputError,
    );
    expect(await listPipelinesWith(theirKey.secret)).toMatchObject({ outcome: 'allowed' });
  });
});
