import { randomUUID } from 'node:crypto';
import { eventsOfChange, subjectOfChange } from '../../lib/domain/events/events-of-change';
import type { Actor } from '../../lib/domain/events/event-types';
import { eventItems } from '../../lib/storage/event-items';
import { keys, items, type CandidateItem, type NoteItem, type ProspectItem } from '../../lib/storage/table-items';
import type { StoredChange } from '../../lib/storage/stream-records';
import type { TagItem } from '../../lib/storage/workspace-config';
import { aProspectItem } from '../support/prospect-items';
import type { FieldDefinition } from '../../lib/domain/model';

const workspaceId = randomUUID();
const vip: TagItem = { type: 'tag', id: randomUUID(), name: 'VIP' };
const hot: TagItem = { type: 'tag', id: randomUUID(), name: 'Chaud' };
const cold: TagItem = { type: 'tag', id: randomUUID(), name: 'Froid' };
const tags = [vip, hot, cold];
/** A workspace without custom fields: every prospect view shows `fields: {}`. */
const noFields: FieldDefinition[] = [];
const apiKey: Actor = { kind: 'api_key', id: randomUUID() };
const created = '2026-03-01T09:00:00.000Z';
const later = '2026-03-02T10:30:00.000Z';

let sequence = 0;
const change = (
  eventName: StoredChange['eventName'],
  before: object | undefined,
  after: object | undefined,
): StoredChange => {
  const item = (after ?? before) as { pk: string; sk: string };
  sequence += 1;
  return {
    eventName,
    sequenceNumber: String(sequence).padStart(21, '0'),
    pk: item.pk,
    sk: item.sk,
    ...(before ? { before: { ...before } } : {}),
    ...(after ? { after: { ...after } } : {}),
  };
};

const aProspect = (fields: Partial<ProspectItem> = {}): ProspectItem & { actor: Actor } => ({
  ...aProspectItem(workspaceId, { created_at: created, updated_at: created, first_name: 'Léa', ...fields }),
  actor: { kind: 'webhook', id: randomUUID() },
});

/** The same prospect after one more write: version and updated_at raised, stamped by `actor`. */
const written = (
  prospect: ProspectItem,
  fields: Partial<ProspectItem>,
  actor: Actor = apiKey,
): ProspectItem & { actor: Actor } => ({
  ...prospect,
  ...fields,
  version: prospect.version + 1,
  updated_at: later,
  actor,
});

const aNote = (
  owner: 'prospect' | 'candidate',
  recordId: string,
  content: string,
  extra: Record<string, unknown> = {},
): NoteItem & Record<string, unknown> => ({
  ...items.note(owner, {
    id: randomUUID(),
    workspace_id: workspaceId,
    record_id: recordId,
    content,
    date: '2026-02-14T00:00:00.000Z',
    created_at: later,
    key_id: null,
    actor: apiKey,
  }),
  ...extra,
});

const aCandidate = (fields: Partial<CandidateItem> = {}): CandidateItem => ({
  ...items.candidate({
    id: randomUUID(),
    workspace_id: workspaceId,
    pipeline_id: randomUUID(),
    column_id: randomUUID(),
    first_name: 'Zoé',
    last_name: 'Moreau',
    email: 'zoe.moreau@exemple.test',
    phone: null,
    position: 'Développeuse',
    source: 'Typeform',
    version: 1,
    created_at: created,
    updated_at: created,
    actor: { kind: 'webhook', id: randomUUID() },
    ...fields,
  }),
});

const typesOf = (events: ReturnType<typeof eventsOfChange>) => events.map((event) => event.body.type);

