import { randomUUID } from 'node:crypto';
import type { CandidateExport, ProspectExport } from '../../lib/domain/export/person-exports';
import { exportLinkSeconds, maxAnsweredExportBytes } from '../../lib/domain/export/export-store';
import { messages } from '../../lib/messages';
import { readAuditPage } from '../../lib/storage/audit-log';
import { productionDeps } from '../../lib/storage/client';
import { keys } from '../../lib/storage/table-items';
import { copiesInTable, plantDelivery } from '../support/deliveries';
import { readPartition } from '../support/table-reads';
import { startTestApi, type TestApi } from '../support/local-api';
import { bearer, workspaceWithPeople, type PeopleWorkspace } from '../support/people';

/*
 * The export routes (docs/api.md#erasure-export-and-retention) over HTTP through the local server: every kind of data
 * kept about one prospect and one candidate is planted the way the service makes it (through the webhooks and the
 * Prospect API; deliveries as the stream handler writes them), the export answered to an admin and compared with
 * what the table itself holds. Past 5 MB the answer is a link, which the local server serves by the run's clock: the
 * same document, then refused once its 15 minutes are over.
 */

const deps = productionDeps();
/** The local server's clock: moved on to expire a link. */
let ahead = 0;
/** Set, the clock stands still there (plus `ahead`): a link's 15 minutes are measured from its export, however slow the machine. */
let stoppedAt: number | undefined;
let api: TestApi;
let people: PeopleWorkspace;

beforeAll(async () => {
  api = await startTestApi({ clock: () => new Date((stoppedAt ?? Date.now()) + ahead) });
  people = await workspaceWithPeople(api);
});
afterAll(async () => {
  await api.close();
  deps.db.destroy();
});

const ws = () => people.seed.workspace_id;
const webhook = (route: 'ingest-lead' | 'recruitment', body: unknown) =>
  api.request('POST', `/webhooks/${route}`, {
    query: { endpoint_id: people.seed.webhook?.endpoint_id as string },
    headers: { 'x-webhook-token': people.seed.webhook?.token as string, 'content-type': 'application/json' },
    body,
  });
const withKey = (method: string, path: string, body: unknown) =>
  api.request(method, path, { headers: { Authorization: `Bearer ${people.seed.api_keys.admin?.secret}` }, body });
const exportAs = (person: 'admin' | 'member', path: string, workspaceId: string = ws()) =>
  api.request('GET', `/workspaces/${workspaceId}${path}/export`, { headers: bearer(people[person]) });

describe('GET /workspaces/{w}/prospects/{p}/export', () => {
  const email = `Export.Moi-${randomUUID()}@acme.test`;
  let prospectId: string;
  let document: ProspectExport;

  beforeAll(async () => {
    const lead = await webhook('ingest-lead', {
      email,
      phone: '06 12 34 56 78',
      first_name: 'Inès',
      last_name: 'Roux',
    });
    prospectId = (lead.body as { prospect_id: string }).prospect_id;
    expect((await webhook('ingest-lead', { email })).status).toBe(200);
    // Failed calls kept with their bodies, naming no record: one carries the e-mail, one the phone in E.164.
    expect((await webhook('ingest-lead', `{"email":"${email.toLowerCase()}",`)).status).toBe(400);
    expect((await webhook('ingest-lead', '["Inès", "+33612345678"]')).status).toBeGreaterThanOrEqual(400);
    expect((await webhook('ingest-lead', '{"note":"sans personne",')).status).toBe(400);
    const onProspect = `/prospects/${prospectId}`;
    expect((await withKey('PATCH', onProspect, { stage: 'Relance' })).status).toBe(200);
    expect((await withKey('POST', `${onProspect}/notes`, { content: 'Premier appel.' })).status).toBe(201);
    expect((await withKey('POST', `${onProspect}/tags`, { tag: 'VIP' })).status).toBe(201);
    await plantDelivery(deps, ws(), { type: 'prospect.note_added', data: { prospect: { id: prospectId } } });
    await plantDelivery(deps, ws(), {
      type: 'prospect.updated',
      data: { prospect: { id: randomUUID() }, note: { content: `voir ${prospectId}` } },
    });
    const answered = await exportAs('admin', onProspect);
    expect(answered.status).toBe(200);
    document = answered.body as ProspectExport;
  });

  test('the prospect as its route shows it, every note and change-log entry of its partition, oldest first', async () => {
    const shown = await api.request('GET', `/workspaces/${ws()}/prospects/${prospectId}`, {
      headers: bearer(people.admin),
    });
    expect(document.prospect).toEqual(shown.body);
    const items = await readPartition<{ type: string; id: string }>(deps, keys.prospectPk(ws(), prospectId));
    const ids = (type: string) => items.filter((item) => item.type === type).map((item) => item.id);
    expect(document.notes.map((note) => note.id)).toEqual(ids('note'));
    expect(document.changes.map((entry) => entry.id)).toEqual(ids('changelog'));
    expect(document.notes.map((note) => note.content)).toEqual(['Premier appel.']);
  });

  test('the calls that name it and the failed ones carrying its e-mail or phone, the deliveries about it', async () => {
    const { calls, deliveries } = await copiesInTable(deps, ws(), {
      kind: 'prospect',
      id: prospectId,
      contacts: [email, '+33612345678'],
    });
    expect(document.webhook_calls.map(({ call }) => call.id)).toEqual(calls.map((call) => call.id));
    expect(document.webhook_calls.map(({ call }) => call.status >= 400)).toEqual([false, false, true, true]);
    expect(document.deliveries.map((delivery) => delivery.id)).toEqual(deliveries.map((delivery) => delivery.id));
    expect(document.deliveries).toHaveLength(1);
  });

  test('audited prospect.exported by the admin, naming the prospect by id alone', async () => {
    const { entries } = await readAuditPage(deps, ws(), { limit: 50, now: new Date() });
    const exported = entries.filter((entry) => entry.action === 'prospect.exported');
    expect(exported).toEqual([expect.objectContaining({ target_id: prospectId, member_id: people.admin.memberId })]);
    expect(JSON.stringify(exported)).not.toMatch(/Inès|Roux|acme\.test|612345678/i);
  });

  test('a member is refused (403); another workspace, an unknown id, an erased prospect are 404', async () => {
    expect((await exportAs('member', `/prospects/${prospectId}`)).status).toBe(403);
    const other = await workspaceWithPeople(api);
    const elsewhere = await api.request(
      'GET',
      `/workspaces/${other.seed.workspace_id}/prospects/${prospectId}/export`,
      {
        headers: bearer(other.admin),
      },
    );
    expect(elsewhere.status).toBe(404);
    expect((await exportAs('admin', `/prospects/${randomUUID()}`)).status).toBe(404);
    expect(
      (
        await api.request('POST', `/workspaces/${ws()}/prospects/${prospectId}/erase`, {
          headers: bearer(people.admin),
        })
      ).status,
    ).toBe(200);
    const erased = await exportAs('admin', `/prospects/${prospectId}`);
    expect(erased.status).toBe(404);
    expect(erased.body).toEqual({ error: { code: 'not_found', message: messages.prospect.notFound } });
  });
});

