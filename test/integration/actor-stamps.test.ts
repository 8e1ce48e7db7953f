import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { undoChangeLogEntry } from '../../lib/settings/changelog-undo';
import { keys, type CandidateItem, type NoteItem, type ProspectItem } from '../../lib/storage/table-items';
import { aWorkspace, seedTestWorkspace } from '../support/seed';
import { useSeededApi } from '../support/seeded-api';
import type { Actor } from '../../lib/domain/model';

/**
 * Every writer stamps who made the write on the item it writes (`actor`): the change-stream
 * handler names it in the outbound event. Asserted on the stored items, after the real flows
 * through the local API (authorizer included) and the admin functions.
 */
const world = useSeededApi();
const { call, lead, aProspect } = world;

const workspaceId = () => world.ws.workspace_id;
const endpointActor = (): Actor => ({ kind: 'webhook', id: world.ws.webhook?.endpoint_id as string });
const keyActor = (): Actor => ({ kind: 'api_key', id: world.ws.api_keys.admin?.id as string });

async function storedProspect(prospectId: string, ws = workspaceId()): Promise<ProspectItem> {
  const { Item } = await world.deps.db.send(
    new GetCommand({ TableName: world.deps.tableName, Key: keys.prospect(ws, prospectId), ConsistentRead: true }),
  );
  return Item as ProspectItem;
}

async function partition(pk: string) {
  const { Items = [] } = await world.deps.db.send(
    new QueryCommand({
      TableName: world.deps.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ConsistentRead: true,
    }),
  );
  return Items;
}

const notesIn = async (pk: string) =>
  (await partition(pk)).filter((item): item is NoteItem => item.type === 'note').sort((a, b) => (a.sk < b.sk ? -1 : 1));

async function lastEntryId(prospectId: string): Promise<string> {
  const entries = (await partition(keys.prospectPk(workspaceId(), prospectId))).filter(
    (item) => item.type === 'changelog',
  );
  return entries
    .map((item) => ({ sk: item.sk as string, id: item.id as string }))
    .sort((a, b) => (a.sk < b.sk ? 1 : -1))[0]?.id as string;
}

describe('prospect item', () => {
  it('is stamped admin by the seed', async () => {
    const seeded = await storedProspect(world.ws.prospects.lead as string);
    expect(seeded.actor).toEqual({ kind: 'admin', id: null });
    expect(seeded.version).toBe(1);
  });

  it('is stamped with the endpoint by a new lead, and again by a known lead after an API change', async () => {
    const email = `${randomUUID()}@test.fr`;
    const created = await lead({ email, first_name: 'Zoé' });
    expect((created.body as { status: string }).status).toBe('created');
    const id = (created.body as { prospect_id: string }).prospect_id;
    expect((await storedProspect(id)).actor).toEqual(endpointActor());

    await call('PATCH', `/prospects/${id}`, { stage: 'Relance' });
    expect((await storedProspect(id)).actor).toEqual(keyActor());

    // Known contact, same markers: the one-write update conditional on the placement hint.
    const known = await lead({ email, first_name: 'Zoë' });
    expect((known.body as { status: string }).status).toBe('existing');
    const after = await storedProspect(id);
    expect(after).toMatchObject({ actor: endpointActor(), first_name: 'Zoë', version: 3 });
  });

  it('is stamped with the endpoint by a known lead that takes a new phone (the contacts write)', async () => {
    const email = `${randomUUID()}@test.fr`;
    const id = await aProspect({ email });
    await call('POST', `/prospects/${id}/tags`, { tag: 'VIP' });
    expect((await storedProspect(id)).actor).toEqual(keyActor());
    await lead({ email, phone: '+33611223344' });
    expect(await storedProspect(id)).toMatchObject({ actor: endpointActor(), phone: '+33611223344' });
  });

  it('is stamped with the key by PATCH, tag add and tag remove; a PATCH or a lead changing nothing leaves it', async () => {
    const id = await aProspect();
    const unchanged = await call('PATCH', `/prospects/${id}`, { stage: 'Nouveau' });
    expect((unchanged.body as { changed: string[] }).changed).toEqual([]);
    expect(await storedProspect(id)).toMatchObject({ actor: endpointActor(), version: 1 });

    await call('PATCH', `/prospects/${id}`, { setter_id: world.ws.members.alice });
    expect(await storedProspect(id)).toMatchObject({ actor: keyActor(), version: 2 });

    // A lead that changes nothing writes nothing of the prospect: the key's stamp stays (decisions 8.2).
    await lead({ email: (await storedProspect(id)).email as string });
    expect(await storedProspect(id)).toMatchObject({ actor: keyActor(), version: 2 });
    await lead({ email: (await storedProspect(id)).email as string, first_name: 'Nouveau prénom' });
    expect(await storedProspect(id)).toMatchObject({ actor: endpointActor(), version: 3 });
    await call('POST', `/prospects/${id}/tags`, { tag: 'Chaud' });
    expect(await storedProspect(id)).toMatchObject({ actor: keyActor(), version: 4 });

    const removed = await call('DELETE', `/prospects/${id}/tags/Chaud`);
    expect(removed.status).toBe(200);
    const stored = await storedProspect(id);
    expect(stored).toMatchObject({ actor: keyActor(), version: 5 });
    expect(stored.tag_ids).toBeUndefined();
  });

  it('is stamped undo with the undone entry’s id, for a stage and a tag entry', async () => {
    const id = await aProspect();
    await call('PATCH', `/prospects/${id}`, { stage: 'Relance' });
    const stageEntry = await lastEntryId(id);
    await undoChangeLogEntry(world.deps, { workspaceId: workspaceId(), entryId: stageEntry });
    expect(await storedProspect(id)).toMatchObject({ actor: { kind: 'undo', id: stageEntry }, version: 3 });

    await call('POST', `/prospects/${id}/tags`, { tag: 'VIP' });
    const tagEntry = await lastEntryId(id);
    expect(tagEntry).not.toBe(stageEntry);
    const undone = await undoChangeLogEntry(world.deps, { workspaceId: workspaceId(), entryId: tagEntry });
    expect(undone.prospect).toMatchObject({ id, version: 5 });
    expect(await storedProspect(id)).toMatchObject({ actor: { kind: 'undo', id: tagEntry }, version: 5 });
  });

  it('names each workspace’s own endpoint when two workspaces receive the same contact', async () => {
    const other = await seedTestWorkspace(aWorkspace({ prospects: [] }));
    const email = `${randomUUID()}@test.fr`;
    const here = (await lead({ email })).body as { prospect_id: string };
    const there = await world.api.request('POST', '/webhooks/ingest-lead', {
      query: { endpoint_id: other.webhook?.endpoint_id as string },
      headers: { Authorization: `Bearer ${other.webhook?.token}` },
      body: { email },
    });
    const thereId = (there.body as { prospect_id: string }).prospect_id;
    expect(thereId).not.toBe(here.prospect_id);
    expect((await storedProspect(here.prospect_id)).actor).toEqual(endpointActor());
    expect((await storedProspect(thereId, other.workspace_id)).actor).toEqual({
      kind: 'webhook',
      id: other.webhook?.endpoint_id,
    });
    expect(other.webhook?.endpoint_id).not.toBe(world.ws.webhook?.endpoint_id);
  });
});

