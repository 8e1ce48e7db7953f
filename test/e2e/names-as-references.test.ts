import { randomUUID } from 'node:crypto';
import { showProspect } from '../../lib/settings/prospects';
import type { SeedOutput } from '../../tools/seed/seed';
import { productionDeps } from '../../lib/storage/client';
import { startTestApi, type TestApi } from '../support/local-api';
import { aWorkspace, seedTestWorkspace } from '../support/seed';

/**
 * Names as references (docs/api.md#names-as-references), over HTTP in every place a name is a reference. The
 * workspace stores some names decomposed (NFD), as a tool that writes them so would: `Closé` as
 * `Close` + U+0301 must stay protected, and a caller's NFC, padded or upper-case spelling must find them.
 */
const nfd = (name: string) => name.normalize('NFD');

const deps = productionDeps();
let api: TestApi;
let ws: SeedOutput;

beforeAll(async () => {
  ws = await seedTestWorkspace(
    aWorkspace({
      tags: [
        { key: 'vip', name: 'VIP' },
        { key: 'summer', name: nfd('Été') },
        { key: 'street', name: 'Straße' },
      ],
      pipelines: [
        {
          key: 'sales',
          name: nfd('Ventes privées'),
          is_default: true,
          active: true,
          stages: [
            { key: 'new', name: 'Nouveau', type: 'Appointment Setting' },
            { key: 'qualified', name: nfd('Qualifié'), type: 'Follow up' },
            { key: 'won', name: nfd('Closé'), type: 'Follow up' },
            { key: 'deposit', name: 'ACOMPTE', type: 'Follow up' },
          ],
        },
        { key: 'partners', name: 'Partenaires', active: true, stages: [{ key: 'first', name: 'Premier', type: 'x' }] },
        { key: 'archive', name: 'Archives', active: false, stages: [{ key: 'old', name: 'Ancien', type: 'x' }] },
      ],
      recruitment_pipelines: [
        { key: 'devs', name: nfd('Développeurs'), is_default: true, columns: [{ key: 'in', name: 'Reçue' }] },
        { key: 'ops', name: 'Opérations', columns: [{ key: 'in', name: 'Reçue' }] },
      ],
      prospects: [
        { key: 'sold', email: 'vendu@noms.test', pipeline: 'sales', stage: 'won' },
        { key: 'archived', email: 'archive@noms.test', pipeline: 'archive', stage: 'old' },
      ],
    }),
  );
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
  deps.db.destroy();
});

const secret = () => ws.api_keys.admin?.secret as string;
const call = (method: string, path: string, body?: unknown) =>
  api.request(method, path, { headers: { Authorization: `Bearer ${secret()}` }, body });
const lead = (body: object) =>
  api.request('POST', '/webhooks/ingest-lead', {
    query: { endpoint_id: ws.webhook?.endpoint_id as string },
    headers: { Authorization: `Bearer ${ws.webhook?.token}` },
    body: { email: `${randomUUID()}@noms.test`, ...body },
  });
const stageId = (pipeline: string, stage: string) => ws.pipelines[pipeline]?.stages[stage] as string;
const tagId = (key: string) => ws.tags[key] as string;
const show = (prospectId: string) => showProspect(deps, { workspaceId: ws.workspace_id, prospectId });
const newProspect = async () => ((await lead({})).body as { prospect_id: string }).prospect_id;

describe('PATCH stage by name', () => {
  it.each(['QUALIFIÉ', ' qualifié ', nfd('QUALIFIÉ'), 'Qualifie\u0301\u00a0'])(
    'finds the NFD-stored stage from %j',
    async (reference) => {
      const id = await newProspect();
      const response = await call('PATCH', `/prospects/${id}`, { stage: reference });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ stage_id: stageId('sales', 'qualified'), changed: ['stage'] });
    },
  );

  it.each(['Closé', 'CLOSE\u0301', ' closé', 'acompte', 'Acompte '])(
    'refuses a move to the protected stage named %j with 409',
    async (reference) => {
      const id = await newProspect();
      const response = await call('PATCH', `/prospects/${id}`, { stage: reference, setter_id: ws.members.alice });
      expect(response.status).toBe(409);
      expect((await show(id)).prospect).toMatchObject({ stage_id: stageId('sales', 'new'), setter_id: null });
    },
  );

  it('refuses to move a prospect out of a stage stored as decomposed Closé, by name or id', async () => {
    const sold = ws.prospects.sold as string;
    for (const stage of ['Nouveau', stageId('partners', 'first')]) {
      const response = await call('PATCH', `/prospects/${sold}`, { stage });
      expect(response.status).toBe(409);
    }
    expect((await show(sold)).prospect.stage_id).toBe(stageId('sales', 'won'));
  });

  it('refuses ß for ss: a different name, 422', async () => {
    const id = await newProspect();
    const response = await call('PATCH', `/prospects/${id}`, { stage: 'NOUVEAUß' });
    expect(response.status).toBe(422);
  });
});

