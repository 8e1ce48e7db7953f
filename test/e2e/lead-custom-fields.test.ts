import { productionDeps } from '../../lib/storage/client';
import { editWorkspaceConfig, partsOf } from '../../lib/storage/config-edits';
import { getProspect } from '../../lib/storage/prospects';
import { withDeletedField, withNewField, type NewFieldInput } from '../../lib/domain/fields/field-definitions';
import type { Prospect } from '../../lib/domain/model';
import { messages } from '../../lib/messages';
import { seedWorkspace, type SeedOutput } from '../../tools/seed/seed';
import { startTestApi, type TestApi } from '../support/local-api';
import { countRoundTrips, type RoundTripCounter } from '../support/round-trips';
import { aSalesPipeline } from '../support/seed';

/** The lead webhook fills the workspace's custom fields (docs/api.md#lead-custom-fields), over HTTP. */
const deps = productionDeps();
let api: TestApi;
let counter: RoundTripCounter;

beforeAll(async () => {
  counter = countRoundTrips(deps.db);
  api = await startTestApi({ db: deps.db });
});
afterAll(async () => {
  await api.close();
  deps.db.destroy();
});

type Workspace = SeedOutput & { webhook: { endpoint_id: string; token: string } };

/** The Typeform questions a Zap sends under their titles: the fields' aliases. */
const budgetTitle = 'Quel est votre budget ?';
const situationTitle = 'Votre situation à ce jour ?';
const fields: NewFieldInput[] = [
  { key: 'budget', label: 'Budget', type: 'number', aliases: [budgetTitle] },
  {
    key: 'situation',
    label: 'Situation',
    type: 'choice',
    options: ['Locataire', 'Propriétaire'],
    aliases: [situationTitle],
    update: 'if_empty',
  },
  { key: 'equipements', label: 'Équipements', type: 'multi_choice', options: ['Piscine', 'Garage', 'Jardin'] },
  { key: 'rappel', label: 'Date de rappel', type: 'date' },
  { key: 'newsletter', label: 'Newsletter', type: 'boolean' },
];

async function defineFields(workspaceId: string, inputs: readonly NewFieldInput[]): Promise<void> {
  for (const input of inputs) {
    await editWorkspaceConfig(deps, workspaceId, (config) => ({
      ...partsOf(config),
      fields: withNewField(config, input),
    }));
  }
}

async function withFields(inputs: readonly NewFieldInput[] = fields): Promise<Workspace> {
  const ws = (await seedWorkspace(deps, {
    workspace: { name: 'Champs' },
    pipelines: [aSalesPipeline()],
    api_keys: [{ key: 'k', name: 'K', scopes: ['*'] }],
    webhook: { active: true },
  })) as Workspace;
  await defineFields(ws.workspace_id, inputs);
  return ws;
}

type LeadAnswer = { status: string; prospect_id: string; warnings: string[] };