describe('prospect note', () => {
  it('is stamped with the key, and so is the prospect whose version it raises', async () => {
    const id = await aProspect();
    const content = 'Rappeler 🙂 e\u0301té';
    const added = await call('POST', `/prospects/${id}/notes`, { content });
    expect(added.status).toBe(201);
    const { id: noteId, created_at } = added.body as { id: string; created_at: string };
    const [note] = await notesIn(keys.prospectPk(workspaceId(), id));
    expect(note).toMatchObject({
      sk: keys.noteSk(created_at, noteId),
      content,
      key_id: world.ws.api_keys.admin?.id,
      actor: keyActor(),
    });
    expect(note?.application).toBeUndefined();
    expect(await storedProspect(id)).toMatchObject({ actor: keyActor(), version: 2 });
  });
});

describe('candidate and candidate notes', () => {
  const apply = (body: object) =>
    world.api.request('POST', '/webhooks/recruitment', {
      query: { endpoint_id: world.ws.webhook?.endpoint_id as string },
      headers: { 'x-webhook-token': world.ws.webhook?.token as string },
      body,
    });

  async function candidateItem(candidateId: string): Promise<CandidateItem> {
    const items = await partition(keys.candidatePk(workspaceId(), candidateId));
    return items.find((item) => item.type === 'candidate') as CandidateItem;
  }

  it('stamps a new candidate and its note first, a known one’s note again', async () => {
    const email = `${randomUUID()}@test.fr`;
    const first = await apply({ email, name: 'Camille Dupont', answers: { Disponible: 'oui' } });
    expect(first.body).toMatchObject({ action: 'created' });
    const talentId = (first.body as { talent_id: string }).talent_id;
    expect((await candidateItem(talentId)).actor).toEqual(endpointActor());
    const pk = keys.candidatePk(workspaceId(), talentId);
    expect(await notesIn(pk)).toEqual([
      expect.objectContaining({ actor: endpointActor(), application: 'first', key_id: null }),
    ]);

    const again = await apply({ email, name: 'Camille Dupont', answers: { Disponible: 'non' } });
    expect(again.body).toMatchObject({ action: 'existing', talent_id: talentId });
    const notes = await notesIn(pk);
    expect(notes).toHaveLength(2);
    expect(notes.map((note) => note.application).sort()).toEqual(['again', 'first']);
    expect(notes.find((note) => note.application === 'again')).toMatchObject({
      actor: endpointActor(),
      content: expect.stringContaining('non'),
    });
    // A new application moves only the known candidate's last application (docs/data-model.md, "Candidate"): its
    // `updated_at` and `version`; the actor stays the one that created it.
    const againAt = notes.find((note) => note.application === 'again')?.created_at;
    expect(await candidateItem(talentId)).toMatchObject({ actor: endpointActor(), version: 2, updated_at: againAt });
  });

  it('stamps a candidate created without answers (no note), and its resubmission note again', async () => {
    const email = `${randomUUID()}@test.fr`;
    const first = await apply({ email, name: 'Sans Réponses' });
    const talentId = (first.body as { talent_id: string }).talent_id;
    const pk = keys.candidatePk(workspaceId(), talentId);
    expect((await candidateItem(talentId)).actor).toEqual(endpointActor());
    expect(await notesIn(pk)).toEqual([]);
    await apply({ email, name: 'Sans Réponses' });
    expect(await notesIn(pk)).toEqual([expect.objectContaining({ actor: endpointActor(), application: 'again' })]);
  });
});