describe('PATCH stage of an inactive pipeline', () => {
  it('answers 422 for a stage id of an inactive pipeline, applying nothing', async () => {
    const id = await newProspect();
    const response = await call('PATCH', `/prospects/${id}`, {
      stage: stageId('archive', 'old'),
      setter_id: ws.members.alice,
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ error: { code: 'unprocessable', message: expect.any(String) } });
    const { prospect, changelog } = await show(id);
    expect(prospect).toMatchObject({ pipeline_id: ws.pipelines.sales?.id, setter_id: null, version: 1 });
    expect(changelog).toEqual([]);
  });

  it('answers 422 for a stage name of the inactive pipeline the prospect sits in', async () => {
    const archived = ws.prospects.archived as string;
    for (const stage of ['Ancien', 'ancien ']) {
      const response = await call('PATCH', `/prospects/${archived}`, { stage });
      expect(response.status).toBe(422);
    }
    const moved = await call('PATCH', `/prospects/${archived}`, { stage: stageId('partners', 'first') });
    expect(moved.body).toMatchObject({ pipeline_id: ws.pipelines.partners?.id, changed: ['stage'] });
  });
});

describe('tags by name', () => {
  it('finds with DELETE /tags/VIP%20 the tag that POST {"tag":"VIP "} found', async () => {
    const id = await newProspect();
    const added = await call('POST', `/prospects/${id}/tags`, { tag: 'VIP ' });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ outcome: 'added', tag: { id: tagId('vip'), name: 'VIP' } });
    const removed = await call('DELETE', `/prospects/${id}/tags/VIP%20`);
    expect(removed.body).toEqual({ outcome: 'removed', tag: { id: tagId('vip'), name: 'VIP' } });
    const again = await call('DELETE', `/prospects/${id}/tags/%20vip`);
    expect(again.body).toMatchObject({ outcome: 'absent' });
  });

  it('finds an NFD-stored tag from an NFC name in a body and in the path, either case', async () => {
    const id = await newProspect();
    expect((await call('POST', `/prospects/${id}/tags`, { tag: 'ÉTÉ' })).status).toBe(201);
    expect((await call('POST', `/prospects/${id}/tags`, { tag: nfd('été') })).body).toMatchObject({
      outcome: 'already_present',
    });
    const removed = await call('DELETE', `/prospects/${id}/tags/${encodeURIComponent('été')}`);
    expect(removed.body).toMatchObject({ outcome: 'removed', tag: { id: tagId('summer') } });
  });

  it('keeps ß apart from ss: STRASSE is no tag, STRAßE is', async () => {
    const id = await newProspect();
    expect((await call('POST', `/prospects/${id}/tags`, { tag: 'STRASSE' })).status).toBe(422);
    expect((await call('DELETE', `/prospects/${id}/tags/STRASSE`)).status).toBe(422);
    expect((await call('POST', `/prospects/${id}/tags`, { tag: 'STRAßE' })).status).toBe(201);
  });
});

describe('lead webhook pipeline and stage', () => {
  it('places a lead on NFD-stored names given in NFC, padded and upper-case', async () => {
    const response = await lead({ pipeline: ' VENTES PRIVÉES ', stage: 'qualifie\u0301' });
    expect(response.body).toMatchObject({
      status: 'created',
      placement: 'demande',
      pipeline_id: ws.pipelines.sales?.id,
      stage_id: stageId('sales', 'qualified'),
      warnings: [],
    });
  });

  it('never places a lead on Closé, however it is spelt', async () => {
    for (const stage of ['closé', 'CLOSE\u0301 ', 'acompte']) {
      const response = await lead({ pipeline: 'ventes privées', stage });
      expect(response.body).toMatchObject({ placement: 'defaut', stage_id: stageId('sales', 'new') });
      expect((response.body as { warnings: string[] }).warnings).toHaveLength(1);
    }
  });
});

describe('recruitment webhook pipeline', () => {
  it('finds the NFD-stored pipeline from an NFC, upper-case, padded name', async () => {
    const response = await api.request('POST', '/webhooks/recruitment', {
      query: { endpoint_id: ws.webhook?.endpoint_id as string },
      headers: { Authorization: `Bearer ${ws.webhook?.token}` },
      body: { email: `${randomUUID()}@noms.test`, name: 'Ada Lovelace', pipeline: ' DÉVELOPPEURS ' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ ok: true, action: 'created' });
    const other = await api.request('POST', '/webhooks/recruitment', {
      query: { endpoint_id: ws.webhook?.endpoint_id as string },
      headers: { Authorization: `Bearer ${ws.webhook?.token}` },
      body: { email: `${randomUUID()}@noms.test`, name: 'Ada', pipeline: 'OPE\u0301RATIONS' },
    });
    expect(other.status).toBe(200);
  });
});
