import { aProspectItem } from '../support/prospect-items';
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { addTag } from '../../lib/settings/config-edits';
import { seedWorkspace } from '../../tools/seed/seed';
import { generateWebhook } from '../../lib/settings/webhooks';
import { inRegion, listWorkspaces, setWorkspace } from '../../tools/admin/use-cases/workspaces';
import { showWorkspace } from '../../lib/settings/workspace-view';
import { listAudit } from '../../lib/settings/audit';
import { productionDeps } from '../../lib/storage/client';
import { newAuditEntry } from '../../lib/storage/audit-log';
import { createEndpoint } from '../../lib/storage/credential-creation';
import { keys } from '../../lib/storage/table-items';
import { indexPhones, listProspectPhones } from '../../tools/admin/storage/phone-index';
import { loadWorkspaceConfig } from '../../lib/storage/workspace-config';
import { runAdminInProcess } from '../support/admin-cli';
import { aWorkspace } from '../support/seed';
import { defaultPhoneSettings, phoneSettingsOf } from '../../lib/domain/model';

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
  it('shows a workspace with the default settings when none is stored', async () => {
    const workspaceId = await seededAt('2001-05-01T00:00:00.000Z', 'Acme');
    expect(await showWorkspace(deps, workspaceId)).toEqual({
      id: workspaceId,
      name: 'Acme',
      phone_matching: 'exact',
      phone_region: 'FR',
      time_zone: 'Europe/Paris',
      retention_months: null,
      created_at: '2001-05-01T00:00:00.000Z',
    });
    expect(defaultPhoneSettings).toEqual({ phone_matching: 'exact', phone_region: 'FR' });
    expect(await storedItem(workspaceId)).not.toHaveProperty('time_zone');

    const run = await runAdminInProcess(deps, 'workspace', 'show', '--workspace', workspaceId.toUpperCase(), '--json');
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(Object.keys(JSON.parse(run.stdout))).toEqual([
      'id',
      'name',
      'phone_matching',
      'phone_region',
      'time_zone',
      'retention_months',
      'created_at',
    ]);
    const text = await runAdminInProcess(deps, 'workspace', 'show', '--workspace', workspaceId);
    expect(text.stdout).toMatch(/^Identifiant\s+: /);
    expect(text.stdout).toMatch(/Région des téléphones\s+: FR/);
    expect(text.stdout).toMatch(/Fuseau horaire\s+: Europe\/Paris/);
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

/** A prospect written as the lead webhook writes one, created at `at` (its age orders the indexing). */
async function aProspect(workspaceId: string, at: string, phone: string | null): Promise<string> {
  const id = randomUUID();
  await deps.db.send(
    new PutCommand({
      TableName: deps.tableName,
      Item: aProspectItem(workspaceId, { id, phone, created_at: at }),
    }),
  );
  return id;
}

const markerOwner = async (workspaceId: string, e164: string) =>
  (await deps.db.send(new GetCommand({ TableName: deps.tableName, Key: keys.phoneE164Marker(workspaceId, e164) }))).Item
    ?.record_id as string | undefined;

const endpointItem = async (endpointId: string) =>
  (await deps.db.send(new GetCommand({ TableName: deps.tableName, Key: keys.endpoint(endpointId) }))).Item;

/** A workspace with its webhook, and prospects: an older mobile in national form, the same newer in international form, an invalid phone, none, a number that reads differently in BE. */
async function workspaceWithPhones() {
  const seed = await seedWorkspace(deps, aWorkspace({ workspace: { name: 'Téléphones' }, prospects: [] }));
  const workspaceId = seed.workspace_id;
  const older = await aProspect(workspaceId, '2001-06-01T00:00:00.000Z', '06 12 34 56 78');
  const newer = await aProspect(workspaceId, '2001-06-02T00:00:00.000Z', '+33 6 12 34 56 78');
  const invalid = await aProspect(workspaceId, '2001-06-03T00:00:00.000Z', '12');
  const none = await aProspect(workspaceId, '2001-06-04T00:00:00.000Z', null);
  const belgian = await aProspect(workspaceId, '2001-06-05T00:00:00.000Z', '0470 12 34 56');
  return { workspaceId, endpointId: seed.webhook?.endpoint_id as string, older, newer, invalid, none, belgian };
}

describe('workspace set', () => {
  it('changes the settings, raises config_version, copies them to the endpoint, and show reads them back', async () => {
    const { workspaceId, endpointId } = await workspaceWithPhones();
    const before = (await storedItem(workspaceId))?.config_version as number;
    const set = await setWorkspace(deps, workspaceId, { phoneRegion: 'be' });
    expect(set).toEqual({
      id: workspaceId,
      name: 'Téléphones',
      phone_matching: 'exact',
      phone_region: 'BE',
      time_zone: 'Europe/Paris',
      retention_months: null,
      created_at: expect.any(String),
    });
    expect(await showWorkspace(deps, workspaceId)).toEqual(set);
    expect((await storedItem(workspaceId))?.config_version).toBe(before + 1);
    expect(await endpointItem(endpointId)).toMatchObject({ phone_matching: 'exact', phone_region: 'BE' });

    const run = await runAdminInProcess(
      deps,
      'workspace',
      'set',
      '--workspace',
      workspaceId,
      '--phone-region',
      'FR',
      '--json',
    );
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(Object.keys(JSON.parse(run.stdout))).toEqual([
      'id',
      'name',
      'phone_matching',
      'phone_region',
      'time_zone',
      'retention_months',
      'created_at',
    ]);
    expect((await storedItem(workspaceId))?.config_version).toBe(before + 2);
    const text = await runAdminInProcess(
      deps,
      'workspace',
      'set',
      '--workspace',
      workspaceId,
      '--phone-matching',
      'exact',
    );
    expect(text.stdout).toMatch(/Comparaison des téléphones\s+: exacte/);
  });

  it('sets the time zone as the settings API does: stored, audited as the command line, shown; again, nothing written', async () => {
    const { workspaceId } = await workspaceWithPhones();
    const before = (await storedItem(workspaceId))?.config_version as number;
    const run = await runAdminInProcess(
      deps,
      ...['workspace', 'set', '--workspace', workspaceId, '--time-zone', 'America/Montreal', '--json'],
    );
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual({
      id: workspaceId,
      name: 'Téléphones',
      phone_matching: 'exact',
      phone_region: 'FR',
      time_zone: 'America/Montreal',
      retention_months: null,
      created_at: expect.any(String),
    });
    expect(await storedItem(workspaceId)).toMatchObject({ time_zone: 'America/Montreal', config_version: before + 1 });
    const { entries } = await listAudit(deps, { workspaceId });
    expect(entries).toEqual([
      {
        id: expect.any(String),
        at: expect.any(String),
        member_id: null,
        action: 'workspace.time_zone_changed',
        target_id: workspaceId,
        summary: "Réglage de l'espace modifié : fuseau horaire Europe/Paris → America/Montreal.",
      },
    ]);
    const shown = await runAdminInProcess(deps, 'workspace', 'show', '--workspace', workspaceId);
    expect(shown.stdout).toMatch(/Fuseau horaire\s+: America\/Montreal/);

    const again = await runAdminInProcess(
      deps,
      'workspace',
      'set',
      '--workspace',
      workspaceId,
      '--time-zone',
      'America/Montreal',
    );
    expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: '' });
    expect(again.stdout).toMatch(/Fuseau horaire\s+: America\/Montreal/);
    expect((await storedItem(workspaceId))?.config_version).toBe(before + 1);
    expect((await listAudit(deps, { workspaceId })).entries).toHaveLength(1);
  });

  it('sets the time zone and the phone settings in one command, each its own write', async () => {
    const { workspaceId, endpointId } = await workspaceWithPhones();
    const before = (await storedItem(workspaceId))?.config_version as number;
    const set = await setWorkspace(deps, workspaceId, { timeZone: 'Asia/Tokyo', phoneRegion: 'BE' });
    expect(set).toMatchObject({ phone_matching: 'exact', phone_region: 'BE', time_zone: 'Asia/Tokyo' });
    expect(await showWorkspace(deps, workspaceId)).toEqual(set);
    expect(await endpointItem(endpointId)).toMatchObject({ phone_region: 'BE' });
    expect(await endpointItem(endpointId)).not.toHaveProperty('time_zone');
    expect((await storedItem(workspaceId))?.config_version).toBe(before + 2);
  });

  it.each([
    [['--phone-region', 'ZZ'], /Valeur de --phone-region invalide : « ZZ »/],
    [['--phone-region', 'France'], /Valeur de --phone-region invalide/],
    [['--phone-matching', 'E.164'], /Valeur de --phone-matching invalide : « E.164 »/],
    [['--time-zone', 'Europe/Lyon'], /Valeur de --time-zone invalide : « Europe\/Lyon » : un fuseau horaire IANA/],
    [['--time-zone', '+02:00', '--phone-region', 'BE'], /Valeur de --time-zone invalide : « \+02:00 »/],
    [['--time-zone', 'Europe/Paris', '--phone-region', 'ZZ'], /Valeur de --phone-region invalide : « ZZ »/],
    [
      [],
      /Indiquez au moins une option à changer : --phone-matching, --phone-region, --time-zone ou --retention-months/,
    ],
  ])('refuses %j: exit 2, a French message, nothing written', async (options, message) => {
    const { workspaceId } = await workspaceWithPhones();
    const before = await storedItem(workspaceId);
    for (const json of [[], ['--json']]) {
      const run = await runAdminInProcess(deps, 'workspace', 'set', '--workspace', workspaceId, ...options, ...json);
      expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: '' });
      expect(run.stderr).toMatch(message);
    }
    expect(await storedItem(workspaceId)).toEqual(before);
  });

  it('turning e164 on indexes the prospects: the older keeps a shared number, the newer is listed; again, the same', async () => {
    const { workspaceId, endpointId, older, newer, belgian } = await workspaceWithPhones();
    const set = await setWorkspace(deps, workspaceId, { phoneMatching: 'e164' });
    expect(set).toMatchObject({ phone_matching: 'e164', phone_region: 'FR' });
    expect(set.shared_numbers).toEqual([{ phone_e164: '+33612345678', kept: older, others: [newer] }]);
    expect(await markerOwner(workspaceId, '+33612345678')).toBe(older);
    expect(await markerOwner(workspaceId, '+33470123456')).toBe(belgian);
    expect(await endpointItem(endpointId)).toMatchObject({ phone_matching: 'e164', phone_region: 'FR' });

    const again = await runAdminInProcess(
      deps,
      'workspace',
      'set',
      '--workspace',
      workspaceId,
      '--phone-matching',
      'e164',
      '--json',
    );
    expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(again.stdout).shared_numbers).toEqual(set.shared_numbers);
    expect(await markerOwner(workspaceId, '+33612345678')).toBe(older);
    const text = await runAdminInProcess(
      deps,
      'workspace',
      'set',
      '--workspace',
      workspaceId,
      '--phone-matching',
      'e164',
    );
    expect(text.stdout).toContain('+33612345678');
  });

  it('completes an interrupted indexing', async () => {
    const { workspaceId, older, newer, belgian } = await workspaceWithPhones();
    const listed = await listProspectPhones(deps, workspaceId);
    expect(listed.map((prospect) => prospect.id).slice(0, 2)).toEqual([older, newer]);
    // Interrupted after the first prospects: markers written, the settings never switched.
    await indexPhones(deps, workspaceId, listed.slice(0, 2), inRegion('FR'));
    expect(await showWorkspace(deps, workspaceId)).toMatchObject({ phone_matching: 'exact' });
    expect(await markerOwner(workspaceId, '+33470123456')).toBeUndefined();

    const set = await setWorkspace(deps, workspaceId, { phoneMatching: 'e164' });
    expect(set.shared_numbers).toEqual([{ phone_e164: '+33612345678', kept: older, others: [newer] }]);
    expect(await markerOwner(workspaceId, '+33470123456')).toBe(belgian);
  });

  it("changing the region indexes again, and the old region's markers that differ are removed", async () => {
    const { workspaceId, endpointId, newer, belgian } = await workspaceWithPhones();
    await setWorkspace(deps, workspaceId, { phoneMatching: 'e164' });
    const set = await setWorkspace(deps, workspaceId, { phoneRegion: 'BE' });
    expect(set).toMatchObject({ phone_matching: 'e164', phone_region: 'BE', shared_numbers: [] });
    // `06 12 34 56 78` is no Belgian number: the international one is the newer's alone now.
    expect(await markerOwner(workspaceId, '+33612345678')).toBe(newer);
    expect(await markerOwner(workspaceId, '+32470123456')).toBe(belgian);
    expect(await markerOwner(workspaceId, '+33470123456')).toBeUndefined();
    expect(await endpointItem(endpointId)).toMatchObject({ phone_matching: 'e164', phone_region: 'BE' });
  });

  it('turning e164 off keeps the markers and switches the mode, without indexing', async () => {
    const { workspaceId, endpointId, older } = await workspaceWithPhones();
    await setWorkspace(deps, workspaceId, { phoneMatching: 'e164' });
    const set = await setWorkspace(deps, workspaceId, { phoneMatching: 'exact' });
    expect(set).toMatchObject({ phone_matching: 'exact', phone_region: 'FR' });
    expect(set).not.toHaveProperty('shared_numbers');
    expect(await markerOwner(workspaceId, '+33612345678')).toBe(older);
    expect(await endpointItem(endpointId)).toMatchObject({ phone_matching: 'exact', phone_region: 'FR' });
  });

  it('a new endpoint carries the settings, and is refused when they changed since they were read', async () => {
    const seed = await seedWorkspace(deps, aWorkspace({ prospects: [], webhook: undefined }));
    const workspaceId = seed.workspace_id;
    await setWorkspace(deps, workspaceId, { phoneMatching: 'e164', phoneRegion: 'BE' });
    const generated = await generateWebhook(deps, workspaceId, 'https://api.example.test');
    expect(await endpointItem(generated.endpoint_id)).toMatchObject({
      workspace_id: workspaceId,
      phone_matching: 'e164',
      phone_region: 'BE',
    });

    const other = await seedWorkspace(deps, aWorkspace({ prospects: [], webhook: undefined }));
    const version = (await storedItem(other.workspace_id))?.config_version as number;
    await setWorkspace(deps, other.workspace_id, { phoneRegion: 'CH' });
    const endpoint = {
      id: randomUUID(),
      workspace_id: other.workspace_id,
      token_fingerprint: 'x',
      active: true,
      created_at: '2001-01-01T00:00:00.000Z',
      last_call_at: null,
      phone_matching: 'exact' as const,
      phone_region: 'FR',
    };
    const audit = newAuditEntry(new Date(), {
      workspaceId: other.workspace_id,
      memberId: null,
      action: 'webhook.token_generated',
      targetId: endpoint.id,
      summary: 'Webhook généré.',
    });
    expect(await createEndpoint(deps, endpoint, version, audit)).toBe('workspace_changed');
    expect(await endpointItem(endpoint.id)).toBeUndefined();
  });

  it('concurrent changes do not lose each other', async () => {
    const { workspaceId, endpointId, older, newer } = await workspaceWithPhones();
    const before = (await storedItem(workspaceId))?.config_version as number;
    const [matching] = await Promise.all([
      setWorkspace(deps, workspaceId, { phoneMatching: 'e164' }),
      setWorkspace(deps, workspaceId, { phoneRegion: 'BE' }),
      setWorkspace(deps, workspaceId, { phoneRegion: 'BE' }),
    ]);
    expect(matching.phone_matching).toBe('e164');
    expect(await showWorkspace(deps, workspaceId)).toMatchObject({ phone_matching: 'e164', phone_region: 'BE' });
    expect(await endpointItem(endpointId)).toMatchObject({ phone_matching: 'e164', phone_region: 'BE' });
    expect((await storedItem(workspaceId))?.config_version).toBe(before + 3);
    expect([older, newer]).toContain(await markerOwner(workspaceId, '+33612345678'));
  });
});