describe('events of a prospect write', () => {
  it('makes prospect.created for a new prospect, with its GET /prospects/{id} view, actor and write time', () => {
    const prospect = aProspect({ tag_ids: new Set([vip.id]), email: 'lea@exemple.test' });

    const events = eventsOfChange(change('INSERT', undefined, prospect), { tags, fields: noFields });

    expect(events).toEqual([
      {
        id: expect.any(String),
        workspaceId,
        body: {
          type: 'prospect.created',
          timestamp: created,
          data: {
            prospect: expect.objectContaining({
              id: prospect.id,
              first_name: 'Léa',
              email: 'lea@exemple.test',
              tags: [{ id: vip.id, name: 'VIP' }],
              created_at: created,
            }),
            actor: prospect.actor,
          },
        },
      },
    ]);
    expect(events[0]?.id.slice(0, 13).replace('-', '')).toBe(Date.parse(created).toString(16).padStart(12, '0'));
  });

  it('makes one prospect.updated naming only the fields that really changed, as the change log names them', () => {
    const before = aProspect({ stage_id: 's1', setter_id: 'm1', email: 'a@exemple.test', last_name: 'Petit' });
    const after = written(before, {
      stage_id: 's2',
      setter_id: 'm1',
      closer_id: 'm2',
      next_follow_up_at: '2026-04-01T08:00:00.000Z',
      first_name: 'Léa',
      last_name: null,
      email: 'b@exemple.test',
      phone: '+33612345678',
    });

    const events = eventsOfChange(change('MODIFY', before, after), { tags, fields: noFields });

    expect(typesOf(events)).toEqual(['prospect.updated']);
    expect(events[0]?.body.timestamp).toBe(later);
    expect(events[0]?.body.data).toEqual({
      prospect: expect.objectContaining({ stage_id: 's2', closer_id: 'm2', email: 'b@exemple.test' }),
      changes: [
        { field: 'stage', before: 's1', after: 's2' },
        { field: 'closer', before: null, after: 'm2' },
        { field: 'follow_up', before: null, after: '2026-04-01T08:00:00.000Z' },
        { field: 'last_name', before: 'Petit', after: null },
        { field: 'email', before: 'a@exemple.test', after: 'b@exemple.test' },
        { field: 'phone', before: null, after: '+33612345678' },
      ],
      actor: apiKey,
    });
  });

  it("shows the live custom fields in the prospect and names their values' changes `fields.<key>`, as answered", () => {
    const definitions: FieldDefinition[] = [
      { key: 'budget', label: 'Budget', type: 'number', options: null, aliases: [], update: 'always' },
      {
        key: 'interests',
        label: 'Intérêts',
        type: 'multi_choice',
        options: ['Vente', 'Coaching'],
        aliases: [],
        update: 'always',
      },
      { key: 'plan', label: 'Offre', type: 'choice', options: ['Pro'], aliases: [], update: 'always' },
    ];
    const before = aProspect({ fields: { budget: 10, plan: 'pro', old: 'x' } });
    const after = written(before, { fields: { interests: ['Vente'], plan: 'Pro', old: 'y' }, stage_id: 's9' });

    const [event, ...others] = eventsOfChange(change('MODIFY', before, after), { tags, fields: definitions });

    expect(others).toEqual([]);
    expect(event?.body.data).toEqual({
      prospect: expect.objectContaining({ fields: { budget: null, interests: ['Vente'], plan: 'Pro' } }),
      changes: [
        { field: 'stage', before: null, after: 's9' },
        { field: 'fields.budget', before: 10, after: null },
        { field: 'fields.interests', before: null, after: ['Vente'] },
      ],
      actor: apiKey,
    });
    // A deleted field's value removed by the purge, without a new version: no event.
    const purged: ProspectItem = { ...before, fields: { budget: 10, plan: 'pro' } };
    expect(eventsOfChange(change('MODIFY', before, purged), { tags, fields: definitions })).toEqual([]);
  });

  it('makes nothing for a follow-up set to the value it had (the write still raised version and updated_at)', () => {
    const before = aProspect({ next_follow_up_at: '2026-04-01T08:00:00.000Z', tag_ids: new Set([vip.id]) });
    const after = written(before, { next_follow_up_at: '2026-04-01T08:00:00.000Z', tag_ids: new Set([vip.id]) });

    expect(eventsOfChange(change('MODIFY', before, after), { tags, fields: noFields })).toEqual([]);
  });

  it('makes nothing for the prospect write of a note transaction (version, updated_at and actor only)', () => {
    const before = aProspect();
    expect(eventsOfChange(change('MODIFY', before, written(before, {})), { tags, fields: noFields })).toEqual([]);
  });

  it('makes nothing, and reads nothing for it, when the write left the version where it was (a deleted field purged)', () => {
    const before = aProspect({
      stage_id: randomUUID(),
      tag_ids: new Set([vip.id]),
      fields: { budget: 1500, ville: 'Lyon' },
    });
    // What the purge writes is the value's removal alone; the stage and tag moved here too show that the version,
    // not the lack of a difference, is what makes no event.
    const after = { ...before, stage_id: randomUUID(), tag_ids: new Set([hot.id]), fields: { ville: 'Lyon' } };

    expect(subjectOfChange(change('MODIFY', before, after))).toBeUndefined();
    expect(eventsOfChange(change('MODIFY', before, after), { tags, fields: [] })).toEqual([]);
    expect(
      typesOf(
        eventsOfChange(change('MODIFY', before, { ...after, version: before.version + 1 }), { tags, fields: [] }),
      ),
    ).toEqual(['prospect.updated', 'prospect.tag_added', 'prospect.tag_removed']);
  });

  it('keeps a name that only changed from NFC to NFD as a change: the stored strings differ', () => {
    const before = aProspect({ first_name: 'Hélène' });
    const after = written(before, { first_name: 'He\u0301le\u0300ne' });

    const [event] = eventsOfChange(change('MODIFY', before, after), { tags, fields: noFields });

    expect(event?.body.data.changes).toEqual([{ field: 'first_name', before: 'Hélène', after: 'He\u0301le\u0300ne' }]);
  });

  it('makes one event per tag added and per tag removed in one write, named, with a null name for an unknown tag', () => {
    const unknown = randomUUID();
    const before = aProspect({ tag_ids: new Set([vip.id, hot.id]) });
    const after = written(before, { tag_ids: new Set([hot.id, cold.id, unknown]) });

    const events = eventsOfChange(change('MODIFY', before, after), { tags, fields: noFields });

    const added = events.filter((event) => event.body.type === 'prospect.tag_added');
    const removed = events.filter((event) => event.body.type === 'prospect.tag_removed');
    expect(added.map((event) => event.body.data.tag)).toEqual(
      expect.arrayContaining([
        { id: cold.id, name: 'Froid' },
        { id: unknown, name: null },
      ]),
    );
    expect(added).toHaveLength(2);
    expect(removed.map((event) => event.body.data.tag)).toEqual([{ id: vip.id, name: 'VIP' }]);
    expect(removed[0]?.body.data.changes).toEqual([{ field: 'tags', before: vip.id, after: null }]);
    expect(added.find((event) => (event.body.data.tag as { id: string }).id === cold.id)?.body.data.changes).toEqual([
      { field: 'tags', before: null, after: cold.id },
    ]);
    for (const event of events) {
      expect(event.body.data.prospect).toEqual(
        expect.objectContaining({
          tags: expect.arrayContaining([
            { id: hot.id, name: 'Chaud' },
            { id: cold.id, name: 'Froid' },
          ]),
        }),
      );
      expect(event.body.data.actor).toEqual(apiKey);
    }
    expect(new Set(events.map((event) => event.id)).size).toBe(3);
  });

  it('makes the tag events of a first tag (no set before) and of the last one removed (no set after)', () => {
    const bare = aProspect();
    const tagged = written(bare, { tag_ids: new Set([vip.id]) });
    const untagged: ProspectItem = { ...written(tagged, {}) };
    delete untagged.tag_ids;

    expect(typesOf(eventsOfChange(change('MODIFY', bare, tagged), { tags, fields: noFields }))).toEqual([
      'prospect.tag_added',
    ]);
    expect(typesOf(eventsOfChange(change('MODIFY', tagged, untagged), { tags, fields: noFields }))).toEqual([
      'prospect.tag_removed',
    ]);
  });

  it('makes prospect.updated and tag events of one known-lead write, each with its own id', () => {
    const before = aProspect({ email: null });
    const after = written(
      before,
      { email: 'lea@exemple.test', tag_ids: new Set([vip.id]) },
      { kind: 'webhook', id: 'e' },
    );

    const events = eventsOfChange(change('MODIFY', before, after), { tags, fields: noFields });

    expect(typesOf(events)).toEqual(['prospect.updated', 'prospect.tag_added']);
    expect(events[0]?.id).not.toBe(events[1]?.id);
    expect(events.every((event) => event.body.timestamp === later)).toBe(true);
  });
});

