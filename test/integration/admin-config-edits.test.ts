import { randomUUID } from 'node:crypto';
import { GetCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { addColumn, addSalesPipeline, addStage, addTag } from '../../lib/settings/config-edits';
import { AdminInputError } from '../../lib/settings/admin-input';
import { ConflictError } from '../../lib/domain/model';
import { productionDeps, type Deps } from '../../lib/storage/client';
import {
  ConfigEditContendedError,
  ConfigTooLargeError,
  configEditPolicy,
  editWorkspaceConfig,
  partsOf,
} from '../../lib/storage/config-edits';
import { keys } from '../../lib/storage/table-items';
import { configItemMaxBytes, loadWorkspaceConfig } from '../../lib/storage/workspace-config';
import { countRoundTrips } from '../support/round-trips';
import { aWorkspace, seedTestWorkspace } from '../support/seed';

/**
 * Admin edits of tags, members, pipelines, stages and columns are one optimistic write of
 * the configuration item each, conditional on `config_version`, checked on the configuration they
 * are applied to, and retried on it after a lost race (DynamoDB Local).
 */

const deps = productionDeps();
afterAll(() => deps.db.destroy());

const storedItem = async (workspaceId: string): Promise<Record<string, unknown>> => {
  const { Item } = await deps.db.send(
    new GetCommand({ TableName: deps.tableName, Key: keys.workspace(workspaceId), ConsistentRead: true }),
  );
  if (!Item) throw new Error(`no workspace ${workspaceId}`);
  return Item;
};
const versionOf = async (workspaceId: string): Promise<number> =>
  (await storedItem(workspaceId)).config_version as number;

const noProspects = { prospects: [] };
const seeded = async () => (await seedTestWorkspace(aWorkspace(noProspects))).workspace_id;

/**
 * A client that runs `before` ahead of each of the first `times` UpdateItem or TransactWriteItems calls
 * (the edit's conditional write, alone or with its audit entry), on the real table: another admin's
 * edit landing between read and write.
 */
function racedBy(
  before: () => Promise<unknown>,
  times = 1,
  base: DynamoDBDocumentClient = deps.db,
): Deps & { updates: () => number } {
  let updates = 0;
  const db = {
    send: async (command: unknown) => {
      if (command instanceof UpdateCommand || command instanceof TransactWriteCommand) {
        updates += 1;
        if (updates <= times) await before();
      }
      return base.send(command as GetCommand);
    },
  } as unknown as DynamoDBDocumentClient;
  return { ...deps, db, updates: () => updates };
}

describe('configuration edits: each command', () => {
  it('tag add: a trimmed tag, last of the list, version + 1', async () => {
    const workspaceId = await seeded();
    const before = await versionOf(workspaceId);

    const tag = await addTag(deps, { workspaceId, name: '  Relance téléphone  ' });

    expect(tag).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Relance téléphone' });
    const config = await loadWorkspaceConfig(deps, workspaceId);
    expect(config.tags.map((entry) => entry.name)).toEqual(['VIP', 'Chaud', 'Relance téléphone']);
    expect(config.tags.at(-1)).toEqual({ type: 'tag', ...tag });
    expect(await versionOf(workspaceId)).toBe(before + 1);
  });

  it('pipeline add: active, last, without stages; --default moves the flag in the same write', async () => {
    const workspaceId = await seeded();
    const before = await versionOf(workspaceId);

    const plain = await addSalesPipeline(deps, { workspaceId, name: 'Salons' });
    expect(plain).toEqual({ id: expect.any(String), name: 'Salons', is_default: false, active: true, stages: [] });
    expect(await versionOf(workspaceId)).toBe(before + 1);

    const chosen = await addSalesPipeline(deps, { workspaceId, name: 'Partenariats 2027', isDefault: true });
    expect(chosen).toMatchObject({ name: 'Partenariats 2027', is_default: true });
    expect(await versionOf(workspaceId)).toBe(before + 2);

    const pipelines = (await loadWorkspaceConfig(deps, workspaceId)).salesPipelines;
    expect(pipelines.map((pipeline) => [pipeline.name, pipeline.is_default, pipeline.position])).toEqual([
      ['Ventes', false, 0],
      ['Partenaires', false, 1],
      ['Archives', false, 2],
      ['Salons', false, 3],
      ['Partenariats 2027', true, 4],
    ]);
    expect(pipelines.at(-1)).toEqual({ type: 'pipeline', ...chosen, position: 4 });
  });

  it('pipeline add: the first sales pipeline of a workspace is its default, as in the seed', async () => {
    const workspaceId = (await seedTestWorkspace(aWorkspace({ ...noProspects, pipelines: [] }))).workspace_id;
    const first = await addSalesPipeline(deps, { workspaceId, name: 'Ventes' });
    const second = await addSalesPipeline(deps, { workspaceId, name: 'Autres' });
    expect([first.is_default, second.is_default]).toEqual([true, false]);
  });

  it('stage add: appended last to the named sales pipeline, with its order', async () => {
    const seed = await seedTestWorkspace(aWorkspace(noProspects));
    const pipelineId = seed.pipelines.partners?.id as string;

    const stage = await addStage(deps, {
      workspaceId: seed.workspace_id,
      pipelineId: pipelineId.toUpperCase(),
      name: ' Rendez-vous ',
      type: 'Appointment Setting',
    });

    expect(stage).toEqual({
      id: expect.any(String),
      name: 'Rendez-vous',
      type: 'Appointment Setting',
      pipeline_id: pipelineId,
    });
    const pipeline = (await loadWorkspaceConfig(deps, seed.workspace_id)).salesPipelines.find(
      (candidate) => candidate.id === pipelineId,
    );
    expect(pipeline?.stages).toEqual([
      { id: seed.pipelines.partners?.stages.first, name: 'Premier contact', type: 'Appointment Setting', order: 0 },
      { id: stage.id, name: 'Rendez-vous', type: 'Appointment Setting', order: 1 },
    ]);
    // Another pipeline may have a stage of the same name.
    await addStage(deps, { workspaceId: seed.workspace_id, pipelineId, name: 'Relance', type: 'Follow up' });
  });

  it('column add: appended last to the named recruitment pipeline', async () => {
    const seed = await seedTestWorkspace(aWorkspace(noProspects));
    const pipelineId = seed.recruitment_pipelines.devs?.id as string;

    const column = await addColumn(deps, { workspaceId: seed.workspace_id, pipelineId, name: 'Offre envoyée' });
    const again = await addColumn(deps, { workspaceId: seed.workspace_id, pipelineId, name: 'offre envoyée' });

    expect(column).toEqual({ id: expect.any(String), name: 'Offre envoyée', pipeline_id: pipelineId });
    const columns = (await loadWorkspaceConfig(deps, seed.workspace_id)).recruitmentPipelines[0]?.columns;
    expect(columns?.map((entry) => [entry.name, entry.order])).toEqual([
      ['Candidature reçue', 0],
      ['Entretien', 1],
      ['Offre envoyée', 2],
      ['offre envoyée', 3],
    ]);
    expect(columns?.at(-1)?.id).toBe(again.id);
  });

  it('refuses an unknown workspace, and a pipeline of another workspace or of the other kind, writing nothing', async () => {
    const seed = await seedTestWorkspace(aWorkspace(noProspects));
    const other = await seedTestWorkspace(aWorkspace(noProspects));
    const workspaceId = seed.workspace_id;
    const before = await storedItem(workspaceId);
    const unknown = randomUUID();

    await expect(addTag(deps, { workspaceId: unknown, name: 'X' })).rejects.toThrow(
      `Espace de travail inconnu : ${unknown}`,
    );
    expect(await editWorkspaceConfig(deps, unknown, partsOf)).toBe('workspace_missing');
    const theirs = other.pipelines.sales?.id as string;
    await expect(addStage(deps, { workspaceId, pipelineId: theirs, name: 'X', type: 'Follow up' })).rejects.toThrow(
      `Pipeline de vente inconnu dans cet espace : ${theirs}`,
    );
    const recruitment = seed.recruitment_pipelines.devs?.id as string;
    await expect(
      addStage(deps, { workspaceId, pipelineId: recruitment, name: 'X', type: 'Follow up' }),
    ).rejects.toThrow(`Pipeline de vente inconnu dans cet espace : ${recruitment}`);
    const sales = seed.pipelines.sales?.id as string;
    await expect(addColumn(deps, { workspaceId, pipelineId: sales, name: 'X' })).rejects.toThrow(
      `Pipeline de recrutement inconnu dans cet espace : ${sales}`,
    );
    await expect(addColumn(deps, { workspaceId, pipelineId: 'pas-un-uuid', name: 'X' })).rejects.toThrow(
      /Identifiant de pipeline de recrutement invalide/,
    );
    await expect(addStage(deps, { workspaceId, pipelineId: sales, name: 'X', type: '  ' })).rejects.toThrow(
      AdminInputError,
    );
    await expect(addTag(deps, { workspaceId, name: ' ' })).rejects.toThrow('Le nom ne peut pas être vide.');
    expect(await storedItem(workspaceId)).toEqual(before);
  });
});

describe('configuration edits: names equal ignoring case', () => {
  const nfd = (text: string) => text.normalize('NFD');

  it('refuses a second tag, sales pipeline or stage of one pipeline of the same name; nothing written', async () => {
    const seed = await seedTestWorkspace(aWorkspace(noProspects));
    const workspaceId = seed.workspace_id;
    await addTag(deps, { workspaceId, name: 'Été' });
    const before = await storedItem(workspaceId);
    const sales = seed.pipelines.sales?.id as string;

    // A tag's name taken is the settings API's 409 (docs/api.md#settings-api): a ConflictError, exit 2 on the command
    // line.
    const refusals: [Promise<unknown>, RegExp, typeof ConflictError | typeof AdminInputError][] = [
      [addTag(deps, { workspaceId, name: 'vip' }), /Un tag nommé « vip » existe déjà/, ConflictError],
      [addTag(deps, { workspaceId, name: ' CHAUD ' }), /tag nommé « CHAUD »/, ConflictError],
      [addTag(deps, { workspaceId, name: nfd('été') }), /tag nommé/, ConflictError],
      [addTag(deps, { workspaceId, name: nfd('ÉTÉ') }), /tag nommé/, ConflictError],
      [
        addSalesPipeline(deps, { workspaceId, name: 'ventes' }),
        /Un pipeline de vente nommé « ventes » existe déjà/,
        AdminInputError,
      ],
      [
        addSalesPipeline(deps, { workspaceId, name: 'PARTENAIRES', isDefault: true }),
        /pipeline de vente nommé/,
        AdminInputError,
      ],
      [
        addStage(deps, { workspaceId, pipelineId: sales, name: nfd('closé'), type: 'Follow up' }),
        /Le pipeline « Ventes » a déjà une étape nommée/,
        AdminInputError,
      ],
      [
        addStage(deps, { workspaceId, pipelineId: sales, name: 'relance', type: 'Follow up' }),
        /a déjà une étape nommée « relance » \(la casse ne compte pas\)/,
        AdminInputError,
      ],
    ];
    for (const [refused, message, kind] of refusals) {
      await expect(refused).rejects.toBeInstanceOf(kind);
      await expect(refused).rejects.toThrow(message);
    }
    expect(await storedItem(workspaceId)).toEqual(before);

    // `ß` is not `ss` (lower-casing, not case folding): a distinct name.
    await addTag(deps, { workspaceId, name: 'Straße' });
    await expect(addTag(deps, { workspaceId, name: 'strasse' })).resolves.toMatchObject({ name: 'strasse' });
  });
});

describe('configuration edits: the item', () => {
  it('keeps every attribute it does not edit (name, created_at, endpoint_id, any other)', async () => {
    const seed = await seedTestWorkspace(aWorkspace(noProspects));
    const workspaceId = seed.workspace_id;
    // An attribute of a later feature, unknown to this code.
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: keys.workspace(workspaceId),
        UpdateExpression: 'SET phone_settings = :settings',
        ExpressionAttributeValues: { ':settings': { country: 'FR', formats: ['E.164'] } },
      }),
    );
    const before = await storedItem(workspaceId);
    expect(before.endpoint_id).toBe(seed.webhook?.endpoint_id);

    const tag = await addTag(deps, { workspaceId, name: 'Nouveau tag' });

    const after = await storedItem(workspaceId);
    expect(after).toEqual({
      ...before,
      tags: [...(before.tags as object[]), { type: 'tag', ...tag }],
      config_version: (before.config_version as number) + 1,
    });
    expect(after.phone_settings).toEqual({ country: 'FR', formats: ['E.164'] });
  });

  it('keeps an endpoint_id that `webhook generate` set between its read and its write', async () => {
    const workspaceId = (await seedTestWorkspace(aWorkspace({ ...noProspects, webhook: undefined }))).workspace_id;
    const endpointId = randomUUID();
    // createEndpoint's update: SET endpoint_id, without touching config_version.
    const raced = racedBy(() =>
      deps.db.send(
        new UpdateCommand({
          TableName: deps.tableName,
          Key: keys.workspace(workspaceId),
          UpdateExpression: 'SET endpoint_id = :id',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(endpoint_id)',
          ExpressionAttributeValues: { ':id': endpointId },
        }),
      ),
    );

    await addTag(raced, { workspaceId, name: 'Pendant le webhook' });

    const after = await storedItem(workspaceId);
    expect(after.endpoint_id).toBe(endpointId);
    expect((after.tags as { name: string }[]).map((tag) => tag.name)).toContain('Pendant le webhook');
  });

  it('refuses an edit that would take the item over the size budget, writing nothing', async () => {
    const workspaceId = await seeded();
    // A tag of 200 000 bytes fits; another of as many more does not.
    const big = await addTag(deps, { workspaceId, name: 'é'.repeat(100_000) });
    const before = await storedItem(workspaceId);

    const refused = addTag(deps, { workspaceId, name: 'x'.repeat(200_000) });
    await expect(refused).rejects.toBeInstanceOf(AdminInputError);
    await expect(refused).rejects.toThrow(
      /^Configuration trop volumineuse après cette modification : environ 4\d\d Ko pour un maximum de 350 Ko/,
    );
    expect(await storedItem(workspaceId)).toEqual(before);
    expect(before.tags).toContainEqual({ type: 'tag', ...big });

    // The storage primitive itself refuses with the estimate and the budget.
    const direct = editWorkspaceConfig(deps, workspaceId, (config) => ({
      ...partsOf(config),
      tags: [...config.tags, { id: randomUUID(), name: 'y'.repeat(configItemMaxBytes) }],
    }));
    await expect(direct).rejects.toBeInstanceOf(ConfigTooLargeError);
    await expect(direct).rejects.toMatchObject({ maxBytes: configItemMaxBytes });
    expect(await storedItem(workspaceId)).toEqual(before);
  });

  it('costs one GetItem and one transaction with its audit entry, and one more per lost race (no re-read)', async () => {
    const counted = productionDeps();
    const roundTrips = countRoundTrips(counted.db);
    try {
      const workspaceId = await seeded();
      await addTag(counted, { workspaceId, name: 'Compté' });
      expect(roundTrips.calls).toEqual(['GetItem', 'TransactWriteItems']);

      roundTrips.reset();
      // The other admin's edit goes through the uncounted client.
      const raced = racedBy(() => addTag(deps, { workspaceId, name: 'Intrus' }), 1, counted.db);
      await addTag(raced, { workspaceId, name: 'Compté 2' });
      expect(roundTrips.calls).toEqual(['GetItem', 'TransactWriteItems', 'TransactWriteItems']);
    } finally {
      counted.db.destroy();
    }
  });
});

