import { randomUUID } from 'node:crypto';
import { changeLogEntries } from '../../tools/admin/use-cases/changelog';
import { undoChangeLogEntry } from '../../lib/settings/changelog-undo';
import { ConflictError, NotFoundError, UnknownReferenceError } from '../../lib/domain/model';
import { runAdminInProcess } from '../support/admin-cli';
import { useSeededApi } from '../support/seeded-api';

const world = useSeededApi();
const admin = (...args: string[]) => runAdminInProcess(world.deps, ...args);

const { call, show, aProspect } = world;
const undo = (entryId: string) => undoChangeLogEntry(world.deps, { workspaceId: world.ws.workspace_id, entryId });
const stage = (pipeline: string, key: string) => world.ws.pipelines[pipeline]?.stages[key] as string;

async function lastEntryId(prospectId: string): Promise<string> {
  return (await show(prospectId)).changelog[0]?.id as string;
}

describe('undoing an API change', () => {
  it('restores a stage and its pipeline, marks the entry, and writes no new entry', async () => {
    const id = await aProspect();
    await call('PATCH', `/prospects/${id}`, { stage: stage('partners', 'first') });
    const entryId = await lastEntryId(id);
    const result = await undo(entryId);
    expect(result.entry).toMatchObject({ id: entryId, field: 'stage', undone_at: expect.any(String) });
    expect(result.prospect).toMatchObject({
      pipeline_id: world.ws.pipelines.sales?.id,
      stage_id: stage('sales', 'new'),
      version: 3,
    });
    const { prospect, changelog } = await show(id);
    expect(prospect).toMatchObject({ pipeline_id: world.ws.pipelines.sales?.id, stage_id: stage('sales', 'new') });
    expect(changelog).toHaveLength(1);
    expect(changelog[0]?.undone_at).toEqual(result.entry.undone_at);
  });

  it.each([
    ['setter', { setter_id: 'alice' }, (p: { setter_id: string | null }) => p.setter_id],
    [
      'follow-up',
      { follow_up_at: '2027-01-02T03:04:05Z' },
      (p: { next_follow_up_at: string | null }) => p.next_follow_up_at,
    ],
  ])('restores the %s before the change', async (_label, body, read) => {
    const id = await aProspect();
    const payload = 'setter_id' in body ? { setter_id: world.ws.members.alice } : body;
    await call('PATCH', `/prospects/${id}`, payload);
    await undo(await lastEntryId(id));
    expect(read((await show(id)).prospect as never)).toBeNull();
  });

  it('removes an added tag and puts back a removed one', async () => {
    const id = await aProspect();
    await call('POST', `/prospects/${id}/tags`, { tag: 'VIP' });
    await undo(await lastEntryId(id));
    expect((await show(id)).tags).toEqual([]);
    await call('POST', `/prospects/${id}/tags`, { tag: 'Chaud' });
    await call('DELETE', `/prospects/${id}/tags/Chaud`);
    await undo(await lastEntryId(id));
    expect((await show(id)).tags).toEqual([{ id: world.ws.tags.hot, name: 'Chaud' }]);
  });

  it('is refused, with nothing changed, once the prospect moved on, for a note, or twice', async () => {
    const id = await aProspect();
    await call('PATCH', `/prospects/${id}`, { stage: 'Relance' });
    const stageEntry = await lastEntryId(id);
    await call('PATCH', `/prospects/${id}`, { setter_id: world.ws.members.bob });
    await expect(undo(stageEntry)).rejects.toThrow(ConflictError);
    expect((await show(id)).prospect).toMatchObject({ stage_id: stage('sales', 'fu'), version: 3 });

    await call('POST', `/prospects/${id}/notes`, { content: 'Note' });
    await expect(undo(await lastEntryId(id))).rejects.toThrow(UnknownReferenceError);

    const other = await aProspect();
    await call('PATCH', `/prospects/${other}`, { closer_id: world.ws.members.bob });
    const entry = await lastEntryId(other);
    await undo(entry);
    await expect(undo(entry)).rejects.toThrow(/déjà été annulée/);
    await expect(undo(randomUUID())).rejects.toThrow(NotFoundError);
  });

  it('refuses a webhook update since the change too (every write raises the version)', async () => {
    const email = `${randomUUID()}@test.fr`;
    const lead = (first_name: string) =>
      world.api.request('POST', '/webhooks/ingest-lead', {
        query: { endpoint_id: world.ws.webhook?.endpoint_id as string },
        headers: { Authorization: `Bearer ${world.ws.webhook?.token}` },
        body: { email, first_name },
      });
    const id = ((await lead('A')).body as { prospect_id: string }).prospect_id;
    await call('PATCH', `/prospects/${id}`, { stage: 'Relance' });
    const entry = await lastEntryId(id);
    await lead('B');
    await expect(undo(entry)).rejects.toThrow(/modifié depuis/);
  });
});