describe('events of a note', () => {
  it('makes prospect.note_added with the prospect read, the note as written (emoji, NFD), its change and actor', () => {
    const prospect = aProspect({ tag_ids: new Set([hot.id]) });
    const content = 'Rappeler 📞 demain — Re\u0301union confirmée 👍🏽\n\tfin';
    const note = aNote('prospect', prospect.id, content);
    const noteChange = change('INSERT', undefined, note);

    expect(subjectOfChange(noteChange)).toEqual({
      workspaceId,
      types: ['prospect.note_added'],
      record: keys.prospect(workspaceId, prospect.id),
    });
    const events = eventsOfChange(noteChange, { tags, fields: noFields, record: prospect });

    expect(events).toEqual([
      {
        id: expect.any(String),
        workspaceId,
        body: {
          type: 'prospect.note_added',
          timestamp: later,
          data: {
            prospect: expect.objectContaining({ id: prospect.id, tags: [{ id: hot.id, name: 'Chaud' }] }),
            note: { id: note.id, content, date: note.date, created_at: later },
            changes: [{ field: 'note', before: null, after: note.id }],
            actor: apiKey,
          },
        },
      },
    ]);
    expect((events[0]?.body.data.note as { content: string }).content).toBe(content);
  });

  it('makes nothing without its prospect, or with a record of another partition', () => {
    const prospect = aProspect();
    const note = aNote('prospect', prospect.id, 'Bonjour');
    const other = aProspect();

    expect(eventsOfChange(change('INSERT', undefined, note), { tags, fields: noFields })).toEqual([]);
    expect(eventsOfChange(change('INSERT', undefined, note), { tags, fields: noFields, record: other })).toEqual([]);
  });

  it('makes candidate.application_received for a known candidate applying again, nothing for a first application', () => {
    const candidate = aCandidate();
    const again = aNote('candidate', candidate.id, 'Réponses 🧑‍💻', { application: 'again' });
    const first = aNote('candidate', candidate.id, 'Réponses', { application: 'first' });

    const events = eventsOfChange(change('INSERT', undefined, again), { tags, fields: noFields, record: candidate });

    expect(events).toEqual([
      {
        id: expect.any(String),
        workspaceId,
        body: {
          type: 'candidate.application_received',
          timestamp: later,
          data: {
            candidate: {
              id: candidate.id,
              first_name: 'Zoé',
              last_name: 'Moreau',
              email: 'zoe.moreau@exemple.test',
              phone: null,
              position: 'Développeuse',
              source: 'Typeform',
              pipeline_id: candidate.pipeline_id,
              column_id: candidate.column_id,
            },
            note: { id: again.id, content: 'Réponses 🧑‍💻', created_at: later },
            actor: apiKey,
          },
        },
      },
    ]);
    expect(subjectOfChange(change('INSERT', undefined, first))).toBeUndefined();
    expect(eventsOfChange(change('INSERT', undefined, first), { tags, fields: noFields, record: candidate })).toEqual(
      [],
    );
  });
});

