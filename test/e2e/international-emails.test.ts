import { showProspect } from '../../lib/settings/prospects';
import { useSeededApi } from '../support/seeded-api';

/** RFC 6531 addresses on both webhooks, matched ignoring case and encoding (docs/api.md#e-mail-addresses). */
const world = useSeededApi();

const post = (route: 'ingest-lead' | 'recruitment', body: object) =>
  world.api.request('POST', `/webhooks/${route}`, {
    query: { endpoint_id: world.ws.webhook?.endpoint_id as string },
    headers: { Authorization: `Bearer ${world.ws.webhook?.token}` },
    body,
  });

const unique = () => Math.random().toString(36).slice(2, 8);

describe('lead webhook', () => {
  it('creates a prospect for hélène@… and finds her again in upper case or decomposed', async () => {
    const local = `hélène.${unique()}`;
    const created = await post('ingest-lead', { email: `${local}@exemple.fr`, first_name: 'Hélène' });
    expect(created.body).toMatchObject({ status: 'created', warnings: [] });
    const id = (created.body as { prospect_id: string }).prospect_id;
    for (const email of [`${local.toUpperCase()}@EXEMPLE.FR`, `${local}@exemple.fr`.normalize('NFD')]) {
      const again = await post('ingest-lead', { email });
      expect(again.body).toMatchObject({ status: 'existing', prospect_id: id });
    }
    expect(
      (await showProspect(world.deps, { workspaceId: world.ws.workspace_id, prospectId: id })).prospect.email,
    ).toBe(`${local}@exemple.fr`.normalize('NFD'));
  });

  it('accepts addresses in other scripts, and still ignores a non-address with a warning', async () => {
    const created = await post('ingest-lead', { email: `用户${unique()}@例子.广告` });
    expect(created.body).toMatchObject({ status: 'created', warnings: [] });
    const ignored = await post('ingest-lead', { email: 'hélène@exemple', phone: `+3361${Date.now() % 10_000_000}` });
    expect(ignored.body).toMatchObject({ status: 'created', warnings: [expect.stringContaining('email')] });
  });
});

describe('recruitment webhook', () => {
  it('takes an application from hélène@… and recognises her in upper case', async () => {
    const email = `hélène.${unique()}@exemple.fr`;
    const first = await post('recruitment', { email, name: 'Hélène Dupré' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ ok: true, action: 'created' });
    const again = await post('recruitment', { email: email.toUpperCase(), name: 'Hélène Dupré' });
    expect(again.body).toEqual({
      ok: true,
      talent_id: (first.body as { talent_id: string }).talent_id,
      action: 'existing',
    });
  });

  it('still refuses a non-address with 400 naming email', async () => {
    const response = await post('recruitment', { email: 'hélène@exemple', name: 'Hélène' });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: { code: 'bad_request', details: { field: 'email' } } });
  });
});
