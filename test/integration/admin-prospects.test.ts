import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { AdminInputError } from '../../lib/settings/admin-input';
import { showProspect } from '../../lib/settings/prospects';
import { productionDeps } from '../../lib/storage/client';
import { keys, type ChangeLogItem, type NoteItem } from '../../lib/storage/table-items';
import { seedTestWorkspace } from '../support/seed';

const deps = productionDeps();
const put = (item: Record<string, unknown>) => deps.db.send(new PutCommand({ TableName: deps.tableName, Item: item }));

function aNote(workspaceId: string, prospectId: string, createdAt: string, content: string): NoteItem {
  const id = randomUUID();
  return {
    pk: keys.prospectPk(workspaceId, prospectId),
    sk: keys.noteSk(createdAt, id),
    type: 'note',
    id,
    workspace_id: workspaceId,
    record_id: prospectId,
    content,
    date: '2026-01-01T00:00:00.000Z',
    created_at: createdAt,
    key_id: null,
  };
}

function anEntry(workspaceId: string, prospectId: string, keyId: string, at: string): ChangeLogItem {
  const id = randomUUID();
  return {
    pk: keys.prospectPk(workspaceId, prospectId),
    sk: keys.changeLogSk(at, id),
    type: 'changelog',
    id,
    workspace_id: workspaceId,
    prospect_id: prospectId,
    key_id: keyId,
    field: 'setter',
    before: null,
    after: randomUUID(),
    at,
    prospect_version: 2,
    undone_at: null,
    gsi1pk: keys.changeLogOfKey(keyId),
    gsi1sk: at,
    gsi2pk: keys.changeLogEntryRef(workspaceId, id),
    gsi2sk: 'LOGENTRY',
  };
}

describe('prospect show', () => {
  it('shows the record fields, its tags by name and empty notes and log for a seeded prospect', async () => {
    const seed = await seedTestWorkspace();
    const prospectId = seed.prospects.social ?? '';

    expect(await showProspect(deps, { workspaceId: seed.workspace_id, prospectId })).toEqual({
      prospect: {
        id: prospectId,
        pipeline_id: seed.pipelines.sales?.id,
        stage_id: seed.pipelines.sales?.stages.fu,
        setter_id: seed.members.alice,
        closer_id: null,
        next_follow_up_at: null,
        first_name: null,
        last_name: null,
        email: null,
        phone: null,
        social_url: 'https://www.linkedin.com/in/marc-social',
        source: null,
        fields: {},
        version: 1,
        created_at: expect.stringMatching(/Z$/),
        updated_at: expect.stringMatching(/Z$/),
      },
      tags: [{ id: seed.tags.vip, name: 'VIP' }],
      notes: [],
      changelog: [],
    });
  });

  it('lists notes and change-log entries from the prospect partition, newest first, in the printed shape', async () => {
    const seed = await seedTestWorkspace();
    const ws = seed.workspace_id;
    const prospectId = seed.prospects.lead ?? '';
    const keyId = seed.api_keys.admin?.id ?? '';
    const older = aNote(ws, prospectId, '2026-11-20T10:00:00.000Z', 'Premier appel');
    const newer = aNote(ws, prospectId, '2026-11-21T10:00:00.000Z', 'Rappeler\n\nmardi');
    const firstEntry = anEntry(ws, prospectId, keyId, '2026-11-20T11:00:00.000Z');
    const lastEntry = {
      ...anEntry(ws, prospectId, keyId, '2026-11-21T11:00:00.000Z'),
      undone_at: '2026-11-22T00:00:00.000Z',
    };
    for (const item of [older, newer, firstEntry, lastEntry]) await put(item);

    const shown = await showProspect(deps, { workspaceId: ws, prospectId });
    expect(shown.notes).toEqual([
      { id: newer.id, content: 'Rappeler\n\nmardi', date: newer.date, created_at: newer.created_at },
      { id: older.id, content: 'Premier appel', date: older.date, created_at: older.created_at },
    ]);
    expect(shown.changelog).toEqual(
      [lastEntry, firstEntry].map((entry) => ({
        id: entry.id,
        prospect_id: prospectId,
        key_id: keyId,
        field: 'setter',
        before: null,
        after: entry.after,
        at: entry.at,
        undone_at: entry.undone_at,
      })),
    );
    expect(shown.tags).toEqual([]);
  });

  it("refuses an unknown id, a malformed id, another workspace's prospect and an unknown workspace", async () => {
    const mine = await seedTestWorkspace();
    const theirs = await seedTestWorkspace();
    const theirProspect = theirs.prospects.lead ?? '';
    const refused = [
      { workspaceId: mine.workspace_id, prospectId: randomUUID() },
      { workspaceId: mine.workspace_id, prospectId: 'not-a-uuid' },
      { workspaceId: mine.workspace_id, prospectId: theirProspect },
      { workspaceId: randomUUID(), prospectId: theirProspect },
    ];
    for (const input of refused) await expect(showProspect(deps, input)).rejects.toBeInstanceOf(AdminInputError);
  });
});
