import { seedWorkspace, type SeedDescription, type SeedOutput } from '../../tools/seed/seed';
import { productionDeps, type Deps } from '../../lib/storage/client';

type SalesPipelineDescription = NonNullable<SeedDescription['pipelines']>[number];

/** The default sales pipeline « Ventes »: Nouveau, Relance, Closé (labels new, fu, won). */
export function aSalesPipeline(overrides: Partial<SalesPipelineDescription> = {}): SalesPipelineDescription {
  return {
    key: 'sales',
    name: 'Ventes',
    is_default: true,
    active: true,
    stages: [
      { key: 'new', name: 'Nouveau', type: 'Appointment Setting' },
      { key: 'fu', name: 'Relance', type: 'Follow up' },
      { key: 'won', name: 'Closé', type: 'Follow up' },
    ],
    ...overrides,
  };
}

/**
 * A full seed description (docs/api.md#seed-description): two members, two tags, a default active sales pipeline
 * with Closé and Acompte, another active one and an inactive one, a recruitment pipeline, a key with `*` and a
 * read-only key, an active webhook and prospects on several stages. Overrides replace whole
 * top-level parts.
 */
export function aWorkspace(overrides: Partial<SeedDescription> = {}): SeedDescription {
  return {
    workspace: { name: 'Acme' },
    members: [
      { key: 'alice', name: 'Alice Martin', email: 'alice@acme.test' },
      { key: 'bob', name: 'Bob Durand', email: 'bob@acme.test' },
    ],
    tags: [
      { key: 'vip', name: 'VIP' },
      { key: 'hot', name: 'Chaud' },
    ],
    pipelines: [
      aSalesPipeline({
        stages: [...aSalesPipeline().stages, { key: 'deposit', name: 'Acompte', type: 'Follow up' }],
      }),
      {
        key: 'partners',
        name: 'Partenaires',
        is_default: false,
        active: true,
        stages: [{ key: 'first', name: 'Premier contact', type: 'Appointment Setting' }],
      },
      {
        key: 'archive',
        name: 'Archives',
        is_default: false,
        active: false,
        stages: [{ key: 'old', name: 'Ancien', type: 'Follow up' }],
      },
    ],
    recruitment_pipelines: [
      {
        key: 'devs',
        name: 'Développeurs',
        is_default: true,
        active: true,
        columns: [
          { key: 'applied', name: 'Candidature reçue' },
          { key: 'interview', name: 'Entretien' },
        ],
      },
    ],
    api_keys: [
      { key: 'admin', name: 'Zapier', scopes: ['*'] },
      { key: 'reader', name: 'Tableau de bord', scopes: ['pipelines:read'] },
    ],
    webhook: { active: true },
    prospects: [
      {
        key: 'lead',
        first_name: 'Léa',
        last_name: 'Petit',
        email: 'lea.petit@acme.test',
        phone: '+33600000001',
        source: 'Site',
        pipeline: 'sales',
        stage: 'new',
      },
      {
        key: 'social',
        social_url: 'https://www.linkedin.com/in/marc-social',
        pipeline: 'sales',
        stage: 'fu',
        setter: 'alice',
        tags: ['vip'],
      },
      { key: 'sold', email: 'sold@acme.test', pipeline: 'sales', stage: 'won', closer: 'bob' },
      { key: 'deposit', email: 'deposit@acme.test', pipeline: 'sales', stage: 'deposit' },
    ],
    ...overrides,
  };
}

let deps: Deps | undefined;

/** Seeds a new workspace in the test DynamoDB Local (started by jest's global setup). */
export async function seedTestWorkspace(description: SeedDescription = aWorkspace()): Promise<SeedOutput> {
  deps ??= productionDeps();
  return seedWorkspace(deps, description);
}
