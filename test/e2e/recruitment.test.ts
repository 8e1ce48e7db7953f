import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { seedWorkspace } from '../../tools/seed/seed';
import { regenerateWebhook, setWebhookActive } from '../../lib/settings/webhooks';
import { productionDeps } from '../../lib/storage/client';
import { keys } from '../../lib/storage/table-items';
import { startTestApi, type TestApi } from '../support/local-api';

const deps = productionDeps();
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
  deps.db.destroy();
});

type Seeded = Awaited<ReturnType<typeof seedWorkspace>> & { webhook: { endpoint_id: string; token: string } };

const recruiting = {
  workspace: { name: 'Recrutement' },
  recruitment_pipelines: [
    {
      key: 'devs',
      name: 'Développeurs',
      is_default: true,
      active: true,
      columns: [
        { key: 'applied', name: 'Candidature reçue' },
        { key: 'call', name: 'Entretien' },
      ],
    },
    { key: 'sales1', name: 'Commerciaux', active: true, columns: [{ key: 'in', name: 'Reçue' }] },
    { key: 'sales2', name: 'commerciaux', active: true, columns: [{ key: 'in', name: 'Reçue' }] },
    { key: 'old', name: 'Archives', active: false, columns: [{ key: 'in', name: 'Reçue' }] },
  ],
  webhook: { active: true },
};

async function seeded(description: object = recruiting): Promise<Seeded> {
  return (await seedWorkspace(deps, description)) as Seeded;
}

const apply = (ws: Seeded, body: unknown, headers: Record<string, string> = {}) =>
  api.request('POST', '/webhooks/recruitment', {
    query: { endpoint_id: ws.webhook.endpoint_id },
    headers: { 'x-webhook-token': ws.webhook.token, ...headers },
    body,
  });

async function candidatePartition(workspaceId: string, candidateId: string) {
  const { Items = [] } = await deps.db.send(
    new QueryCommand({
      TableName: deps.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.candidatePk(workspaceId, candidateId) },
    }),
  );
  return {
    candidate: Items.find((item) => item.type === 'candidate'),
    notes: Items.filter((item) => item.type === 'note').map((item) => item.content as string),
    againAt: Items.find((item) => item.type === 'note' && item.application === 'again')?.created_at as string,
  };
}

const errorBody = (code: string) => ({ error: { code, message: expect.any(String) } });