const lead = async (ws: Workspace, body: unknown, form = false) => {
  const response = await api.request('POST', '/webhooks/ingest-lead', {
    query: { endpoint_id: ws.webhook.endpoint_id },
    headers: {
      Authorization: `Bearer ${ws.webhook.token}`,
      ...(form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
    },
    body,
  });
  expect(response.status).toBe(200);
  return response.body as LeadAnswer;
};

const stored = async (ws: Workspace, answer: LeadAnswer): Promise<Prospect> => {
  const prospect = await getProspect(deps, ws.workspace_id, answer.prospect_id);
  if (!prospect) throw new Error('prospect not stored');
  return prospect;
};

describe('a new contact', () => {
  it('takes the values sent under a key, a question title (accents, « ? ») and `fields`, as answered, none unknown', async () => {
    const ws = await withFields();
    const answer = await lead(ws, {
      email: 'typeform@test.fr',
      [budgetTitle]: '1 500,50',
      [situationTitle.toUpperCase()]: 'propriétaire',
      equipements: 'jardin, PISCINE',
      fields: { rappel: '29/02/2028', newsletter: 'Oui' },
      company: 'Acme',
    });
    expect(answer).toMatchObject({ status: 'created', warnings: ['Champ inconnu ignoré : « company ».'] });
    expect((await stored(ws, answer)).fields).toEqual({
      budget: 1500.5,
      situation: 'Propriétaire',
      equipements: ['Piscine', 'Jardin'],
      rappel: '2028-02-29',
      newsletter: true,
    });
  });

  it('reads a form-encoded body: `fields[key]=value`, a title as a key, a repeated key as a list', async () => {
    const ws = await withFields();
    const body = new URLSearchParams([
      ['email', 'zapier-form@test.fr'],
      ['fields[budget]', '2 000'],
      [situationTitle, 'Locataire'],
      ['fields[equipements]', 'Garage'],
      ['fields[equipements]', 'piscine'],
      ['fields[inconnu]', 'x'],
    ]).toString();
    const answer = await lead(ws, body, true);
    expect(answer.warnings).toEqual(['Champ inconnu ignoré : « fields[inconnu] ».']);
    expect((await stored(ws, answer)).fields).toEqual({
      budget: 2000,
      situation: 'Locataire',
      equipements: ['Piscine', 'Garage'],
    });
  });

  it('gives `fields` priority over the key, and the key over an alias', async () => {
    const ws = await withFields();
    const answer = await lead(ws, {
      email: 'priorite@test.fr',
      [budgetTitle]: '1',
      budget: '2',
      fields: { budget: 3 },
    });
    const second = await lead(ws, { email: 'priorite2@test.fr', [budgetTitle]: '1', budget: '2' });
    expect((await stored(ws, answer)).fields).toEqual({ budget: 3 });
    expect((await stored(ws, second)).fields).toEqual({ budget: 2 });
  });

  it('answers 200 with French warnings naming the field, never the value, for values that do not fit', async () => {
    const ws = await withFields();
    const answer = await lead(ws, {
      email: 'refus@test.fr',
      budget: '1.500,50',
      rappel: '31/02/2026',
      situation: 'Nomade',
      newsletter: 1e200,
      equipements: ['Piscine', 3],
      fields: 'budget=12',
    });
    expect(answer.status).toBe('created');
    expect(answer.warnings).toEqual([
      messages.fields.leadFieldsNotObject,
      'Champ « Budget » (budget) ignoré : la valeur envoyée ne correspond pas à son type.',
      'Champ « Situation » (situation) ignoré : la valeur envoyée ne correspond pas à son type.',
      'Champ « Équipements » (equipements) ignoré : la valeur envoyée ne correspond pas à son type.',
      'Champ « Date de rappel » (rappel) ignoré : la valeur envoyée ne correspond pas à son type.',
      'Champ « Newsletter » (newsletter) ignoré : la valeur envoyée ne correspond pas à son type.',
    ]);
    for (const sent of ['1.500,50', '31/02/2026', 'Nomade', '1e+200'])
      expect(answer.warnings.join()).not.toContain(sent);
    expect((await stored(ws, answer)).fields).toBeUndefined();
  });

  it('takes a number at the ends of what the table stores as itself, and refuses one past them (no 500)', async () => {
    const ws = await withFields();
    const large = await lead(ws, { email: 'bornes@test.fr', budget: Number.MAX_SAFE_INTEGER });
    const small = await lead(ws, { email: 'bornes2@test.fr', budget: '-0,' + '0'.repeat(129) + '1' });
    const past = await lead(ws, { email: 'bornes3@test.fr', budget: Number.MAX_SAFE_INTEGER + 1 });
    expect((await stored(ws, large)).fields).toEqual({ budget: Number.MAX_SAFE_INTEGER });
    expect((await stored(ws, small)).fields).toEqual({ budget: -1e-130 });
    expect(past.warnings).toEqual([messages.fields.leadValueRefused('Budget', 'budget')]);
    expect((await stored(ws, past)).fields).toBeUndefined();
  });

  it('ignores, with a warning naming the field, a value that would take the values past 16 KB', async () => {
    const texts = Array.from({ length: 17 }, (_, index) => ({
      key: `texte_${index}`,
      label: `Texte ${index}`,
      type: 'text' as const,
    }));
    const ws = await withFields(texts);
    const body = Object.fromEntries(texts.map(({ key }) => [key, 'x'.repeat(1000)]));
    const answer = await lead(ws, { email: 'seize@test.fr', ...body });
    expect(answer.warnings).toEqual([messages.fields.leadValuesTooLarge('Texte 16', 'texte_16', 16)]);
    const values = (await stored(ws, answer)).fields ?? {};
    expect(Object.keys(values)).toHaveLength(16);
    expect(values).not.toHaveProperty('texte_16');
  });

  it('costs no more round trip than a lead without values: the values are in the one transaction', async () => {
    const ws = await withFields();
    counter.reset();
    await lead(ws, {
      email: 'cinq@test.fr',
      budget: 1,
      situation: 'Locataire',
      equipements: 'Garage',
      rappel: '2027-01-01',
      newsletter: 'non',
    });
    expect(counter.calls).toEqual(['UpdateItem', 'BatchGetItem', 'TransactWriteItems']);
  });
});

describe('a known contact', () => {
  it('takes each value as its field’s update says: `always` overwrites, `if_empty` only sets an unset one', async () => {
    const ws = await withFields();
    const first = await lead(ws, { email: 'connu@test.fr', budget: '1000', situation: 'Locataire' });
    const before = await stored(ws, first);
    const again = await lead(ws, {
      email: 'connu@test.fr',
      budget: '2000',
      situation: 'Propriétaire',
      fields: { newsletter: 'oui' },
    });
    expect(again).toMatchObject({ status: 'existing', prospect_id: first.prospect_id });
    expect(again.warnings).toEqual([messages.lead.notMoved]);
    const after = await stored(ws, again);
    expect(after.fields).toEqual({ budget: 2000, situation: 'Locataire', newsletter: true });
    expect(after.version).toBe(before.version + 1);
    expect(after.updated_at > before.updated_at).toBe(true);
    expect(after.actor).toEqual({ kind: 'webhook', id: ws.webhook.endpoint_id });
  });

  it('sets a value on a prospect created without any, and never clears one with an empty value', async () => {
    const ws = await withFields();
    const first = await lead(ws, { email: 'vide@test.fr' });
    expect((await stored(ws, first)).fields).toBeUndefined();
    await lead(ws, { email: 'vide@test.fr', situation: 'Locataire', rappel: '2027-03-01' });
    await lead(ws, { email: 'vide@test.fr', situation: '', rappel: ' ', fields: { budget: null }, equipements: [] });
    expect((await stored(ws, first)).fields).toEqual({ situation: 'Locataire', rappel: '2027-03-01' });
  });

  it('logs no change-log entry: webhook updates are not logged, their version moves', async () => {
    const ws = await withFields();
    const first = await lead(ws, { email: 'journal@test.fr', budget: 1 });
    await lead(ws, { email: 'journal@test.fr', budget: 2 });
    const changes = await api.request('GET', `/prospects/${first.prospect_id}/changes`, {
      headers: { Authorization: `Bearer ${ws.api_keys.k?.secret}` },
    });
    expect(changes.status).toBe(200);
    expect((changes.body as { changes: unknown[] }).changes).toEqual([]);
  });

  it('ignores a value that would take its values past 16 KB, with a warning', async () => {
    const texts = Array.from({ length: 17 }, (_, index) => ({
      key: `t_${index}`,
      label: `T ${index}`,
      type: 'text' as const,
    }));
    const ws = await withFields(texts);
    const full = Object.fromEntries(texts.slice(0, 16).map(({ key }) => [key, 'x'.repeat(1000)]));
    const first = await lead(ws, { email: 'plein@test.fr', ...full });
    const again = await lead(ws, { email: 'plein@test.fr', t_16: 'y'.repeat(500), t_0: 'z'.repeat(999) });
    expect(again.warnings).toEqual([messages.fields.leadValuesTooLarge('T 16', 't_16', 16), messages.lead.notMoved]);
    const values = (await stored(ws, first)).fields ?? {};
    expect(values.t_0).toBe('z'.repeat(999));
    expect(values).not.toHaveProperty('t_16');
  });

  it('reads the prospect first when given values (its write is on the version read): one GetItem more', async () => {
    const ws = await withFields();
    await lead(ws, { email: 'lu@test.fr' });
    counter.reset();
    await lead(ws, { email: 'lu@test.fr', budget: 3 });
    expect(counter.calls).toEqual(['UpdateItem', 'BatchGetItem', 'GetItem', 'TransactWriteItems']);
  });
});

describe('the Typeform → Zapier example of README.md and docs/integrations.md', () => {
  it('answers as printed: the budget read from its title, the situation ignored with a warning naming the field', async () => {
    const ws = await withFields([
      { key: 'budget', label: 'Budget', type: 'number', aliases: ['Quel est votre budget ?'] },
      {
        key: 'situation',
        label: 'Situation',
        type: 'choice',
        options: ['Locataire', 'Propriétaire'],
        aliases: ['Votre situation'],
      },
    ]);
    const answer = await lead(ws, {
      email: 'lucas.bernard@exemple.test',
      first_name: 'Lucas',
      'Quel est votre budget ?': '250 000',
      'Votre situation': 'Hébergé chez mes parents',
    });
    expect(answer).toEqual({
      status: 'created',
      prospect_id: expect.any(String),
      pipeline_id: expect.any(String),
      stage_id: expect.any(String),
      placement: 'defaut',
      tags_applied: [],
      warnings: ['Champ « Situation » (situation) ignoré : la valeur envoyée ne correspond pas à son type.'],
    });
    expect((await stored(ws, answer)).fields).toEqual({ budget: 250000 });
  });
});

describe('a deleted field', () => {
  it('is an unknown field again: its key and aliases are reported, nothing is written', async () => {
    const ws = await withFields();
    await editWorkspaceConfig(deps, ws.workspace_id, (config) => ({
      ...partsOf(config),
      fields: withDeletedField(config, 'budget', new Date().toISOString()),
    }));
    const answer = await lead(ws, {
      email: 'efface@test.fr',
      budget: '10',
      [budgetTitle]: '20',
      fields: { budget: 30 },
    });
    expect(answer.warnings).toEqual([
      'Champ inconnu ignoré : « budget ».',
      `Champ inconnu ignoré : « ${budgetTitle} ».`,
      'Champ inconnu ignoré : « fields.budget ».',
    ]);
    expect((await stored(ws, answer)).fields).toBeUndefined();
  });
});
