import { seededRandom } from './seeded-random';
import type { SeedDescription, SeedOutput } from '../seed/seed';

/**
 * The load run's workspaces and requests, drawn up front from a seeded generator so that a run
 * can be repeated: lead webhooks on a small pool of contacts (the same contact arrives many times,
 * often at once), PATCHes and notes on a few prospects, spread over several keys, and a burst of
 * notes on one key that goes past its rate limit on purpose.
 */

export const apiKeysPerWorkspace = 5;
export const prospectsPerWorkspace = 8;
export const contactsPerWorkspace = 40;

export const loadWorkspace: SeedDescription = {
  workspace: { name: 'Charge' },
  members: [
    { key: 'alice', name: 'Alice Martin' },
    { key: 'bob', name: 'Bob Durand' },
  ],
  tags: [{ key: 'vip', name: 'VIP' }],
  pipelines: [
    {
      key: 'sales',
      name: 'Ventes',
      is_default: true,
      stages: [
        { key: 'new', name: 'Nouveau', type: 'Appointment Setting' },
        { key: 'fu', name: 'Relance', type: 'Follow up' },
      ],
    },
  ],
  api_keys: [
    ...Array.from({ length: apiKeysPerWorkspace }, (_, index) => ({ key: `k${index}`, name: `Clé ${index}` })),
    { key: 'burst', name: 'Rafale' },
  ],
  webhook: { active: true },
  prospects: Array.from({ length: prospectsPerWorkspace }, (_, index) => ({
    key: `p${index}`,
    email: `seeded-${index}@charge.test`,
    pipeline: 'sales',
    stage: 'new',
  })),
};

export type PlannedRequest =
  | { kind: 'lead'; workspace: number; email: string; idempotencyKey?: string }
  | { kind: 'patch'; workspace: number; key: string; prospect: number; body: Record<string, string | null> }
  | { kind: 'note'; workspace: number; key: string; prospect: number; content: string };

export function planRequests(options: { requests: number; workspaces: number; seed: number }): PlannedRequest[] {
  const random = seededRandom(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const burst = Math.floor(options.requests * 0.08);
  const plan: PlannedRequest[] = [];
  for (let index = 0; index < options.requests - burst; index += 1) {
    const workspace = Math.floor(random() * options.workspaces);
    const key = `k${Math.floor(random() * apiKeysPerWorkspace)}`;
    const prospect = Math.floor(random() * prospectsPerWorkspace);
    const draw = random();
    if (draw < 0.5) {
      const contact = Math.floor(random() * contactsPerWorkspace);
      const email = random() < 0.3 ? `Lead-${contact}@Charge.test` : `lead-${contact}@charge.test`;
      plan.push({ kind: 'lead', workspace, email, ...(random() < 0.3 ? { idempotencyKey: `lead-${index}` } : {}) });
    } else if (draw < 0.75) {
      const body = pick<Record<string, string | null>>([
        { setter_id: 'alice' },
        { setter_id: 'bob' },
        { closer_id: 'alice' },
        { closer_id: null },
        { stage: 'Relance' },
        { stage: 'Nouveau' },
        { follow_up_at: pick(['2026-12-01T09:30:00+01:00', '2027-01-15T10:00:00Z', null]) },
      ]);
      plan.push({ kind: 'patch', workspace, key, prospect, body });
    } else {
      plan.push({ kind: 'note', workspace, key, prospect, content: `charge ${index}` });
    }
  }
  for (let index = 0; index < burst; index += 1) {
    const at = Math.floor(random() * plan.length);
    plan.splice(at, 0, { kind: 'note', workspace: 0, key: 'burst', prospect: 0, content: `rafale ${index}` });
  }
  return plan;
}

/** Member labels in a planned PATCH become the workspace's member ids. */
export function resolvePatch(body: Record<string, string | null>, seed: SeedOutput): Record<string, string | null> {
  return Object.fromEntries(
    Object.entries(body).map(([field, value]) => [
      field,
      (field === 'setter_id' || field === 'closer_id') && value !== null ? (seed.members[value] ?? value) : value,
    ]),
  );
}
