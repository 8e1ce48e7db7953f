import { randomUUID } from 'node:crypto';
import { withNewField } from '../../lib/domain/fields/field-definitions';
import type { CandidateExport, ProspectExport } from '../../lib/domain/export/person-exports';
import { readAuditPage } from '../../lib/storage/audit-log';
import { editWorkspaceConfig, partsOf } from '../../lib/storage/config-edits';
import { keys } from '../../lib/storage/table-items';
import { copiesInTable, plantDelivery } from '../support/deliveries';
import { readPartition } from '../support/table-reads';
import { runAdmin, runAdminInProcess } from '../support/admin-cli';
import { useSeededApi } from '../support/seeded-api';
import { aWorkspace, seedTestWorkspace } from '../support/seed';

/*
 * `prospect export` and `candidate export` (docs/api.md#exports): every kind of data kept about one person is planted
 * through the API (a lead with a custom field's value and its journaled call, the same lead again, notes, tags and
 * change-log entries through the Prospect API, a refused call carrying its e-mail) or, for deliveries, in the table as
 * the stream handler writes them; the export is then compared with what the table itself holds for that person.
 */

const world = useSeededApi();
const ws = () => world.ws.workspace_id;
const email = `export-${randomUUID()}@exemple.test`;
let prospectId: string;
let otherProspectId: string;
let candidateId: string;

const secondsFromNow = (seconds: number) => Math.floor(Date.now() / 1000) + seconds;

const plant = (type: string, data: Record<string, unknown>, expiresAt?: number) =>
  plantDelivery(world.deps, ws(), { type, data, ...(expiresAt === undefined ? {} : { expiresAt }) });
const partition = <T>(pk: string) => readPartition<T>(world.deps, pk);
const copiesOfProspect = () => copiesInTable(world.deps, ws(), { kind: 'prospect', id: prospectId, contacts: [email] });

const exportOf = async (kind: 'prospect' | 'candidate', workspaceId: string, id: string) =>
  runAdminInProcess(world.deps, kind, 'export', '--workspace', workspaceId, '--id', id, '--json');

beforeAll(async () => {
  const edited = await editWorkspaceConfig(world.deps, ws(), (config) => ({
    ...partsOf(config),
    fields: withNewField(config, { key: 'budget', label: 'Budget', type: 'number' }),
  }));
  expect(edited).not.toBe('workspace_missing');
  prospectId = await world.aProspect({ email, first_name: 'Nina', phone: '+33698765432', budget: '1 500' });
  otherProspectId = await world.aProspect();
  expect((await world.lead({ email, last_name: 'Roux' })).status).toBe(200);
  // A refused call carrying the e-mail: journaled with its body, naming no record (docs/api.md#webhook-call-journal).
  const refused = await world.api.request('POST', '/webhooks/ingest-lead', {
    query: { endpoint_id: world.ws.webhook?.endpoint_id as string },
    headers: { Authorization: `Bearer ${world.ws.webhook?.token}`, 'content-type': 'application/json' },
    body: `{"email":"${email}",`,
  });
  expect(refused.status).toBe(400);
  const onProspect = `/prospects/${prospectId}`;
  expect((await world.call('PATCH', onProspect, { stage: 'Relance', fields: { budget: 2000 } })).status).toBe(200);
  expect((await world.call('POST', `${onProspect}/notes`, { content: 'Premier appel.' })).status).toBe(201);
  expect((await world.call('POST', `${onProspect}/notes`, { content: 'Rappel prévu.' })).status).toBe(201);
  expect((await world.call('POST', `${onProspect}/tags`, { tag: 'VIP' })).status).toBe(201);

  await plant('prospect.note_added', { prospect: { id: prospectId }, note: { content: 'Premier appel.' } });
  // About another prospect, though its note quotes this one's id: not this prospect's.
  await plant('prospect.note_added', { prospect: { id: otherProspectId }, note: { content: `voir ${prospectId}` } });
  // Past its 30 days, not yet removed by TTL: no longer kept.
  await plant('prospect.updated', { prospect: { id: prospectId } }, secondsFromNow(-60));

  const application = { email: `candidat-${randomUUID()}@exemple.test`, name: 'Camille Durand', position: 'Dev' };
  const recruit = (body: object) =>
    world.api.request('POST', '/webhooks/recruitment', {
      query: { endpoint_id: world.ws.webhook?.endpoint_id as string },
      headers: { Authorization: `Bearer ${world.ws.webhook?.token}` },
      body,
    });
  candidateId = (
    (await recruit({ ...application, answers: { Disponibilité: 'immédiate' } })).body as { talent_id: string }
  ).talent_id;
  expect((await recruit({ ...application, answers: { Prétentions: '38 k€' } })).status).toBe(200);
  await plant('candidate.created', { candidate: { id: candidateId } });
});