describe('configuration edits: concurrent admins', () => {
  it('as many concurrent tag add of distinct names as an edit has rounds: all stored, config_version + as many', async () => {
    // An edit loses a round only to another edit's success (its condition failed on the version that
    // one wrote, after its own read), and each edit succeeds once: of n edits at once, none loses more
    // than n - 1 rounds. So as many edits as rounds all get through by construction, whatever the
    // jitter draws and however a loaded machine schedules them; more could give up, by chance.
    const concurrent = configEditPolicy.attempts;
    const workspaceId = await seeded();
    const before = await versionOf(workspaceId);
    const names = Array.from({ length: concurrent }, (_, index) => `Tag simultané ${index}`);

    const added = await Promise.all(names.map((name) => addTag(deps, { workspaceId, name })));

    const tags = (await loadWorkspaceConfig(deps, workspaceId)).tags;
    expect(tags.map((tag) => tag.name).sort()).toEqual(['Chaud', 'VIP', ...names].sort());
    expect(new Set(tags.map((tag) => tag.id)).size).toBe(concurrent + 2);
    expect(added.map((tag) => tag.id).every((id) => tags.some((tag) => tag.id === id))).toBe(true);
    expect(await versionOf(workspaceId)).toBe(before + concurrent);
  });

  it('10 concurrent tag add of one name (in different cases): exactly one succeeds, one tag', async () => {
    const workspaceId = await seeded();
    const before = await versionOf(workspaceId);
    const spellings = Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? 'Webinaire' : 'WEBINAIRE'));

    const settled = await Promise.allSettled(spellings.map((name) => addTag(deps, { workspaceId, name })));

    const fulfilled = settled.filter((outcome) => outcome.status === 'fulfilled');
    const rejected = settled.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
    expect(fulfilled).toHaveLength(1);
    expect(rejected).toHaveLength(9);
    for (const reason of rejected) {
      expect(reason).toBeInstanceOf(ConflictError);
      expect((reason as Error).message).toMatch(/^Un tag nommé « (WEBINAIRE|Webinaire) » existe déjà/);
    }
    const tags = (await loadWorkspaceConfig(deps, workspaceId)).tags;
    expect(tags.filter((tag) => tag.name.toLowerCase() === 'webinaire')).toHaveLength(1);
    expect(await versionOf(workspaceId)).toBe(before + 1);
  });

  it('concurrent pipeline add --default: one default in the end, every pipeline kept', async () => {
    const workspaceId = await seeded();
    const added = await Promise.all(
      ['A', 'B', 'C', 'D', 'E'].map((name) => addSalesPipeline(deps, { workspaceId, name, isDefault: true })),
    );
    const pipelines = (await loadWorkspaceConfig(deps, workspaceId)).salesPipelines;
    expect(pipelines).toHaveLength(8);
    expect(pipelines.filter((pipeline) => pipeline.is_default)).toHaveLength(1);
    expect(new Set(pipelines.map((pipeline) => pipeline.position)).size).toBe(8);
    expect(added.map((pipeline) => pipeline.id)).toContain(pipelines.find((pipeline) => pipeline.is_default)?.id);
  });

  it('detects an edit between its read and its write, and applies itself again to the fresh configuration', async () => {
    const workspaceId = await seeded();
    const before = await versionOf(workspaceId);
    const raced = racedBy(() => addTag(deps, { workspaceId, name: 'Intrus' }));
    const seen: string[][] = [];

    const edited = await editWorkspaceConfig(raced, workspaceId, (config) => {
      seen.push(config.tags.map((tag) => tag.name));
      return { ...partsOf(config), tags: [...config.tags, { id: randomUUID(), name: 'Moi' }] };
    });

    expect(seen).toEqual([
      ['VIP', 'Chaud'],
      ['VIP', 'Chaud', 'Intrus'],
    ]);
    expect(raced.updates()).toBe(2);
    if (edited === 'workspace_missing') throw new Error('workspace missing');
    expect(edited.config.tags.map((tag) => tag.name)).toEqual(['VIP', 'Chaud', 'Intrus', 'Moi']);
    expect(edited.configVersion).toBe(before + 2);
    expect(await versionOf(workspaceId)).toBe(before + 2);
  });

  it('refuses, on the fresh configuration, a name another admin took meanwhile', async () => {
    const workspaceId = await seeded();
    const raced = racedBy(() => addTag(deps, { workspaceId, name: 'salon 2027' }));

    await expect(addTag(raced, { workspaceId, name: 'Salon 2027' })).rejects.toThrow(
      /Un tag nommé « Salon 2027 » existe déjà/,
    );
    const tags = (await loadWorkspaceConfig(deps, workspaceId)).tags;
    expect(tags.map((tag) => tag.name)).toEqual(['VIP', 'Chaud', 'salon 2027']);
  });

  it('gives up after its rounds with a clear error, writing nothing of its own', async () => {
    const workspaceId = await seeded();
    let intruders = 0;
    const raced = racedBy(() => addTag(deps, { workspaceId, name: `Intrus ${(intruders += 1)}` }), 3);
    const policy = { attempts: 3, baseDelayMs: 1, sleep: async () => undefined };

    const contended = editWorkspaceConfig(
      raced,
      workspaceId,
      (config) => ({ ...partsOf(config), tags: [...config.tags, { id: randomUUID(), name: 'Perdant' }] }),
      policy,
    );
    await expect(contended).rejects.toBeInstanceOf(ConfigEditContendedError);
    await expect(contended).rejects.toThrow(
      "La configuration de l'espace a été modifiée par d'autres pendant 3 tentatives : rien n'a changé, réessayez.",
    );
    const tags = (await loadWorkspaceConfig(deps, workspaceId)).tags.map((tag) => tag.name);
    expect(tags).toEqual(['VIP', 'Chaud', 'Intrus 1', 'Intrus 2', 'Intrus 3']);
  });
});
