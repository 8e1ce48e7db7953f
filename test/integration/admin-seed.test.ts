import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { AdminInputError } from '../../lib/settings/admin-input';
import { seedWorkspace } from '../../tools/seed/seed';
import { productionDeps, type Deps } from '../../lib/storage/client';
import { allScopes } from '../../lib/routes';
import { fingerprint, getApiKeyByFingerprint, getEndpoint } from '../../lib/storage/credentials';
import { keys, type ItemKey, type MarkerItem, type ProspectItem } from '../../lib/storage/table-items';
import { loadWorkspaceConfig } from '../../lib/storage/workspace-config';
import { aWorkspace, seedTestWorkspace } from '../support/seed';

const deps = productionDeps();

const getItem = async <T>(key: ItemKey): Promise<T | undefined> =>
  (await deps.db.send(new GetCommand({ TableName: deps.tableName, Key: key }))).Item as T | undefined;

/** Deps whose ids are recorded, so a refused seed can be checked to have written nothing. */
function recordingDeps(): Deps & { ids: string[] } {
  const ids: string[] = [];
  return {
    ...deps,
    ids,
    newId: () => {
      const id = randomUUID();
      ids.push(id);
      return id;
    },
  };
}

describe('seed', () => {
  it('creates the workspace, its members, tags and pipelines under the ids it prints', async () => {
    const seed = await seedTestWorkspace();
    const config = await loadWorkspaceConfig(deps, seed.workspace_id);

    expect(await getItem(keys.workspace(seed.workspace_id))).toMatchObject({ config_version: 1 });
    expect(config.workspace).toMatchObject({
      id: seed.workspace_id,
      name: 'Acme',
      endpoint_id: seed.webhook?.endpoint_id,
    });
    expect(config.members.map((member) => [member.id, member.name]).sort()).toEqual(
      [
        [seed.members.alice, 'Alice Martin'],
        [seed.members.bob, 'Bob Durand'],
      ].sort(),
    );
    expect(config.tags.map((tag) => [tag.id, tag.name]).sort()).toEqual(
      [
        [seed.tags.vip, 'VIP'],
        [seed.tags.hot, 'Chaud'],
      ].sort(),
    );
    const sales = config.salesPipelines.find((pipeline) => pipeline.id === seed.pipelines.sales?.id);
    expect(sales).toMatchObject({ name: 'Ventes', is_default: true, active: true, position: 0 });
    expect(sales?.stages).toEqual([
      { id: seed.pipelines.sales?.stages.new, name: 'Nouveau', type: 'Appointment Setting', order: 0 },
      { id: seed.pipelines.sales?.stages.fu, name: 'Relance', type: 'Follow up', order: 1 },
      { id: seed.pipelines.sales?.stages.won, name: 'Closé', type: 'Follow up', order: 2 },
      { id: seed.pipelines.sales?.stages.deposit, name: 'Acompte', type: 'Follow up', order: 3 },
    ]);
    expect(config.salesPipelines.find((pipeline) => pipeline.id === seed.pipelines.archive?.id)).toMatchObject({
      name: 'Archives',
      is_default: false,
      active: false,
      position: 2,
    });
    expect(config.recruitmentPipelines).toEqual([
      expect.objectContaining({
        id: seed.recruitment_pipelines.devs?.id,
        is_default: true,
        columns: [
          { id: seed.recruitment_pipelines.devs?.columns.applied, name: 'Candidature reçue', order: 0 },
          { id: seed.recruitment_pipelines.devs?.columns.interview, name: 'Entretien', order: 1 },
        ],
      }),
    ]);
  });

  it('stores only the fingerprints of the API keys and of the webhook token', async () => {
    const seed = await seedTestWorkspace();
    const admin = seed.api_keys.admin;
    const reader = seed.api_keys.reader;
    if (!admin || !reader || !seed.webhook) throw new Error('seed output incomplete');

    const adminKey = await getApiKeyByFingerprint(deps, fingerprint(admin.secret));
    expect(adminKey).toMatchObject({ id: admin.id, workspace_id: seed.workspace_id, scopes: ['*'], revoked_at: null });
    expect(JSON.stringify(adminKey)).not.toContain(admin.secret);
    expect(await getApiKeyByFingerprint(deps, fingerprint(reader.secret))).toMatchObject({
      id: reader.id,
      scopes: ['pipelines:read'],
    });

    const endpoint = await getEndpoint(deps, seed.webhook.endpoint_id);
    expect(endpoint).toMatchObject({
      workspace_id: seed.workspace_id,
      token_fingerprint: fingerprint(seed.webhook.token),
      active: true,
      last_call_at: null,
    });
    expect(JSON.stringify(endpoint)).not.toContain(seed.webhook.token);
  });

  it('places prospects by the labels of the file, Closé and Acompte included, with their contact markers', async () => {
    const seed = await seedTestWorkspace();
    const ws = seed.workspace_id;
    const sold = await getItem<ProspectItem>(keys.prospect(ws, seed.prospects.sold ?? ''));
    expect(sold).toMatchObject({
      workspace_id: ws,
      pipeline_id: seed.pipelines.sales?.id,
      stage_id: seed.pipelines.sales?.stages.won,
      closer_id: seed.members.bob,
      setter_id: null,
      email: 'sold@acme.test',
      version: 1,
    });
    const social = await getItem<ProspectItem>(keys.prospect(ws, seed.prospects.social ?? ''));
    expect(social).toMatchObject({ stage_id: seed.pipelines.sales?.stages.fu, setter_id: seed.members.alice });
    expect(social?.tag_ids).toEqual(new Set([seed.tags.vip]));
    expect((await getItem<ProspectItem>(keys.prospect(ws, seed.prospects.deposit ?? '')))?.stage_id).toBe(
      seed.pipelines.sales?.stages.deposit,
    );

    const markers = [
      [keys.emailMarker(ws, 'SOLD@Acme.test'), seed.prospects.sold],
      [keys.emailMarker(ws, 'lea.petit@acme.test'), seed.prospects.lead],
      [keys.phoneMarker(ws, '+33600000001'), seed.prospects.lead],
      [keys.socialMarker(ws, 'https://www.linkedin.com/in/marc-social'), seed.prospects.social],
    ] as const;
    for (const [key, owner] of markers) {
      expect(await getItem<MarkerItem>(key)).toMatchObject({ type: 'marker', record_id: owner, workspace_id: ws });
    }
  });

  it('makes the first pipeline of each kind the default when none is marked, and places unplaced prospects there', async () => {
    const seed = await seedTestWorkspace({
      workspace: { name: 'Sans défaut' },
      pipelines: [
        { key: 'a', name: 'A', stages: [{ key: 'a1', name: 'Un', type: 'Follow up' }] },
        { key: 'b', name: 'B', stages: [{ key: 'b1', name: 'Un', type: 'Follow up' }] },
      ],
      recruitment_pipelines: [
        { name: 'Dev', columns: [{ name: 'Reçue' }] },
        { key: 'dev2', name: 'Dev', columns: [{ name: 'Reçue' }] },
      ],
      prospects: [{ email: 'x@acme.test' }, { key: 'second', phone: '+33700000000', stage: 'a1' }],
    });
    const config = await loadWorkspaceConfig(deps, seed.workspace_id);
    expect(config.salesPipelines.filter((pipeline) => pipeline.is_default).map((pipeline) => pipeline.id)).toEqual([
      seed.pipelines.a?.id,
    ]);
    expect(
      config.recruitmentPipelines.filter((pipeline) => pipeline.is_default).map((pipeline) => pipeline.id),
    ).toEqual([seed.recruitment_pipelines.Dev?.id]);
    expect(config.salesPipelines.every((pipeline) => pipeline.active)).toBe(true);
    const unplaced = await getItem<ProspectItem>(keys.prospect(seed.workspace_id, seed.prospects['x@acme.test'] ?? ''));
    expect(unplaced).toMatchObject({ pipeline_id: seed.pipelines.a?.id, stage_id: seed.pipelines.a?.stages.a1 });
    expect(seed.webhook).toBeNull();
  });

  it('leaves prospects on no board when the workspace has no sales pipeline', async () => {
    const seed = await seedTestWorkspace(
      aWorkspace({ pipelines: [], prospects: [{ key: 'p', email: 'p@acme.test' }] }),
    );
    const prospect = await getItem<ProspectItem>(keys.prospect(seed.workspace_id, seed.prospects.p ?? ''));
    expect(prospect).toMatchObject({ pipeline_id: null, stage_id: null });
    expect(prospect).not.toHaveProperty('tag_ids');
  });

  it('gives a new key the five scopes when the file names none', async () => {
    const seed = await seedTestWorkspace(aWorkspace({ api_keys: [{ name: 'Make' }] }));
    const key = await getApiKeyByFingerprint(deps, fingerprint(seed.api_keys.Make?.secret ?? ''));
    expect(key?.scopes).toEqual([...allScopes]);
  });

  it('writes more than one transaction worth of items', async () => {
    const prospects = Array.from({ length: 70 }, (_, index) => ({ email: `p${index}@acme.test` }));
    const seed = await seedTestWorkspace(aWorkspace({ prospects }));
    expect(Object.keys(seed.prospects)).toHaveLength(70);
    expect((await loadWorkspaceConfig(deps, seed.workspace_id)).workspace?.id).toBe(seed.workspace_id);
    expect(await getItem(keys.emailMarker(seed.workspace_id, 'p69@acme.test'))).toBeDefined();
  });
});