describe('events of a candidate', () => {
  it('makes candidate.created for a new candidate, in the shape of candidate show', () => {
    const candidate = aCandidate();

    const events = eventsOfChange(change('INSERT', undefined, candidate), { tags, fields: noFields });

    expect(typesOf(events)).toEqual(['candidate.created']);
    expect(events[0]?.body).toEqual({
      type: 'candidate.created',
      timestamp: created,
      data: {
        candidate: expect.objectContaining({ id: candidate.id, column_id: candidate.column_id }),
        actor: candidate.actor,
      },
    });
    expect(Object.keys(events[0]?.body.data.candidate as object).sort()).toEqual(
      ['column_id', 'email', 'first_name', 'id', 'last_name', 'phone', 'pipeline_id', 'position', 'source'].sort(),
    );
  });

  it('makes nothing for a candidate modified (no event type for it)', () => {
    const candidate = aCandidate();
    const moved = { ...candidate, column_id: randomUUID(), version: 2, updated_at: later };
    expect(eventsOfChange(change('MODIFY', candidate, moved), { tags, fields: noFields })).toEqual([]);
  });
});

describe('writes that make no event', () => {
  const prospect = aProspect();
  const entryId = randomUUID();
  const unrelated: [string, object][] = [
    [
      'a change-log entry',
      items.changeLogEntry({
        id: entryId,
        workspace_id: workspaceId,
        prospect_id: prospect.id,
        key_id: randomUUID(),
        field: 'stage',
        before: null,
        after: 's1',
        at: later,
        prospect_version: 2,
        undone_at: null,
      }),
    ],
    ['a contact marker', items.marker(keys.emailMarker(workspaceId, 'a@exemple.test'), workspaceId, prospect.id)],
    [
      'a webhook call journal entry',
      items.webhookCall({
        id: randomUUID(),
        workspace_id: workspaceId,
        endpoint_id: randomUUID(),
        at: later,
        route: 'ingest-lead',
        status: 201,
        outcome: 'created',
        record_id: prospect.id,
        placement: null,
        warnings: [],
        request_id: null,
      }),
    ],
    [
      'a delivery',
      eventItems.delivery({
        id: randomUUID(),
        workspace_id: workspaceId,
        subscription_id: randomUUID(),
        event_id: randomUUID(),
        event_type: 'prospect.created',
        payload: '{}',
        status: 'pending',
        attempts: 0,
        step: 0,
        last_status_code: null,
        last_error: null,
        next_attempt_at: later,
        created_at: later,
        expires_at: 0,
      }),
    ],
    [
      'a subscription',
      eventItems.subscription({
        id: randomUUID(),
        workspace_id: workspaceId,
        url: 'https://exemple.test/hook',
        events: ['prospect.created'],
        active: true,
        created_at: later,
      }),
    ],
  ];

  it.each(unrelated)('makes nothing for %s, inserted or modified', (_label, item) => {
    const insert = change('INSERT', undefined, item);
    expect(subjectOfChange(insert)).toBeUndefined();
    expect(eventsOfChange(insert, { tags, fields: noFields })).toEqual([]);
    expect(eventsOfChange(change('MODIFY', item, item), { tags, fields: noFields })).toEqual([]);
  });

  it('makes nothing for a REMOVE, of a prospect or of a note', () => {
    const note = aNote('prospect', prospect.id, 'x');
    expect(eventsOfChange(change('REMOVE', prospect, undefined), { tags, fields: noFields })).toEqual([]);
    expect(eventsOfChange(change('REMOVE', note, undefined), { tags, fields: noFields, record: prospect })).toEqual([]);
  });

  it('makes nothing for an item whose key is not its own workspace and id (isolation by key)', () => {
    const elsewhere = { ...prospect, workspace_id: randomUUID() };
    expect(eventsOfChange(change('INSERT', undefined, elsewhere), { tags, fields: noFields })).toEqual([]);
  });
});