describe('prospect export', () => {
  let document: ProspectExport;

  beforeAll(async () => {
    const run = await exportOf('prospect', ws(), prospectId);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    document = JSON.parse(run.stdout) as ProspectExport;
  });

  test('the prospect as the settings API shows it, with its custom field and tags', async () => {
    const answered = await world.api.request('GET', `/prospects/${prospectId}`, {
      headers: { Authorization: `Bearer ${world.ws.api_keys.admin?.secret}` },
    });
    expect(document.prospect).toEqual(answered.body);
    expect(document.prospect).toMatchObject({ email, fields: { budget: 2000 }, tags: [{ name: 'VIP' }] });
  });

  test('every note and change-log entry of its partition, oldest first', async () => {
    const items = await partition<{ type: string; id: string; content?: string }>(keys.prospectPk(ws(), prospectId));
    const notes = items.filter((item) => item.type === 'note');
    const entries = items.filter((item) => item.type === 'changelog');
    expect(document.notes.map((note) => note.id)).toEqual(notes.map((note) => note.id));
    expect(document.notes.map((note) => note.content)).toEqual(['Premier appel.', 'Rappel prévu.']);
    expect(document.changes.map((entry) => entry.id)).toEqual(entries.map((entry) => entry.id));
    expect(document.changes.map((entry) => entry.field).sort()).toEqual(
      ['fields.budget', 'note', 'note', 'stage', 'tags'].sort(),
    );
  });

  test('the journaled calls that name it or carry its e-mail, the deliveries about it still kept, as the table holds them', async () => {
    const { calls, deliveries } = await copiesOfProspect();
    expect(document.webhook_calls.map(({ call }) => call.id)).toEqual(calls.map((call) => call.id));
    expect(document.webhook_calls.map(({ call }) => call.outcome)).toEqual(['created', 'existing', 'invalid_payload']);
    expect(document.webhook_calls.map(({ body }) => body)).toEqual([null, null, { raw: `{"email":"${email}",` }]);
    expect(document.deliveries.map((delivery) => delivery.id)).toEqual(deliveries.map((delivery) => delivery.id));
    expect(document.deliveries).toEqual([
      expect.objectContaining({
        type: 'prospect.note_added',
        status: 'delivered',
        payload: expect.objectContaining({
          data: { prospect: { id: prospectId }, note: { content: 'Premier appel.' } },
        }),
      }),
    ]);
  });

  test('audited once, by the command line, naming the prospect by id alone', async () => {
    const { entries } = await readAuditPage(world.deps, ws(), { limit: 20, now: new Date() });
    const exported = entries.filter((entry) => entry.action === 'prospect.exported' && entry.target_id === prospectId);
    expect(exported).toEqual([expect.objectContaining({ member_id: null })]);
    expect(exported[0]?.summary).toContain(prospectId);
    for (const personal of [email, 'Nina', 'Roux', '+33698765432'])
      expect(exported[0]?.summary).not.toContain(personal);
  });

  test('another workspace’s prospect, an unknown one, a malformed id: exit 2, nothing audited', async () => {
    const other = await seedTestWorkspace(aWorkspace());
    const before = (await readAuditPage(world.deps, other.workspace_id, { limit: 20, now: new Date() })).entries;
    for (const [workspaceId, id] of [
      [other.workspace_id, prospectId],
      [ws(), randomUUID()],
    ] as const) {
      const run = await exportOf('prospect', workspaceId, id);
      expect(run).toMatchObject({ code: 2, stdout: '' });
      expect(run.stderr).toContain(`Prospect inconnu dans cet espace : ${id}`);
    }
    expect((await exportOf('prospect', ws(), 'pas-un-uuid')).code).toBe(2);
    const after = (await readAuditPage(world.deps, other.workspace_id, { limit: 20, now: new Date() })).entries;
    expect(after).toEqual(before);
  });

  test('as a person runs it, in a process of its own: the same document, the JSON itself without --json', async () => {
    const run = await runAdmin('prospect', 'export', '--workspace', ws(), '--id', prospectId);
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout) as ProspectExport;
    expect({ ...printed, exported_at: document.exported_at }).toEqual(document);
  });
});

describe('candidate export', () => {
  test('the candidate, its notes oldest first, its calls and deliveries as the table holds them; audited', async () => {
    const run = await exportOf('candidate', ws(), candidateId);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const document = JSON.parse(run.stdout) as CandidateExport;
    const items = await partition<{ type: string; id: string }>(keys.candidatePk(ws(), candidateId));
    expect(Object.keys(document)).toEqual(['exported_at', 'candidate', 'notes', 'webhook_calls', 'deliveries']);
    expect(document.candidate).toMatchObject({ id: candidateId, first_name: 'Camille', position: 'Dev' });
    expect(Object.keys(document.candidate).sort()).toEqual(
      ['id', 'pipeline_id', 'first_name', 'last_name', 'email', 'phone', 'position', 'source', 'created_at'].sort(),
    );
    expect(document.notes.map((note) => note.id)).toEqual(
      items.filter((item) => item.type === 'note').map((item) => item.id),
    );
    expect(document.notes).toHaveLength(2);
    const { calls, deliveries } = await copiesInTable(world.deps, ws(), {
      kind: 'candidate',
      id: candidateId,
      contacts: [],
    });
    expect(document.webhook_calls.map(({ call }) => call.id)).toEqual(calls.map((call) => call.id));
    expect(document.webhook_calls).toHaveLength(2);
    expect(document.deliveries.map((delivery) => delivery.id)).toEqual(deliveries.map((delivery) => delivery.id));
    expect(document.deliveries).toHaveLength(1);
    const { entries } = await readAuditPage(world.deps, ws(), { limit: 20, now: new Date() });
    expect(entries.filter((entry) => entry.action === 'candidate.exported')).toEqual([
      expect.objectContaining({ target_id: candidateId, member_id: null }),
    ]);
  });

  test('an unknown candidate: exit 2', async () => {
    const run = await exportOf('candidate', ws(), randomUUID());
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toMatch(/^Erreur : Candidat inconnu dans cet espace : /);
  });
});