describe('POST /webhooks/recruitment: credentials', () => {
  it('answers 400 bad_request for a missing or malformed endpoint_id', async () => {
    for (const query of [{}, { endpoint_id: 'nope' }] as Record<string, string>[]) {
      const response = await api.request('POST', '/webhooks/recruitment', { query, body: {} });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(errorBody('bad_request'));
    }
  });

  it('answers 404 not_found for an unknown endpoint, 401 for a missing or wrong token', async () => {
    const ws = await seeded();
    const unknown = await api.request('POST', '/webhooks/recruitment', {
      query: { endpoint_id: '3f0c2a55-6b8e-4d52-9a3e-2c1b0a9d8e7f' },
      body: {},
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(errorBody('not_found'));
    for (const headers of [{}, { 'x-webhook-token': 'wrong' }] as Record<string, string>[]) {
      const response = await api.request('POST', '/webhooks/recruitment', {
        query: { endpoint_id: ws.webhook.endpoint_id },
        headers,
        body: { email: 'a@b.fr', name: 'A B' },
      });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(errorBody('unauthorized'));
    }
  });

  it('shares the token places, regeneration and disabling of the lead webhook', async () => {
    const ws = await seeded();
    const body = { email: 'token@test.fr', name: 'Jo' };
    const send = (token: string, place: 'bearer' | 'header' | 'query') =>
      api.request('POST', '/webhooks/recruitment', {
        query: { endpoint_id: ws.webhook.endpoint_id, ...(place === 'query' ? { token } : {}) },
        headers:
          place === 'bearer'
            ? { Authorization: `Bearer ${token}` }
            : place === 'header'
              ? { 'x-webhook-token': token }
              : {},
        body,
      });
    for (const place of ['bearer', 'header', 'query'] as const)
      expect((await send(ws.webhook.token, place)).status).toBe(200);
    const fresh = await regenerateWebhook(deps, ws.workspace_id, 'http://x');
    expect((await send(ws.webhook.token, 'bearer')).status).toBe(401);
    expect((await send(fresh.token, 'query')).status).toBe(200);
    await setWebhookActive(deps, ws.workspace_id, false, 'http://x');
    expect((await send(fresh.token, 'header')).status).toBe(401);
  });
});

describe('POST /webhooks/recruitment: validation', () => {
  let ws: Seeded;
  beforeAll(async () => {
    ws = await seeded();
  });

  it.each([
    ['email', { name: 'A B' }],
    ['email', { email: 'pas-une-adresse', name: 'A B' }],
    ['email', { email: 42, name: 'A B' }],
    ['name', { email: 'a@b.fr' }],
    ['phone', { email: 'a@b.fr', name: 'A', phone: '1'.repeat(41) }],
    ['pipeline_id', { email: 'a@b.fr', name: 'A', pipeline_id: 'not-a-uuid' }],
    ['answers', { email: 'a@b.fr', name: 'A', answers: { Q: { nested: true } } }],
    ['answers', { email: 'a@b.fr', name: 'A', answers: ['x'] }],
    [
      'answers',
      {
        email: 'a@b.fr',
        name: 'A',
        answers: Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`Q${i}`, 'R'])),
      },
    ],
    ['answers', { email: 'a@b.fr', name: 'A', answers: { Q: 'x'.repeat(10_000) } }],
  ])('answers 400 bad_request naming %s', async (field, body) => {
    const response = await apply(ws, body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: { code: 'bad_request', message: expect.any(String), details: expect.objectContaining({ field }) },
    });
  });

  it('answers 400 for an unreadable body', async () => {
    const response = await apply(ws, '{"email":');
    expect(response.status).toBe(400);
    expect(response.body).toEqual(errorBody('bad_request'));
  });

  it.each([
    ['data.fields[]', { data: { fields: [{ label: 'Email', value: 'a@b.fr' }] } }],
    ['form_response.answers[]', { form_response: { answers: [{ type: 'email', email: 'a@b.fr' }] } }],
  ])('refuses a native nested payload (%s) and says how to flatten it', async (_label, body) => {
    const response = await apply(ws, body);
    expect(response.status).toBe(400);
    const message = (response.body as { error: { message: string } }).error.message;
    expect(message).toMatch(/aplatissez/);
    expect(message).toMatch(/Zapier ou Make/);
  });
});

describe('POST /webhooks/recruitment: pipeline choice', () => {
  let ws: Seeded;
  beforeAll(async () => {
    ws = await seeded();
  });

  it('answers 404 for a pipeline not found, 409 for an ambiguous name', async () => {
    const byId = await apply(ws, { email: 'a@b.fr', name: 'A', pipeline_id: '3f0c2a55-6b8e-4d52-9a3e-2c1b0a9d8e7f' });
    expect(byId.status).toBe(404);
    expect(byId.body).toEqual(errorBody('not_found'));
    expect((await apply(ws, { email: 'a@b.fr', name: 'A', pipeline: 'Archives' })).status).toBe(404);
    const ambiguous = await apply(ws, { email: 'a@b.fr', name: 'A', pipeline: 'COMMERCIAUX' });
    expect(ambiguous.status).toBe(409);
    expect(ambiguous.body).toEqual(errorBody('conflict'));
  });

  it('lets pipeline_id win over pipeline, and matches a name ignoring case', async () => {
    const sales1 = ws.recruitment_pipelines.sales1?.id as string;
    const byId = await apply(ws, { email: 'id@b.fr', name: 'A', pipeline_id: sales1, pipeline: 'commerciaux' });
    expect(byId.status).toBe(200);
    const { candidate } = await candidatePartition(ws.workspace_id, (byId.body as { talent_id: string }).talent_id);
    expect(candidate?.pipeline_id).toBe(sales1);
    const byName = await apply(ws, { email: 'name@b.fr', name: 'A', pipeline: 'développeurs' });
    expect(byName.status).toBe(200);
  });

  it('answers 422 when the workspace has no active recruitment pipeline, and never creates one', async () => {
    const empty = await seeded({
      workspace: { name: 'Sans recrutement' },
      recruitment_pipelines: [{ key: 'old', name: 'Archives', active: false, columns: [{ key: 'c', name: 'C' }] }],
      webhook: { active: true },
    });
    const response = await apply(empty, { email: 'a@b.fr', name: 'A' });
    expect(response.status).toBe(422);
    expect(response.body).toEqual(errorBody('unprocessable'));
  });
});