describe('seed refusals', () => {
  const refusal = async (description: unknown): Promise<string> => {
    const recording = recordingDeps();
    const error = await seedWorkspace(recording, description).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AdminInputError);
    // Nothing at all is written: the workspace id is the first id drawn.
    if (recording.ids[0]) expect(await getItem(keys.workspace(recording.ids[0]))).toBeUndefined();
    return (error as Error).message;
  };
  const stage = (name: string) => ({ name, type: 'Follow up' });

  it('refuses two sales pipelines whose names differ only by case', async () => {
    const message = await refusal(
      aWorkspace({
        pipelines: [
          { name: 'Ventes', stages: [stage('A')] },
          { name: 'VENTES', stages: [stage('A')] },
        ],
      }),
    );
    expect(message).toContain('pipelines.1.name');
    expect(message).toContain('la casse ne compte pas');
  });

  it('refuses two stages of one pipeline whose names differ only by case', async () => {
    const message = await refusal(
      aWorkspace({ pipelines: [{ name: 'Ventes', stages: [stage('Closé'), stage('closé')] }] }),
    );
    expect(message).toContain('pipelines.0.stages.1.name');
  });

  it('refuses a configuration too large for its one DynamoDB item (400 KB), naming the size', async () => {
    const tags = Array.from({ length: 2000 }, (_, index) => ({ name: `${'étiquette '.repeat(20)}${index}` }));
    const message = await refusal(aWorkspace({ tags }));
    expect(message).toContain('- description : configuration trop volumineuse');
    expect(message).toContain('350 Ko');
  });

  it('refuses two tags whose names differ only by case', async () => {
    const message = await refusal(aWorkspace({ tags: [{ name: 'VIP' }, { key: 'other', name: 'vip' }] }));
    expect(message).toContain('tags.1.name');
  });

  it.each([
    ['NFC and NFD spellings', 'Closé', 'CLOSE\u0301'],
    ['a dotted capital I lower-cased without a locale', 'Ivoire', 'IVOIRE'],
  ])('refuses two stages whose names differ only by %s', async (_label, first, second) => {
    const message = await refusal(
      aWorkspace({ pipelines: [{ name: 'Ventes', stages: [stage(first), stage(second)] }] }),
    );
    expect(message).toContain('pipelines.0.stages.1.name');
  });

  it('refuses tags and pipelines equal under NFC and case, and keeps ß apart from ss', async () => {
    expect(await refusal(aWorkspace({ tags: [{ name: 'Été' }, { key: 'other', name: 'E\u0301TE\u0301' }] }))).toContain(
      'tags.1.name',
    );
    const seed = await seedTestWorkspace(
      aWorkspace({ tags: [{ name: 'Straße' }, { key: 'other', name: 'STRASSE' }], prospects: [] }),
    );
    expect(Object.keys(seed.tags)).toHaveLength(2);
  });

  it('accepts the same stage name in two pipelines and two recruitment pipelines of one name', async () => {
    const seed = await seedTestWorkspace(
      aWorkspace({
        pipelines: [
          { name: 'A', stages: [stage('Nouveau')] },
          { name: 'B', stages: [stage('Nouveau')] },
        ],
        recruitment_pipelines: [
          { key: 'one', name: 'Dev', columns: [{ name: 'Reçue' }] },
          { key: 'two', name: 'dev', columns: [{ name: 'Reçue' }] },
        ],
        prospects: [],
      }),
    );
    expect(Object.keys(seed.recruitment_pipelines)).toEqual(['one', 'two']);
  });

  it('refuses two default pipelines of one kind', async () => {
    const message = await refusal(
      aWorkspace({
        recruitment_pipelines: [
          { key: 'one', name: 'Dev', is_default: true, columns: [{ name: 'Reçue' }] },
          { key: 'two', name: 'Ops', is_default: true, columns: [{ name: 'Reçue' }] },
        ],
      }),
    );
    expect(message).toContain('recruitment_pipelines.1.is_default');
  });

  it('refuses references to labels the file does not define and contacts used twice', async () => {
    const message = await refusal(
      aWorkspace({
        prospects: [
          { key: 'a', email: 'same@acme.test', pipeline: 'nowhere' },
          { key: 'b', email: 'SAME@acme.test', stage: 'nowhere', setter: 'nobody', tags: ['nothing'] },
        ],
      }),
    );
    expect(message.split('\n').slice(1)).toEqual([
      '- prospects.0.pipeline : pipeline de vente « nowhere » inconnu',
      '- prospects.1.stage : étape « nowhere » inconnue dans ce pipeline',
      '- prospects.1.setter : membre « nobody » inconnu',
      '- prospects.1.tags.0 : tag « nothing » inconnu',
      '- prospects.1.email : déjà utilisé par prospects.0',
    ]);
  });

  it('refuses a malformed description with French messages naming each field', async () => {
    const message = await refusal({
      workspace: { name: '' },
      api_keys: [{ name: 'k', scopes: ['read'] }],
      prospects: [{ email: 'not an address' }],
      colour: 'blue',
    });
    expect(message).toMatch(/^Description de seed invalide :/);
    expect(message).toContain('- workspace.name : ');
    expect(message).toContain('- api_keys.0.scopes.0 : ');
    expect(message).toContain('- prospects.0.email : ');
    expect(message).toContain('colour');
  });
});