describe('event ids', () => {
  it('are the same for the same write seen twice, and distinct across writes, tags, types and workspaces', () => {
    const before = aProspect({ tag_ids: new Set([vip.id]) });
    const after = written(before, { stage_id: 's2', tag_ids: new Set([hot.id]) });
    const modify = change('MODIFY', before, after);
    const again = { ...change('MODIFY', before, after), sequenceNumber: 'another' };
    const nextWrite = change('MODIFY', after, written(after, { stage_id: 's3' }));
    const otherWorkspace = aProspectItem(randomUUID(), { id: before.id, created_at: created, updated_at: created });

    const first = eventsOfChange(modify, { tags, fields: noFields }).map((event) => event.id);
    const ids = [
      ...first,
      ...eventsOfChange(nextWrite, { tags, fields: noFields }).map((event) => event.id),
      ...eventsOfChange(change('INSERT', undefined, before), { tags, fields: noFields }).map((event) => event.id),
      ...eventsOfChange(change('INSERT', undefined, otherWorkspace), { tags, fields: noFields }).map(
        (event) => event.id,
      ),
    ];

    expect(first).toHaveLength(3);
    expect(eventsOfChange(again, { tags, fields: noFields }).map((event) => event.id)).toEqual(first);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('do not depend on the tags read: only on the write', () => {
    const note = aNote('prospect', randomUUID(), 'x');
    const prospect = aProspectItem(workspaceId, { id: note.record_id });
    const [withTags] = eventsOfChange(change('INSERT', undefined, note), { tags, fields: noFields, record: prospect });
    const [withoutTags] = eventsOfChange(change('INSERT', undefined, note), {
      tags: [],
      fields: noFields,
      record: prospect,
    });
    expect(withTags?.id).toBe(withoutTags?.id);
  });
});

describe('actor', () => {
  it('is null when the item carries none or an unreadable one', () => {
    const bare: ProspectItem = aProspectItem(workspaceId, { created_at: created, updated_at: created });
    delete bare.actor;
    const odd = { ...bare, actor: { kind: 'robot', id: 'x' } };
    expect(
      eventsOfChange(change('INSERT', undefined, bare), { tags, fields: noFields })[0]?.body.data.actor,
    ).toBeNull();
    expect(eventsOfChange(change('INSERT', undefined, odd), { tags, fields: noFields })[0]?.body.data.actor).toBeNull();
    const admin = { ...bare, actor: { kind: 'admin', id: null } };
    expect(eventsOfChange(change('INSERT', undefined, admin), { tags, fields: noFields })[0]?.body.data.actor).toEqual({
      kind: 'admin',
      id: null,
    });
  });
});

describe('the actor of an undo', () => {
  const undoneEntry = randomUUID();
  const memberId = randomUUID();
  const actorOfUndo = (actor: Actor) => {
    const before = aProspect({ stage_id: 's2' });
    const [event] = eventsOfChange(change('MODIFY', before, written(before, { stage_id: 's1' }, actor)), {
      tags,
      fields: noFields,
    });
    return event?.body.data.actor;
  };

  it('names the member who undid through the settings API (docs/api.md#outbound-events)', () => {
    expect(actorOfUndo({ kind: 'undo', id: undoneEntry, member_id: memberId })).toEqual({
      kind: 'undo',
      id: undoneEntry,
      member_id: memberId,
    });
  });

  it("names no member for the command line's undo, nor for another writer's stamp", () => {
    expect(actorOfUndo({ kind: 'undo', id: undoneEntry })).toEqual({ kind: 'undo', id: undoneEntry });
    const stray = { kind: 'api_key', id: apiKey.id, member_id: memberId } as Actor;
    expect(actorOfUndo(stray)).toEqual({ kind: 'api_key', id: apiKey.id });
  });
});

describe('an erasure: prospect.erased and candidate.erased, the id alone', () => {
  const job = (kind: 'prospect' | 'candidate', recordId: string) => ({
    ...keys.erasure(workspaceId, kind, recordId),
    type: 'erasure',
    workspace_id: workspaceId,
    kind,
    record_id: recordId,
    erased_at: later,
    member_id: randomUUID(),
    contacts: { emails: ['lea.petit@acme.test'], phones: ['06 12 34 56 78', '+33612345678'], phone_region: 'FR' },
    step: 'records',
    gsi4pk: 'ERASURE',
    gsi4sk: later,
  });

  it.each([
    ['prospect', 'prospect.erased', 'prospect_id'],
    ['candidate', 'candidate.erased', 'candidate_id'],
  ] as const)('a %s’s job makes %s with data { %s } and nothing of the person', (kind, type, field) => {
    const recordId = randomUUID();
    const inserted = change('INSERT', undefined, job(kind, recordId));
    expect(subjectOfChange(inserted)).toEqual({ workspaceId, types: [type] });
    const [event, ...others] = eventsOfChange(inserted, { tags: [], fields: [] });
    expect(others).toEqual([]);
    expect(event?.body).toEqual({ type, timestamp: later, data: { [field]: recordId } });
    expect(JSON.stringify(event)).not.toMatch(/lea\.petit|612345678|12 34 56/);
    // The same job seen twice (the stream delivers at least once): the same event id.
    expect(eventsOfChange(inserted, { tags: [], fields: [] })[0]?.id).toBe(event?.id);
  });

  it('its progress and its end make no event', () => {
    const recordId = randomUUID();
    const started = job('prospect', recordId);
    expect(eventsOfChange(change('MODIFY', started, { ...started, step: 'calls' }), { tags: [], fields: [] })).toEqual(
      [],
    );
    expect(eventsOfChange(change('REMOVE', started, undefined), { tags: [], fields: [] })).toEqual([]);
  });
});