describe('POST /webhooks/recruitment: candidates and answers', () => {
  it('creates a candidate in the first column with its answers as one note', async () => {
    const ws = await seeded();
    const response = await apply(ws, {
      email: 'Camille.Dupont@test.fr',
      name: 'Camille Dupont de la Tour',
      phone: '+33 6 00 00 00 00',
      position: 'Développeuse backend',
      answers: { 'Années d’expérience': 5, 'Disponible ?': true, Motivation: 'Le produit' },
      extra: 'ignoré',
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ok: true, talent_id: expect.any(String), action: 'created' });
    const { candidate, notes } = await candidatePartition(
      ws.workspace_id,
      (response.body as { talent_id: string }).talent_id,
    );
    expect(candidate).toMatchObject({
      first_name: 'Camille',
      last_name: 'Dupont de la Tour',
      email: 'Camille.Dupont@test.fr',
      pipeline_id: ws.recruitment_pipelines.devs?.id,
      column_id: ws.recruitment_pipelines.devs?.columns.applied,
      position: 'Développeuse backend',
      source: 'webhook',
    });
    expect(notes).toEqual(['Années d’expérience : 5\nDisponible ? : true\nMotivation : Le produit']);
  });

  it('reads a form-encoded application with answers[Question]=Réponse', async () => {
    const ws = await seeded();
    const body = new URLSearchParams([
      ['email', 'form@test.fr'],
      ['first_name', 'Inès'],
      ['source', 'Typeform'],
      ['answers[Ville]', 'Lyon'],
      ['answers[Salaire souhaité]', '45 k€'],
    ]).toString();
    const response = await apply(ws, body, { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(response.status).toBe(200);
    const { candidate, notes } = await candidatePartition(
      ws.workspace_id,
      (response.body as { talent_id: string }).talent_id,
    );
    expect(candidate).toMatchObject({ first_name: 'Inès', last_name: '', source: 'Typeform' });
    expect(notes).toEqual(['Ville : Lyon\nSalaire souhaité : 45 k€']);
  });

  it('adds a second submission of the same e-mail as a note, fields unchanged', async () => {
    const ws = await seeded();
    const first = await apply(ws, { email: 'again@test.fr', name: 'Paul Martin', answers: { Q: 'un' } });
    const second = await apply(ws, {
      email: 'AGAIN@test.fr',
      name: 'Pierre Autre',
      position: 'CTO',
      answers: { Q: 'deux' },
    });
    const id = (first.body as { talent_id: string }).talent_id;
    expect(second.body).toEqual({ ok: true, talent_id: id, action: 'existing' });
    const { candidate, notes, againAt } = await candidatePartition(ws.workspace_id, id);
    expect(candidate).toMatchObject({ first_name: 'Paul', last_name: 'Martin', position: null });
    expect(notes.sort()).toEqual(['Q : deux', 'Q : un']);
    // Its last application is its last write: the retention's index key moves with it (docs/data-model.md, "Candidate").
    expect(candidate).toMatchObject({
      version: 2,
      updated_at: againAt,
      gsi5pk: keys.candidatesOfPipeline(ws.workspace_id, ws.recruitment_pipelines.devs?.id as string),
      gsi5sk: `${againAt}#${id}`,
    });
  });

  it('treats the same e-mail in another recruitment pipeline as a new candidate', async () => {
    const ws = await seeded();
    const first = await apply(ws, { email: 'both@test.fr', name: 'A' });
    const other = await apply(ws, {
      email: 'both@test.fr',
      name: 'A',
      pipeline_id: ws.recruitment_pipelines.sales1?.id,
    });
    expect(other.body).toMatchObject({ action: 'created' });
    expect((other.body as { talent_id: string }).talent_id).not.toBe((first.body as { talent_id: string }).talent_id);
  });

  it('creates exactly one candidate for 20 identical applications at once', async () => {
    const ws = await seeded();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => apply(ws, { email: 'rush@test.fr', name: 'Rush', answers: { Q: 'R' } })),
    );
    const bodies = responses.map((response) => response.body as { action: string; talent_id: string });
    expect(bodies.filter((body) => body.action === 'created')).toHaveLength(1);
    expect(new Set(bodies.map((body) => body.talent_id)).size).toBe(1);
    const { notes } = await candidatePartition(ws.workspace_id, bodies[0]?.talent_id as string);
    expect(notes).toHaveLength(20);
  });
});
