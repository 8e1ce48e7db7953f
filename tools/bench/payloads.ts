/**
 * The bodies the bench sends: what a form tool or an integration sends on a normal day.
 * A lead numbered `n` has an e-mail and a phone of its own: each number is a new contact.
 */
export function newLeadBody(n: number, tagId: string | undefined): Record<string, unknown> {
  return {
    first_name: 'Nina',
    last_name: 'Roux',
    email: `lead-${n}@banc.test`,
    phone: `+336${String(n).padStart(8, '0')}`,
    source: 'Typeform - formulaire de contact',
    pipeline: 'Ventes',
    stage: 'Nouveau',
    tag_ids: tagId === undefined ? [] : [tagId],
  };
}

export function applicationBody(n: number): Record<string, unknown> {
  return {
    email: `candidat-${n}@banc.test`,
    name: 'Camille Dupont',
    phone: '+33100000000',
    position: 'Développeuse backend',
    source: 'Typeform',
    answers: {
      'Années d’expérience': '5',
      'Disponible ?': 'Dans un mois',
      'Langages préférés': 'TypeScript, Go',
    },
  };
}

export const noteBody = { content: 'Rappelé, intéressé par l’offre annuelle. Relancer après la démo de jeudi.' };