describe('GET /workspaces/{w}/candidates/{t}/export', () => {
  test('the candidate, its notes, its calls and deliveries as the table holds them; audited; 403, 404', async () => {
    const application = { email: `candidat-${randomUUID()}@acme.test`, name: 'Camille Durand', position: 'Dev' };
    const created = await webhook('recruitment', { ...application, answers: { Disponibilité: 'immédiate' } });
    const candidateId = (created.body as { talent_id: string }).talent_id;
    expect((await webhook('recruitment', `{"email":"${application.email}",`)).status).toBe(400);
    await plantDelivery(deps, ws(), { type: 'candidate.created', data: { candidate: { id: candidateId } } });

    const answered = await exportAs('admin', `/candidates/${candidateId}`);
    expect(answered.status).toBe(200);
    const document = answered.body as CandidateExport;
    expect(document.candidate).toMatchObject({ id: candidateId, email: application.email, position: 'Dev' });
    const items = await readPartition<{ type: string; id: string }>(deps, keys.candidatePk(ws(), candidateId));
    expect(document.notes.map((note) => note.id)).toEqual(
      items.filter((item) => item.type === 'note').map((item) => item.id),
    );
    const { calls, deliveries } = await copiesInTable(deps, ws(), {
      kind: 'candidate',
      id: candidateId,
      contacts: [application.email],
    });
    expect(document.webhook_calls.map(({ call }) => call.id)).toEqual(calls.map((call) => call.id));
    expect(document.webhook_calls).toHaveLength(2);
    expect(document.deliveries.map((delivery) => delivery.id)).toEqual(deliveries.map((delivery) => delivery.id));
    const { entries } = await readAuditPage(deps, ws(), { limit: 50, now: new Date() });
    expect(entries.filter((entry) => entry.action === 'candidate.exported')).toEqual([
      expect.objectContaining({ target_id: candidateId, member_id: people.admin.memberId }),
    ]);
    expect((await exportAs('member', `/candidates/${candidateId}`)).status).toBe(403);
    expect((await exportAs('admin', `/candidates/${randomUUID()}`)).status).toBe(404);
  });
});

describe('an export past 5 MB', () => {
  test('answers a link that downloads the same document for 15 minutes by the clock, then 403; unknown, 404', async () => {
    const lead = await webhook('ingest-lead', { email: `lourd-${randomUUID()}@acme.test` });
    const prospectId = (lead.body as { prospect_id: string }).prospect_id;
    // Deliveries of 350 KB each (an item holds 400 KB at most), as many as pass the answer's 5 MB.
    const note = 'x'.repeat(350_000);
    const count = Math.ceil(maxAnsweredExportBytes / note.length) + 1;
    for (let planted = 0; planted < count; planted += 1) {
      await plantDelivery(deps, ws(), { type: 'prospect.note_added', data: { prospect: { id: prospectId }, note } });
    }
    stoppedAt = Date.now();
    const answered = await exportAs('admin', `/prospects/${prospectId}`);
    expect(answered.status).toBe(200);
    expect(answered.body).toEqual({ exported_at: expect.any(String), download_url: expect.any(String) });
    const { exported_at: exportedAt, download_url: link } = answered.body as {
      exported_at: string;
      download_url: string;
    };

    const downloaded = await fetch(link);
    expect(downloaded.status).toBe(200);
    const kept = (await downloaded.json()) as ProspectExport;
    expect(kept.exported_at).toBe(exportedAt);
    expect(kept.prospect.id).toBe(prospectId);
    expect(kept.deliveries).toHaveLength(count);

    ahead = (exportLinkSeconds - 1) * 1000;
    expect((await fetch(link)).status).toBe(200);
    ahead = exportLinkSeconds * 1000;
    expect((await fetch(link)).status).toBe(403);
    [ahead, stoppedAt] = [0, undefined];
    expect((await fetch(`${link}x`)).status).toBe(404);
  });
});
