import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { parseSeedDescription } from '../../lib/admin/seed-description';
import { planSeed, type SeedOutput } from '../../lib/admin/seed-plan';
import type { Deps } from '../../lib/deps';

/** The workspace as measured: with only the bench's own prospects, then with 100 000 more. */
export type Phase = 'empty' | 'bulk';
export const phases: readonly Phase[] = ['empty', 'bulk'];
export const bulkProspectCount = 100_000;

/** One of the two workspaces: its ids and secrets, and seeded prospects and API keys handed out once each. */
export type Workspace = {
  phase: Phase;
  seed: SeedOutput;
  prospects: (count: number) => string[];
  /** API key secrets: each measure takes keys of its own, so none eats into another's rate limit. */
  apiKeys: (count: number) => string[];
  /** The e-mail of a prospect already in the workspace. */
  knownLeadEmail: string;
};

/** One HTTP call of the API; the body is sent as JSON. */
export type Call = { method: string; path: string; headers: Record<string, string>; body?: unknown };
/** Sends a call through the local API; any answer but a 2xx throws (a refused call measures nothing). */
export type Send = (call: Call) => Promise<unknown>;

export const sender =
  (url: string): Send =>
  async ({ method, path, headers, body }) => {
    const response = await fetch(new URL(path, url), {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  };

export const apiCall = (key: string, method: string, path: string, body?: unknown): Call => ({
  method,
  path,
  headers: { authorization: `Bearer ${key}` },
  body,
});

export function webhookCall(seed: SeedOutput, route: 'ingest-lead' | 'recruitment', body: unknown): Call {
  if (seed.webhook === null) throw new Error('the bench workspace has no webhook');
  const { endpoint_id, token } = seed.webhook;
  return apiCall(token, 'POST', `/webhooks/${route}?endpoint_id=${endpoint_id}`, body);
}

let contacts = 0;
/** A number no other contact of this bench run has: each lead numbered `n` is a new contact. */
export const fresh = () => (contacts += 1);

export const newLeadBody = (n: number, tagId: string | undefined) => ({
  first_name: 'Nina',
  last_name: 'Roux',
  email: `lead-${n}@banc.test`,
  phone: `+336${String(n).padStart(8, '0')}`,
  source: 'Typeform - formulaire de contact',
  pipeline: 'Ventes',
  stage: 'Nouveau',
  tag_ids: tagId === undefined ? [] : [tagId],
});

export const applicationBody = (n: number) => ({
  email: `candidat-${n}@banc.test`,
  name: 'Camille Dupont',
  phone: '+33100000000',
  position: 'Développeuse backend',
  source: 'Typeform',
  answers: { 'Années d’expérience': '5', 'Disponible ?': 'Dans un mois', 'Langages préférés': 'TypeScript, Go' },
});

export const noteBody = { content: 'Rappelé, intéressé par l’offre annuelle. Relancer après la démo de jeudi.' };

/** Its phone is outside the +336… and +337… ranges of the generated leads, so no new lead matches it by phone. */
const knownLead = { key: 'connue', email: 'lea.connue@banc.test', phone: '+33100000001', first_name: 'Léa' };
/** Prospects seeded with each workspace for the measures that change one, and API keys, each handed out once. */
const seededProspects = 350;
export const apiKeyCount = 100;

/** Hands out `ids` in order, each once. */
export function handOut(ids: readonly (string | undefined)[], what: string): (count: number) => string[] {
  let next = 0;
  return (count) =>
    Array.from({ length: count }, () => {
      const id = ids[next];
      if (id === undefined) throw new Error(`the bench workspace has only ${next} ${what} to hand out`);
      next += 1;
      return id;
    });
}

/**
 * A workspace as `lib/admin` plans a seed: a configuration of the size a sales team has (the
 * configuration item is read whole on most routes), API keys, a webhook and prospects for the
 * measures; in the bulk phase, 100,000 more prospects, each with its e-mail and phone markers, as the
 * lead webhook would have left them. Its items are written straight into the table by BatchWriteItems
 * of 25 puts, unconditional (the table is the bench's own and every value new), four at a time
 * (DynamoDB Local, one JVM, goes no faster beyond on two cores). Also returns how long that took.
 */
export async function seedBenchWorkspace(
  deps: Deps,
  phase: Phase,
): Promise<Workspace & { items: number; seconds: number }> {
  const names = (text: string) => text.split(', ').map((name) => ({ name }));
  const prospect = (key: string, last_name: string, tags: string[]) => ({
    key,
    email: `${key}@banc.test`,
    first_name: 'Cible',
    last_name,
    tags,
  });
  const targets = Array.from({ length: seededProspects }, (_, index) =>
    prospect(`cible-${index}`, String(index), ['hot']),
  );
  const bulk = Array.from({ length: phase === 'bulk' ? bulkProspectCount : 0 }, (_, index) => ({
    key: `volume-${index}`,
    email: `volume-${index}@banc.test`,
    phone: `+337${String(index).padStart(8, '0')}`,
    first_name: 'Prénom',
    last_name: `Volume ${index}`,
    source: 'Import du banc de mesure',
  }));
  const { items, output: seed } = planSeed(
    deps,
    parseSeedDescription({
      workspace: { name: 'Banc de mesure' },
      members: names('Alice Martin, Bruno Lefèvre, Chloé Girard, David Morel, Emma Fontaine').map((member, index) => ({
        ...member,
        email: `membre-${index}@banc.test`,
      })),
      tags: [
        { key: 'vip', name: 'VIP' },
        { key: 'hot', name: 'Chaud' },
        ...names('Froid, Salon 2026, Webinaire, Partenaire, À relancer, Devis envoyé, Client, Perdu'),
      ],
      pipelines: [
        {
          key: 'sales',
          name: 'Ventes',
          is_default: true,
          stages: names('Nouveau, Contacté, Relance, Rendez-vous, Proposition, Closé, Acompte').map((stage) => ({
            ...stage,
            type: stage.name === 'Rendez-vous' ? 'Appointment Setting' : 'Follow up',
          })),
        },
        {
          name: 'Partenariats',
          stages: names('Nouveau, Discussion, Signé').map((stage) => ({ ...stage, type: 'Follow up' })),
        },
      ],
      recruitment_pipelines: [
        { name: 'Développeurs', is_default: true, columns: names('Candidature reçue, Entretien, Offre') },
        { name: 'Commerciaux', columns: names('Candidature reçue, Entretien') },
      ],
      api_keys: Array.from({ length: apiKeyCount }, (_, index) => ({
        key: `cle-${index}`,
        name: `Clé ${index}`,
        scopes: ['*'],
      })),
      webhook: { active: true },
      prospects: [knownLead, ...targets, ...bulk],
    }),
  );
  const started = performance.now();
  const batches = Array.from({ length: Math.ceil(items.length / 25) }, (_, index) =>
    items.slice(index * 25, index * 25 + 25),
  );
  const worker = async () => {
    for (let batch = batches.pop(); batch !== undefined; batch = batches.pop()) {
      let pending = batch.map((item) => ({ PutRequest: { Item: item } }));
      for (let round = 0; pending.length > 0; round += 1) {
        if (round > 8) throw new Error('BatchWriteItem kept items unprocessed');
        if (round > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** round));
        const written = await deps.db.send(new BatchWriteCommand({ RequestItems: { [deps.tableName]: pending } }));
        pending = (written.UnprocessedItems?.[deps.tableName] ?? []) as typeof pending;
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return {
    phase,
    seed,
    prospects: handOut(
      targets.map((target) => seed.prospects[target.key]),
      'prospects',
    ),
    apiKeys: handOut(
      Object.values(seed.api_keys).map((key) => key.secret),
      'API keys',
    ),
    // In the bulk phase, one of the 100,000.
    knownLeadEmail: phase === 'empty' ? knownLead.email : 'volume-0@banc.test',
    items: items.length,
    seconds: (performance.now() - started) / 1000,
  };
}
