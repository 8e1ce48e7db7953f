import { randomUUID } from 'node:crypto';
import { seedWorkspace } from '../../tools/seed/seed';
import { productionDeps } from '../../lib/storage/client';
import { messages } from '../../lib/messages';
import { startLocalApi, type TestApi } from '../support/local-api';
import { bearer, workspaceWithPeople, type PeopleWorkspace } from '../support/people';
import { aWorkspace } from '../support/seed';

/*
 * GET /workspaces/{w}/candidates?email= (docs/api.md#erasure-export-and-retention) over HTTP through the local server:
 * a person's candidates, one per recruitment pipeline they applied to, found as the recruitment webhook matches them.
 */

const deps = productionDeps();
let api: TestApi;
let people: PeopleWorkspace;

const recruitmentPipeline = (key: string, name: string) => ({
  key,
  name,
  is_default: key === 'devs',
  active: true,
  columns: [{ key: 'applied', name: 'Candidature reçue' }],
});

beforeAll(async () => {
  api = await startLocalApi();
  people = await workspaceWithPeople(
    api,
    aWorkspace({
      recruitment_pipelines: [recruitmentPipeline('devs', 'Développeurs'), recruitmentPipeline('sales', 'Commerciaux')],
    }),
  );
});
afterAll(async () => {
  await api.close();
  deps.db.destroy();
});

const ws = () => people.seed.workspace_id;
const pipelineId = (key: string) => people.seed.recruitment_pipelines[key]?.id as string;
const apply = (body: Record<string, unknown>, seed = people.seed) =>
  api.request('POST', '/webhooks/recruitment', {
    query: { endpoint_id: seed.webhook?.endpoint_id as string },
    headers: { 'x-webhook-token': seed.webhook?.token as string },
    body,
  });
const lookUp = (query: Record<string, string | string[]>, person = people.member, workspaceId = ws()) =>
  api.request('GET', `/workspaces/${workspaceId}/candidates`, { query, headers: bearer(person) });
const talentOf = (answer: { body: unknown }) => (answer.body as { talent_id: string }).talent_id;

describe('GET /workspaces/{w}/candidates?email=', () => {
  it("finds a member an address's candidates in each recruitment pipeline, the e-mail ignoring case", async () => {
    const email = `lea.martin-${randomUUID()}@exemple.test`;
    const devs = await apply({
      email,
      name: 'Léa Martin',
      phone: '+33612345678',
      position: 'Développeuse',
      pipeline_id: pipelineId('devs'),
    });
    const sales = await apply({ email: email.toUpperCase(), name: 'Léa Martin', pipeline_id: pipelineId('sales') });
    expect([devs.status, sales.status]).toEqual([200, 200]);

    const found = await lookUp({ email: `  ${email.toUpperCase()}  ` });
    expect(found.status).toBe(200);
    expect(found.body).toEqual({
      candidates: [
        {
          id: talentOf(devs),
          pipeline_id: pipelineId('devs'),
          first_name: 'Léa',
          last_name: 'Martin',
          email,
          phone: '+33612345678',
          position: 'Développeuse',
          source: expect.any(String),
          created_at: expect.any(String),
        },
        expect.objectContaining({ id: talentOf(sales), pipeline_id: pipelineId('sales'), email: email.toUpperCase() }),
      ],
    });
  });

  it('answers an empty list for an address nobody applied with', async () => {
    const none = await lookUp({ email: `personne-${randomUUID()}@exemple.test` });
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ candidates: [] });
  });

  it.each([
    ['no e-mail', {}, 'email', messages.candidateLookup.missingEmail],
    ['a blank e-mail', { email: '  ' }, 'email', messages.candidateLookup.missingEmail],
    ['not an address', { email: 'lea.martin' }, 'email', messages.candidateLookup.invalidEmail],
    ['the e-mail twice', { email: ['a@exemple.test', 'b@exemple.test'] }, 'email', undefined],
    ['another parameter', { email: 'a@exemple.test', pipeline: 'x' }, 'pipeline', undefined],
  ])('answers 400 naming the parameter for %s', async (_, query, name, message) => {
    const refused = await lookUp(query);
    expect(refused.status).toBe(400);
    const { error } = refused.body as { error: { code: string; message: string; details: { field: string } } };
    expect([error.code, error.details.field]).toEqual(['bad_request', name]);
    if (message !== undefined) expect(error.message).toBe(message);
  });

  it('answers 404 for another workspace, whose candidates are never shown', async () => {
    const other = await seedWorkspace(deps, aWorkspace());
    const email = `autre-${randomUUID()}@exemple.test`;
    expect((await apply({ email, name: 'Autre Personne' }, other)).status).toBe(200);
    const refused = await lookUp({ email }, people.admin, other.workspace_id);
    expect(refused.status).toBe(404);
    expect((await lookUp({ email })).body).toEqual({ candidates: [] });
  });

  it('no longer finds an erased candidate', async () => {
    const email = `efface-${randomUUID()}@exemple.test`;
    const applied = await apply({ email, name: 'Camille Candidat', pipeline_id: pipelineId('sales') });
    expect((await lookUp({ email })).body).toMatchObject({ candidates: [{ id: talentOf(applied) }] });
    const erased = await api.request('POST', `/workspaces/${ws()}/candidates/${talentOf(applied)}/erase`, {
      headers: bearer(people.admin),
    });
    expect(erased.status).toBe(200);
    expect((await lookUp({ email })).body).toEqual({ candidates: [] });
  });

  it('looks in more recruitment pipelines than one BatchGetItem names (100)', async () => {
    const many = Array.from({ length: 130 }, (_, index) =>
      recruitmentPipeline(index === 0 ? 'devs' : `p${index}`, `Recrutement ${index}`),
    );
    const crowded = await workspaceWithPeople(api, aWorkspace({ recruitment_pipelines: many }));
    const email = `loin-${randomUUID()}@exemple.test`;
    const last = crowded.seed.recruitment_pipelines.p128?.id as string;
    const applied = await apply({ email, name: 'Loin Derrière', pipeline_id: last }, crowded.seed);
    expect(applied.status).toBe(200);
    const found = await lookUp({ email }, crowded.member, crowded.seed.workspace_id);
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ candidates: [{ id: talentOf(applied), pipeline_id: last }] });
  });
});
