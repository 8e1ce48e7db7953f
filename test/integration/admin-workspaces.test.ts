import { randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { addTag } from '../../lib/admin/config-edits';
import { seedWorkspace } from '../../lib/admin/seed';
import { listWorkspaces, showWorkspace } from '../../lib/admin/workspaces';
import { productionDeps } from '../../lib/deps';
import { keys } from '../../lib/storage/keys';
import { defaultPhoneSettings, loadWorkspaceConfig, phoneSettingsOf } from '../../lib/storage/workspace-config';
import { runAdminInProcess } from '../support/admin-cli';
import { aWorkspace } from '../support/seed';

const deps = productionDeps();
afterAll(() => deps.db.destroy());

/** A workspace seeded as if at `at`: its creation date orders the list. */
const seededAt = async (at: string, name: string): Promise<string> =>
  (await seedWorkspace({ ...deps, clock: () => new Date(at) }, aWorkspace({ workspace: { name }, prospects: [] })))
    .workspace_id;

const storedItem = async (workspaceId: string) =>
  (await deps.db.send(new GetCommand({ TableName: deps.tableName, Key: keys.workspace(workspaceId) }))).Item;

describe('workspace list', () => {
  it('lists every workspace, oldest first, with its id, name and creation date only', async () => {
    // Seeded newest first: the order listed comes from the creation dates, not from the writes.
    const later = await seededAt('2001-03-02T00:00:00.000Z', 'Plus récent');
    const earlier = await seededAt('2001-03-01T00:00:00.000Z', 'Plus ancien');

    const listed = await listWorkspaces(deps);
    const mine = listed.filter((workspace) => [earlier, later].includes(workspace.id));
    expect(mine).toEqual([
      { id: earlier, name: 'Plus ancien', created_at: '2001-03-01T00:00:00.000Z' },
      { id: later, name: 'Plus récent', created_at: '2001-03-02T00:00:00.000Z' },
    ]);
    for (const workspace of listed) expect(Object.keys(workspace)).toEqual(['id', 'name', 'created_at']);
    const dates = listed.map((workspace) => workspace.created_at);
    expect(dates).toEqual([...dates].sort());

    const run = await runAdminInProcess(deps, 'workspace', 'list', '--json');
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const document = JSON.parse(run.stdout) as { workspaces: unknown[] };
    expect(Object.keys(document)).toEqual(['workspaces']);
    expect(document.workspaces).toEqual(expect.arrayContaining(mine));

    const text = await runAdminInProcess(deps, 'workspace', 'list');
    expect(text.stdout).toMatch(/^Identifiant\s+Nom\s+Créé le/);
    expect(text.stdout).toContain(earlier);
  });

  it('indexes the configuration item, and the configuration edits leave the index attributes as stored', async () => {
    const workspaceId = await seededAt('2001-04-01T00:00:00.000Z', 'Indexé');
    expect(await storedItem(workspaceId)).toMatchObject({
      gsi1pk: 'WORKSPACES',
      gsi1sk: `2001-04-01T00:00:00.000Z#${workspaceId}`,
    });
    const config = await loadWorkspaceConfig(deps, workspaceId);
    expect(Object.keys(config.workspace ?? {}).sort()).toEqual(['created_at', 'endpoint_id', 'id', 'name', 'type']);

    await addTag(deps, { workspaceId, name: 'Nouvelle étiquette' });
    expect(await storedItem(workspaceId)).toMatchObject({
      gsi1pk: 'WORKSPACES',
      gsi1sk: `2001-04-01T00:00:00.000Z#${workspaceId}`,
      config_version: 2,
    });
    expect((await listWorkspaces(deps)).filter((workspace) => workspace.id === workspaceId)).toHaveLength(1);
  });
});

describe('workspace show', () => {
  it('shows a workspace with the default phone settings when none is stored', async () => {
    const workspaceId = await seededAt('2001-05-01T00:00:00.000Z', 'Acme');
    expect(await showWorkspace(deps, workspaceId)).toEqual({
      id: workspaceId,
      name: 'Acme',
      phone_matching: 'exact',
      phone_region: 'FR',
      created_at: '2001-05-01T00:00:00.000Z',
    });
    expect(defaultPhoneSettings).toEqual({ phone_matching: 'exact', phone_region: 'FR' });

    const run = await runAdminInProcess(deps, 'workspace', 'show', '--workspace', workspaceId.toUpperCase(), '--json');
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(Object.keys(JSON.parse(run.stdout))).toEqual(['id', 'name', 'phone_matching', 'phone_region', 'created_at']);
    const text = await runAdminInProcess(deps, 'workspace', 'show', '--workspace', workspaceId);
    expect(text.stdout).toMatch(/^Identifiant\s+: /);
    expect(text.stdout).toMatch(/Région des téléphones\s+: FR/);
  });

  it('reads the phone settings stored on the configuration item', async () => {
    const workspaceId = await seededAt('2001-05-02T00:00:00.000Z', 'Belge');
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: keys.workspace(workspaceId),
        UpdateExpression: 'SET phone_matching = :matching, phone_region = :region',
        ExpressionAttributeValues: { ':matching': 'e164', ':region': 'BE' },
      }),
    );
    expect(await showWorkspace(deps, workspaceId)).toMatchObject({ phone_matching: 'e164', phone_region: 'BE' });
    expect(phoneSettingsOf(await storedItem(workspaceId))).toEqual({ phone_matching: 'e164', phone_region: 'BE' });
  });

  it('reads an absent or unreadable setting as its default', () => {
    expect(phoneSettingsOf(undefined)).toEqual({ phone_matching: 'exact', phone_region: 'FR' });
    expect(phoneSettingsOf({ phone_matching: 'E164', phone_region: 'be' })).toEqual({
      phone_matching: 'exact',
      phone_region: 'FR',
    });
    expect(phoneSettingsOf({ phone_matching: 'e164' })).toEqual({ phone_matching: 'e164', phone_region: 'FR' });
  });

  it.each([
    ['an unknown workspace', () => randomUUID(), /^Erreur : Espace de travail inconnu : [0-9a-f-]{36}/],
    ['a malformed id', () => 'pas-un-uuid', /^Erreur : Identifiant d'espace de travail invalide/],
    ['an empty id', () => '', /^Erreur : Option obligatoire manquante ou vide : --workspace/],
  ])('refuses %s: exit 2, a French message, nothing on stdout', async (_label, id, message) => {
    for (const json of [[], ['--json']]) {
      const run = await runAdminInProcess(deps, 'workspace', 'show', '--workspace', id(), ...json);
      expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: '' });
      expect(run.stderr).toMatch(message);
    }
  });

  it('refuses an option `workspace list` does not take, and `workspace show` without --workspace', async () => {
    const list = await runAdminInProcess(deps, 'workspace', 'list', '--workspace', randomUUID(), '--json');
    expect({ code: list.code, stdout: list.stdout }).toEqual({ code: 2, stdout: '' });
    expect(list.stderr).toMatch(/Option inconnue pour « workspace list » : --workspace/);
    const show = await runAdminInProcess(deps, 'workspace', 'show', '--json');
    expect({ code: show.code, stdout: show.stdout }).toEqual({ code: 2, stdout: '' });
    expect(show.stderr).toMatch(/--workspace/);
  });
});
