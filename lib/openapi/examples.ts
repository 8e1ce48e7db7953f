/**
 * Example values of the document, consistent with each other (one workspace: the « Ventes »
 * pipeline, the « VIP » tag…). Texts meant for people are French, as the API answers them.
 */
export const exampleIds = {
  prospect: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  salesPipeline: '0b6f3a52-8c1e-4d7a-9f24-5e8b1c7d2a90',
  newStage: '5d2e8f14-3a6b-4c9d-8e7f-1a2b3c4d5e6f',
  followUpStage: 'a3bb189e-8bf9-4888-9912-ace4e6543002',
  wonStage: 'c56a4180-65aa-42ec-a945-5fd21dec0538',
  vipTag: '1f0c8a1e-6d2b-4f3a-9b7c-2d4e6f8a0b1c',
  hotTag: '9a7b3c1d-2e4f-4a6b-8c0d-1e2f3a4b5c6d',
  member: 'e4d909c2-90d0-4b1a-a3f2-4c5e6d7f8a9b',
  note: '16fd2706-8baf-433b-82eb-8c7fada847da',
  talent: '886313e1-3b8a-4372-9b90-0c9aee199e5d',
  endpoint: '6ec0bd7f-11c0-43da-975e-2a8ad9ebae0b',
} as const;

export const exampleMessages = {
  unauthorized: "Identifiant d'accès manquant, invalide ou révoqué.",
  forbidden: "Cette clé d'API n'a pas le droit d'utiliser cette route.",
  rateLimited: "Trop de requêtes pour cette clé d'API : réessayez après le délai indiqué par Retry-After.",
  internal: 'Erreur interne : réessayez dans quelques instants.',
  prospectNotFound: 'Prospect introuvable dans cet espace.',
  unknownField: 'Champ inconnu : « status ».',
  keyReused:
    'Cette clé Idempotency-Key a déjà servi pour un autre contenu : utilisez une nouvelle clé pour une nouvelle requête.',
  keyInFlight: 'Une requête avec cette clé Idempotency-Key est encore en cours : réessayez dans une seconde.',
  keyTooLong: "L'en-tête Idempotency-Key dépasse 255 caractères.",
  protectedStage: "Le prospect est à l'étape « Closé » : une vente se gère dans l'application, pas par l'API.",
  unknownStage:
    "Étape « Rappel » introuvable : donnez l'identifiant d'une étape de l'espace ou le nom exact d'une étape du pipeline du prospect.",
  unknownMember: "Champ « setter_id » : ce membre n'existe pas dans l'espace.",
  blankNote: 'Champ « content » invalide : le contenu ne peut pas être vide.',
  unknownTag: "Tag « Premium » introuvable dans l'espace : l'API ne crée pas de tags, créez-le dans l'application.",
  endpointMalformed: 'Le paramètre endpoint_id doit être un identifiant UUID.',
  endpointMissing: "Le paramètre endpoint_id est absent de l'URL du webhook.",
  endpointUnknown: 'Aucun webhook ne correspond à cet endpoint_id.',
  webhookUnauthorized: 'Jeton du webhook manquant ou invalide, ou webhook désactivé.',
  noContact: 'Le prospect doit avoir au moins un moyen de contact valide : « email », « phone » ou « social_url ».',
  leadFailed: "Le prospect n'a pas pu être enregistré : réessayez dans quelques instants.",
  invalidEmail: 'Champ « email » invalide : une adresse e-mail valide est attendue.',
  nestedPayload:
    'Ce format imbriqué (« data.fields » ou « form_response.answers ») n’est pas accepté : aplatissez les réponses ' +
    'avant l’envoi. Avec Zapier ou Make, associez chaque champ du formulaire à un champ du webhook ' +
    '(email, name, phone, position…) et chaque question à une clé « answers[Question] ».',
  recruitmentPipelineNotFound: "Aucun pipeline de recrutement actif ne s'appelle « Commerciaux ».",
  ambiguousPipeline:
    "Plusieurs pipelines de recrutement s'appellent « Développeurs » : utilisez « pipeline_id » pour choisir.",
  noRecruitmentPipeline: "L'espace n'a aucun pipeline de recrutement actif : créez-en un dans l'application.",
  notMoved: "Contact déjà connu : le prospect n'a pas été déplacé dans le pipeline.",
  stageNotFound:
    'Étape « Nouveaux » introuvable dans le pipeline « Ventes » : le prospect est placé à la première étape du pipeline par défaut.',
  unknownTagIgnored: 'Tag introuvable ignoré : « 00000000-0000-4000-8000-000000000000 ».',
  unknownFieldIgnored: 'Champ inconnu ignoré : « entreprise ».',
  futureNoteDate: 'La date de la note est dans le futur : la date de réception a été retenue.',
} as const;