describe('listing the change log', () => {
  it('lists a prospect’s entries and a key’s entries, newest first', async () => {
    const first = await aProspect();
    const second = await aProspect();
    await call('PATCH', `/prospects/${first}`, { stage: 'Relance' });
    await call('PATCH', `/prospects/${second}`, { setter_id: world.ws.members.alice });
    const ofProspect = await changeLogEntries(world.deps, { workspaceId: world.ws.workspace_id, prospectId: first });
    expect(ofProspect.entries.map((entry) => entry.field)).toEqual(['stage']);
    const ofKey = await changeLogEntries(world.deps, {
      workspaceId: world.ws.workspace_id,
      keyId: world.ws.api_keys.admin?.id,
    });
    const ats = ofKey.entries.map((entry) => entry.at);
    expect(ats).toEqual([...ats].sort().reverse());
    expect(ofKey.entries.slice(0, 2).map((entry) => entry.prospect_id)).toEqual([second, first]);
  });
});

describe('admin command line: changelog and candidate', () => {
  it('undoes with --json, and exits 2 with nothing on stdout when refused', async () => {
    const id = await aProspect();
    await call('PATCH', `/prospects/${id}`, { stage: 'Relance' });
    const entry = await lastEntryId(id);
    const done = await admin('changelog', 'undo', '--workspace', world.ws.workspace_id, '--entry', entry, '--json');
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({
      entry: { id: entry, undone_at: expect.any(String) },
      prospect: { id },
    });
    const again = await admin('changelog', 'undo', '--workspace', world.ws.workspace_id, '--entry', entry, '--json');
    expect(again).toMatchObject({ code: 2, stdout: '' });
    expect(again.stderr).toMatch(/déjà été annulée/);
    const listed = await admin('changelog', 'list', '--workspace', world.ws.workspace_id, '--prospect', id, '--json');
    expect(JSON.parse(listed.stdout)).toEqual({
      entries: [
        {
          id: entry,
          prospect_id: id,
          key_id: world.ws.api_keys.admin?.id,
          field: 'stage',
          before: stage('sales', 'new'),
          after: stage('sales', 'fu'),
          at: expect.any(String),
          undone_at: expect.any(String),
        },
      ],
    });
  });

  it('shows a candidate with its notes', async () => {
    const applied = await world.api.request('POST', '/webhooks/recruitment', {
      query: { endpoint_id: world.ws.webhook?.endpoint_id as string },
      headers: { Authorization: `Bearer ${world.ws.webhook?.token}` },
      body: { email: 'cand@test.fr', name: 'Nina Simone', position: 'Chanteuse', answers: { Style: 'Jazz' } },
    });
    const talentId = (applied.body as { talent_id: string }).talent_id;
    const shown = await admin('candidate', 'show', '--workspace', world.ws.workspace_id, '--id', talentId, '--json');
    expect(JSON.parse(shown.stdout)).toEqual({
      candidate: {
        id: talentId,
        first_name: 'Nina',
        last_name: 'Simone',
        email: 'cand@test.fr',
        phone: null,
        position: 'Chanteuse',
        source: 'webhook',
        pipeline_id: world.ws.recruitment_pipelines.devs?.id,
        column_id: world.ws.recruitment_pipelines.devs?.columns.applied,
      },
      notes: [{ id: expect.any(String), content: 'Style : Jazz', created_at: expect.any(String) }],
    });
    expect((await admin('candidate', 'show', '--workspace', world.ws.workspace_id, '--id', randomUUID())).code).toBe(2);
  });
});
