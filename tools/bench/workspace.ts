import type { SeedDescription, SeedOutput } from '../../lib/admin/seed';

/** The workspace as measured: with only the bench's own prospects, then with 100 000 more. */
export type Phase = 'empty' | 'bulk';
export const phases: readonly Phase[] = ['empty', 'bulk'];
export const bulkProspectCount = 100_000;

/**
 * The workspace every measure runs in: a configuration of the size a sales team has (the
 * configuration item is read whole on most routes), one API key per label the bench asks
 * for, and prospects for the routes that change one.
 */
export function benchWorkspace(apiKeyLabels: readonly string[], prospects: number): SeedDescription {
  return {
    workspace: { name: 'Banc de mesure' },
    members: ['Alice Martin', 'Bruno Lefèvre', 'Chloé Girard', 'David Morel', 'Emma Fontaine'].map((name, index) => ({
      name,
      email: `membre-${index}@banc.test`,
    })),
    tags: [
      { key: 'vip', name: 'VIP' },
      { key: 'hot', name: 'Chaud' },
      ...['Froid', 'Salon 2026', 'Webinaire', 'Partenaire', 'À relancer', 'Devis envoyé', 'Client', 'Perdu'].map(
        (name) => ({ name }),
      ),
    ],
    pipelines: [
      {
        key: 'sales',
        name: 'Ventes',
        is_default: true,
        stages: ['Nouveau', 'Contacté', 'Relance', 'Rendez-vous', 'Proposition', 'Closé', 'Acompte'].map((name) => ({
          name,
          type: name === 'Rendez-vous' ? 'Appointment Setting' : 'Follow up',
        })),
      },
      {
        name: 'Partenariats',
        stages: ['Nouveau', 'Discussion', 'Signé'].map((name) => ({ name, type: 'Follow up' })),
      },
    ],
    recruitment_pipelines: [
      {
        name: 'Développeurs',
        is_default: true,
        columns: ['Candidature reçue', 'Entretien', 'Offre'].map((name) => ({ name })),
      },
      { name: 'Commerciaux', columns: ['Candidature reçue', 'Entretien'].map((name) => ({ name })) },
    ],
    api_keys: apiKeyLabels.map((label) => ({ key: label, name: label, scopes: ['*'] })),
    webhook: { active: true },
    prospects: [
      { key: knownLead.email, ...knownLead, pipeline: 'sales', stage: 'Nouveau' },
      ...Array.from({ length: prospects }, (_, index) => ({
        key: targetLabel(index),
        email: `cible-${index}@banc.test`,
        first_name: 'Cible',
        last_name: String(index),
        pipeline: 'sales',
        stage: 'Nouveau',
        tags: ['hot'],
      })),
    ],
  };
}

/** Its phone is outside the +336… and +337… ranges of the generated leads, so no new lead matches it by phone. */
export const knownLead = { email: 'lea.connue@banc.test', phone: '+33100000001', first_name: 'Léa' };

const targetLabel = (index: number) => `cible-${index}`;

/** Hands out seeded prospects, each once, so that no two measures change the same one. */
export function prospectAllocator(seed: SeedOutput): (count: number) => string[] {
  let next = 0;
  return (count) =>
    Array.from({ length: count }, () => {
      const id = seed.prospects[targetLabel(next)];
      if (id === undefined) throw new Error(`the bench workspace has only ${next} prospects to hand out`);
      next += 1;
      return id;
    });
}

export function apiKeySecret(seed: SeedOutput, label: string): string {
  const key = seed.api_keys[label];
  if (key === undefined) throw new Error(`no API key labelled ${label} in the bench workspace`);
  return key.secret;
}

export function benchWebhook(seed: SeedOutput): NonNullable<SeedOutput['webhook']> {
  if (seed.webhook === null) throw new Error('the bench workspace has no webhook');
  return seed.webhook;
}
