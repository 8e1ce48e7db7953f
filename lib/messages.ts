/**
 * Every French text the service itself sends or prints, defined once: error messages, warnings, zod refusals named
 * in `details`, gateway responses, audit summaries, the admin command line's output, and the OpenAPI examples, which
 * are built from these very entries (a test fails when a documented example is not one the service can send). The
 * settings page's own texts (labels, buttons, screen titles) are its catalogue, app/src/texts.ts; it shows these
 * messages as the API sends them. A leaf module: any layer may import it.
 */

/** A message quotes what the caller sent, never a 20 000-character copy of it, nor half an emoji. */
export function shorten(value: string, max = 80): string {
  const codePoints = Array.from(value);
  return codePoints.length > max ? `${codePoints.slice(0, max).join('')}…` : value;
}

const q = (value: string) => `« ${shorten(value)} »`;
const retryShortly = 'réessayez dans quelques instants.';
const defaultPlacement = 'le prospect est placé à la première étape du pipeline par défaut.';
/** The admin commands quote a pasted 500-character id by its first 40 UTF-16 units, as they always did. */
const quotedStart = (value: string) => `« ${value.length > 40 ? `${value.slice(0, 40)}…` : value} »`;
const uuidExpected = (label: string, value: string) => `${label} (un UUID est attendu) : ${quotedStart(value)}`;
/** The API and the command line refuse a time zone in the same words (docs/api.md#workspaces). */
const timeZoneExpected = 'un fuseau horaire IANA connu est attendu, par exemple Europe/Paris ou America/Montreal';
/**
 * The API and the command line refuse a retention in the same words (docs/api.md#workspaces), `clear` being how each
 * says « until erased » (`null`, `none`).
 */
const retentionExpected = (min: number, max: number, clear: string) =>
  `un nombre entier de mois de ${min} à ${max} est attendu, ou ${clear} pour garder les données jusqu'à leur effacement`;

export const messages = {
  /** The settings API's webhook call journal, subscriptions and deliveries (docs/api.md#settings-api). */
  settingsEvents: {
    invalidFailed: 'Le paramètre failed vaut true ou false.',
    callNotFound: "Cet appel du webhook n'existe pas dans cet espace (ou n'est plus conservé).",
    subscriptionNotFound: "Cet abonnement n'existe pas dans cet espace.",
    deliveryNotFound: "Cet envoi n'existe pas dans cet espace (ou n'est plus conservé).",
  },
  access: {
    unauthorized: "Identifiant d'accès manquant, invalide ou révoqué.",
    forbidden: "Cette clé d'API n'a pas le droit d'utiliser cette route.",
    rateLimited: "Trop de requêtes pour cette clé d'API : réessayez après le délai indiqué par Retry-After.",
    endpointMissing: "Le paramètre endpoint_id est absent de l'URL du webhook.",
    endpointMalformed: 'Le paramètre endpoint_id doit être un identifiant UUID.',
    endpointUnknown: 'Aucun webhook ne correspond à cet endpoint_id.',
    webhookUnauthorized: 'Jeton du webhook manquant ou invalide, ou webhook désactivé.',
  },

  /** The settings API's sign-in and member checks (docs/api.md#sign-in, #settings-api). */
  session: {
    unauthorized: 'Session absente, expirée ou fermée : reconnectez-vous.',
    signInRefused: 'Adresse e-mail ou mot de passe incorrect.',
    newPasswordRequired: 'Mot de passe provisoire : choisissez un nouveau mot de passe (champ « new_password »).',
    tooManySignIns:
      'Trop de tentatives de connexion pour cette adresse : réessayez après le délai indiqué par Retry-After.',
    refreshRefused: 'Jeton de renouvellement inconnu, expiré ou révoqué : reconnectez-vous.',
    wrongPassword: 'Mot de passe actuel incorrect.',
    badResetCode: 'Code de réinitialisation incorrect ou expiré : demandez-en un nouveau.',
    workspaceNotFound: "Espace introuvable, ou vous n'en êtes pas membre.",
    forbidden: "Votre rôle dans cet espace ne permet pas d'utiliser cette route.",
    rateLimited: 'Trop de requêtes pour ce membre dans cet espace : réessayez après le délai indiqué par Retry-After.',
    /** The password policy of the user pool, checked before any call (`newPassword`, lib/domain/session/session.ts). */
    weakPassword: 'au moins 12 caractères, dont une minuscule, une majuscule, un chiffre et un caractère spécial',
  },

  failure: {
    internal: `Erreur interne : ${retryShortly}`,
    leadNotSaved: `Le prospect n'a pas pu être enregistré : ${retryShortly}`,
    leadContended: "Le prospect n'a pas pu être enregistré : trop d'envois simultanés pour ce contact, réessayez.",
    prospectContended: 'Le prospect a été modifié pendant la requête : réessayez.',
  },

  gateway: {
    accessDenied: 'Accès refusé.',
    noSuchRoute: "Cette route n'existe pas.",
    bodyTooLarge: 'Le corps de la requête est trop volumineux.',
    throttled: `Trop de requêtes : ${retryShortly}`,
    badRequest: 'Requête invalide.',
    /** A WAF block without a response of its own (API Gateway's WAF_FILTERED). */
    wafFiltered: 'Requête refusée par le pare-feu de l’API.',
    /** The per-IP rate-based WAF rule (infra/cdk/waf-rules.ts). */
    ipRateLimited: (seconds: number) =>
      `Trop de requêtes depuis cette adresse IP : réessayez dans ${seconds} secondes (voir Retry-After).`,
  },

  /**
   * The e-mail Cognito sends a person invited to a workspace (infra/cdk/constructs/user-pool.ts): Cognito
   * puts the user name (the e-mail) in place of `{username}` and the temporary password in place of `{####}`.
   */
  invitationEmail: {
    subject: 'Votre accès au CRM',
    body: (validityDays: number) =>
      'Bonjour,<br><br>Un administrateur vous a invité à rejoindre un espace de travail du CRM.<br><br>' +
      'Identifiant : {username}<br>Mot de passe provisoire : {####}<br><br>' +
      `Ce mot de passe est valable ${validityDays} jours : à la première connexion, vous choisirez le vôtre.`,
  },
  /** The e-mail of a code Cognito sends (a forgotten password, an e-mail to verify): `{####}` is the code. */
  verificationEmail: {
    subject: 'Votre code de vérification CRM',
    body: 'Bonjour,<br><br>Votre code de vérification : {####}<br><br>Si vous n’avez rien demandé, ignorez ce message.',
  },
  /** What stops a synthesis of the stack (infra/cdk/stack.ts), for the person deploying it. */
  deployment: {
    invalidTableIndexes: (given: string, least: number, all: number) =>
      `-c tableIndexes=${given} invalide : un entier de ${least} à ${all}, le nombre d’index de la table à déclarer ` +
      '(une table existante prend un nouvel index par déploiement : docs/deploy.md, « New indexes »).',
    productionWithoutSesSender: (stage: string) =>
      `Le stage ${stage} exige un expéditeur Amazon SES : ajoutez -c sesFromEmail=<adresse vérifiée dans SES> ` +
      '(et -c sesFromName=…). L’expéditeur par défaut de Cognito n’envoie que quelques e-mails par jour et refuse ' +
      'le modèle d’invitation en français (docs/deploy.md, « Member sign-in »).',
  },
  /** What `npm start` prints in its terminal for what AWS would e-mail: no e-mail leaves the machine. */
  localRun: {
    resetCode: (email: string, code: string) =>
      `Mot de passe oublié : code de réinitialisation de ${email} : ${code} (le serveur local n’envoie pas d’e-mail).`,
    noResetCode: (email: string) =>
      `Mot de passe oublié : aucun code pour ${email} (aucun compte à cette adresse, ou le fournisseur d’identité local n’en envoie pas pour l’instant).`,
  },

  body: {
    notJsonObject: 'Le corps de la requête doit être un objet JSON.',
    webhookUnreadable:
      'Le corps de la requête doit être un objet JSON ou un formulaire encodé (application/x-www-form-urlencoded).',
    webhookTooLarge: (kilobytes: number) => `Le corps de la requête dépasse ${kilobytes} Ko.`,
    unknownField: (name: string) => `Champ inconnu : ${q(name)}.`,
    invalidField: (name: string, reason: string) => `Champ « ${name} » invalide : ${reason}.`,
    invalidBody: (reason: string) => `Corps de la requête invalide : ${reason}.`,
    refusedValue: 'valeur refusée',
  },

  /** Reasons given by the zod schemas, quoted in `details` after « Champ … invalide : ». */
  rules: {
    atMostCharacters: (max: number) => `${max} caractères au plus`,
    stageReference: 'un identifiant ou un nom d’étape est attendu',
    tagReference: 'un identifiant ou un nom de tag est attendu',
    oneFieldToChange: 'au moins un champ à modifier est attendu',
    /** `PATCH /workspaces/{w}` without a setting: the settings it may change, by their fields' names. */
    oneSettingToChange: (names: string) => `au moins un réglage à modifier est attendu (${names})`,
    timeZone: timeZoneExpected,
    /** `retention_months` of `PATCH /workspaces/{w}`, in the range lib/domain/retention.ts holds. */
    retentionMonths: (min: number, max: number) => retentionExpected(min, max, 'null'),
    /** `events` of `POST` and `PATCH /subscriptions`: the event types as the command line's `--events a,b` takes them. */
    eventTypeList: "une liste de types d'événements, chacun sans virgule, est attendue",
    trueOrFalse: 'true ou false est attendu',
    zonedTimestamp: 'une date ISO 8601 avec fuseau horaire est attendue (ex. 2026-12-01T09:30:00+01:00)',
    blankNote: 'le contenu ne peut pas être vide',
    noteTooLong: (max: number) => `${max} caractères au plus (un emoji compte pour un)`,
    emailAddress: 'une adresse e-mail valide est attendue',
    uuid: 'un identifiant UUID est attendu',
    answersObject:
      'un objet « question : réponse » est attendu, chaque réponse étant un texte, un nombre ou un booléen',
    atMostPairs: (max: number) => `${max} paires au plus`,
  },

  idempotency: {
    tooLong: (max: number) => `L'en-tête Idempotency-Key dépasse ${max} caractères.`,
    reused:
      'Cette clé Idempotency-Key a déjà servi pour un autre contenu : utilisez une nouvelle clé pour une nouvelle requête.',
    inFlight: 'Une requête avec cette clé Idempotency-Key est encore en cours : réessayez dans une seconde.',
  },

  prospect: {
    notFound: 'Prospect introuvable dans cet espace.',
    inProtectedStage: (stage: string) =>
      `Le prospect est à l'étape « ${stage} » : une vente se gère dans l'application, pas par l'API.`,
    toProtectedStage: (stage: string) =>
      `L'étape « ${stage} » se gère dans l'application : l'API ne peut pas y placer un prospect.`,
    unknownStage: (reference: string) =>
      `Étape ${q(reference)} introuvable : donnez l'identifiant d'une étape d'un pipeline actif de l'espace ou le nom exact d'une étape du pipeline du prospect.`,
    unknownMember: (field: string) => `Champ « ${field} » : ce membre n'existe pas dans l'espace.`,
    unknownTag: (reference: string) =>
      `Tag ${q(reference)} introuvable dans l'espace : l'API ne crée pas de tags, créez-le dans l'application.`,
  },

  candidate: {
    notFound: 'Candidat introuvable dans cet espace.',
  },

  note: {
    invalidDate: "La date de la note n'est pas une date ISO 8601 valide : la date de réception a été retenue.",
    futureDate: 'La date de la note est dans le futur : la date de réception a été retenue.',
  },

  /** Custom fields (docs/api.md#custom-fields): their definitions, and their values sent by a lead or a PATCH. */
  fields: {
    keyPattern:
      'une clé de 1 à 40 caractères est attendue : lettres minuscules sans accent, chiffres et « _ », commençant par une lettre',
    reservedName:
      'ce nom est lu par le webhook de leads lui-même (first_name, last_name, email, phone, social_url, source, tag_ids, tags, pipeline, stage, fields, id)',
    textLength: (field: string, max: number) =>
      field === 'option'
        ? `chaque option a de 1 à ${max} caractères`
        : field === 'alias'
          ? `chaque alias a de 1 à ${max} caractères`
          : `de 1 à ${max} caractères`,
    type: 'text, number, date, boolean, choice ou multi_choice attendu',
    optionComma: 'une option ne contient pas de virgule (une réponse à choix multiples les sépare par des virgules)',
    optionsCount: (max: number) => `de 1 à ${max} options`,
    optionsRepeated: 'deux options portent le même nom',
    aliasesCount: (max: number) => `${max} alias au plus`,
    aliasesRepeated: 'deux alias portent le même nom',
    updateRule: '« always » ou « if_empty » attendu',
    optionsRequired: 'les types choice et multi_choice demandent leurs options',
    optionsRefused: 'seuls les types choice et multi_choice ont des options',
    keyFixed: 'la clé d’un champ ne change pas',
    typeFixed: 'le type d’un champ ne change pas',
    unknownField: (key: string) => `Champ personnalisé ${q(key)} introuvable dans cet espace.`,
    keyTaken: (key: string) =>
      `La clé ${q(key)} est déjà prise dans cet espace (une clé d’un champ supprimé ne resert pas).`,
    nameTaken: (name: string) => `${q(name)} est déjà la clé ou un alias d’un autre champ de cet espace.`,
    tooMany: (max: number) =>
      `Cet espace a déjà ${max} champs personnalisés : supprimez-en un avant d’en créer un autre.`,
    tooLarge: (kilobytes: number) =>
      `Les définitions des champs dépasseraient ${kilobytes} Ko : raccourcissez des libellés, des options ou des alias.`,
    optionDropped: (option: string) =>
      `L’option ${q(option)} manque : des prospects peuvent l’avoir, une option ne se retire pas.`,
    leadFieldsNotObject:
      'Champ « fields » ignoré : un objet est attendu, chaque clé celle d’un champ personnalisé (« fields[clé] » en formulaire).',
    /** A lead's value that does not fit: the field is named, never the value (it may be personal data). */
    leadValueRefused: (label: string, key: string) =>
      `Champ « ${label} » (${key}) ignoré : la valeur envoyée ne correspond pas à son type.`,
    leadValuesTooLarge: (label: string, key: string, kilobytes: number) =>
      `Champ « ${label} » (${key}) ignoré : les valeurs des champs d’un prospect dépasseraient ${kilobytes} Ko.`,
    patchValueRefused: (label: string) => `la valeur ne correspond pas au type du champ « ${label} »`,
    patchUnknownField: (key: string) => `Champ personnalisé « ${key} » introuvable dans cet espace.`,
    patchValuesTooLarge: (kilobytes: number) => `les valeurs des champs d’un prospect dépasseraient ${kilobytes} Ko`,
  },

  /** Query parameters of the read routes (docs/api.md#read-routes). */
  query: {
    invalidLimit: 'Paramètre « limit » invalide : un nombre entier de 1 à 100 est attendu.',
    invalidCursor:
      "Paramètre « cursor » invalide : donnez tel quel le « next_cursor » d'une page précédente de cette même liste.",
    repeated: (name: string) => `Paramètre « ${name} » répété : une seule valeur est attendue.`,
    oneContact: 'Donnez exactement un des paramètres « email », « phone » ou « social_url ».',
    contactAlone: (name: string) =>
      `Paramètre ${q(name)} refusé : la recherche par contact (email, phone ou social_url) ne prend aucun autre paramètre.`,
    unreadableContact: (name: string) =>
      `Paramètre « ${name} » invalide : le webhook de leads ne retiendrait pas cette valeur pour retrouver un prospect.`,
  },

  /**
   * The look-up of a person's candidates, `GET /workspaces/{w}/candidates?email=`
   * (docs/api.md#erasure-export-and-retention).
   */
  candidateLookup: {
    missingEmail: "Paramètre « email » manquant : l'adresse e-mail des candidatures à retrouver est attendue.",
    invalidEmail:
      'Paramètre « email » invalide : une adresse e-mail, comme le webhook de recrutement la lit, est attendue.',
    unknownParameter: (name: string) =>
      `Paramètre ${q(name)} inconnu : la recherche de candidats ne prend que « email ».`,
  },

  /** The list of a workspace's prospects, `GET /prospects` without a contact (docs/api.md#lists-of-prospects). */
  lists: {
    unknownParameter: (name: string) => `Paramètre ${q(name)} inconnu : la liste des prospects ne le lit pas.`,
    tooManyIds: (max: number) => `Paramètre « id » : ${max} identifiants au plus.`,
    tooManyValues: (name: string, max: number) =>
      `Paramètre « ${name} » : ${max} valeurs au plus en tout pour les filtres de la liste (« id » à part).`,
    invalidId: 'Paramètre « id » invalide : un UUID est attendu.',
    blank: (name: string) => `Paramètre « ${name} » vide : un identifiant ou un nom est attendu.`,
    invalidMember: (name: string) =>
      name === 'member_id'
        ? "Paramètre « member_id » invalide : l'identifiant (UUID) d'un membre est attendu."
        : `Paramètre « ${name} » invalide : l'identifiant (UUID) d'un membre ou « none » est attendu.`,
    invalidFollowUp: 'Paramètre « follow_up » invalide : overdue, today, due, none ou any est attendu.',
    invalidInstant: (name: string) =>
      `Paramètre « ${name} » invalide : une date AAAA-MM-JJ ou un horodatage ISO 8601 avec son fuseau (Z ou ±HH:MM) est attendu.`,
    invalidSort:
      'Paramètre « sort » invalide : -created_at, created_at, -updated_at, updated_at ou next_follow_up_at est attendu.',
    invalidFieldValue: (name: string, fieldName: string) =>
      `Paramètre « ${name} » invalide : la valeur ne correspond pas au type du champ « ${fieldName} ».`,
    unknownPipeline: (reference: string) => `Pipeline de vente ${q(reference)} introuvable dans l'espace.`,
    unknownStage: (reference: string) =>
      `Étape ${q(reference)} introuvable : donnez l'identifiant d'une étape de l'espace, ou son nom dans le pipeline donné (s'il est seul) ou sinon dans le pipeline par défaut.`,
    unknownTag: (reference: string) => `Tag ${q(reference)} introuvable dans l'espace.`,
    unknownMember: (name: string) => `Paramètre « ${name} » : ce membre n'existe pas dans l'espace.`,
  },

  /** Path parameters, which a client sends percent-encoded (lib/http/request-input.ts). */
  path: {
    unreadable: (name: string) =>
      `Paramètre « ${name} » du chemin illisible : un encodage UTF-8 en pourcentages est attendu (par exemple %C3%A9 pour « é », %25 pour « % »).`,
  },

  lead: {
    noContact: 'Le prospect doit avoir au moins un moyen de contact valide : « email », « phone » ou « social_url ».',
    unknownField: (name: string) => `Champ inconnu ignoré : ${q(name)}.`,
    tagsField: 'Le champ « tags » est ignoré : utilisez « tag_ids » avec les identifiants des tags.',
    wrongType: (name: string) => `Champ « ${name} » ignoré : une chaîne de caractères est attendue.`,
    invalidEmail: "Champ « email » ignoré : ce n'est pas une adresse e-mail valide.",
    tooLong: (name: string, max: number) => `Champ « ${name} » ignoré : ${max} caractères au plus.`,
    wrongTagIds: 'Champ « tag_ids » ignoré : une liste d’identifiants de tags est attendue.',
    tooManyTags: (max: number) =>
      `Seuls les ${max} premiers identifiants distincts de « tag_ids » sont lus ; les suivants sont ignorés.`,
    moreIgnored: (count: number) =>
      count === 1
        ? '1 autre champ ignoré n’est pas nommé ici.'
        : `${count} autres champs ignorés ne sont pas nommés ici.`,
    unknownTag: (id: string) => `Tag introuvable ignoré : ${q(id)}.`,
    pipelineNotFound: (name: string) => `Pipeline ${q(name)} introuvable : ${defaultPlacement}`,
    stageNotFound: (name: string, pipeline: string) =>
      `Étape ${q(name)} introuvable dans le pipeline « ${pipeline} » : ${defaultPlacement}`,
    protectedStage: (stage: string) =>
      `L'étape « ${stage} » est réservée aux ventes saisies dans l'application : ${defaultPlacement}`,
    noPipeline: "L'espace n'a aucun pipeline actif : le prospect est créé sans être placé sur un tableau.",
    notMoved: "Contact déjà connu : le prospect n'a pas été déplacé dans le pipeline.",
    emailTaken: "L'adresse e-mail envoyée appartient déjà à un autre prospect : elle n'a pas été appliquée.",
    phoneTaken: "Le numéro de téléphone envoyé appartient déjà à un autre prospect : il n'a pas été appliqué.",
  },

  recruitment: {
    nestedPayload:
      'Ce format imbriqué (« data.fields » ou « form_response.answers ») n’est pas accepté : aplatissez les réponses ' +
      'avant l’envoi. Avec Zapier ou Make, associez chaque champ du formulaire à un champ du webhook ' +
      '(email, name, phone, position…) et chaque question à une clé « answers[Question] ».',
    missingName: 'Le champ « name » est requis quand « first_name » est absent.',
    answersTooLarge: (max: number) => `Les réponses (« answers ») dépassent la taille d'une note (${max} caractères).`,
    pipelineIdNotFound: (id: string) => `Aucun pipeline de recrutement actif ne porte l'identifiant ${q(id)}.`,
    pipelineNameNotFound: (name: string) => `Aucun pipeline de recrutement actif ne s'appelle ${q(name)}.`,
    ambiguousPipeline: (name: string) =>
      `Plusieurs pipelines de recrutement s'appellent ${q(name)} : utilisez « pipeline_id » pour choisir.`,
    noPipeline: "L'espace n'a aucun pipeline de recrutement actif : créez-en un dans l'application.",
    noColumn: (pipeline: string) => `Le pipeline de recrutement « ${pipeline} » n'a aucune colonne.`,
    resubmittedWithoutAnswers: 'Nouvelle candidature reçue, sans réponses de formulaire.',
  },

  changeLog: {
    unknownEntry: (id: string) => `Entrée du journal inconnue dans cet espace : ${id}.`,
    noteNotUndone: "Une note ne s'annule pas : l'API ne supprime jamais une note.",
    alreadyUndone: (at: string) => `Cette modification a déjà été annulée le ${at}.`,
    prospectMoved: 'Le prospect a été modifié depuis cette entrée : annulation refusée, rien n’a changé.',
    prospectMissing: 'Le prospect de cette entrée est introuvable.',
  },

  /** The settings API's prospect routes (docs/api.md#settings-api): `POST /workspaces/{w}/changes/{entry}/undo`. */
  settingsProspects: {
    unknownEntry: 'Entrée du journal introuvable dans cet espace.',
  },

  /** The members of a workspace (docs/api.md#sign-in): refusals of the settings API and of `member add`. */
  members: {
    roles: { admin: 'administrateur', member: 'membre' },
    invalidRole: (value: string) => `Rôle invalide : ${q(value)} (admin ou member attendu).`,
    /** The reason quoted after « Champ « role » invalide : » (settings API bodies). */
    roleExpected: '« admin » ou « member » attendu',
    emailRequired: "L'adresse e-mail du membre est obligatoire : c'est avec elle qu'il se connecte.",
    emailTaken: (email: string) =>
      `${q(email)} est déjà membre de cet espace (la casse ne compte pas) : rien n'a changé.`,
    unknown: (id: string) => `Membre inconnu dans cet espace : ${quotedStart(id)}`,
    noEmail: (id: string) => `Le membre ${id} n'a pas d'adresse e-mail : il ne peut pas être invité.`,
    removed: (id: string) => `Le membre ${id} a été retiré de l'espace : rien n'a changé.`,
    /** The identity provider knows the person in a status its invitations never make (docs/api.md, « Members »). */
    accountNotInvitable: (email: string, status: string) =>
      `${q(email)} a un compte dans l'état ${status} chez le fournisseur d'identité, que le service n'invite pas : rien n'a changé.`,
    /** `member add`'s « Invitation » line: whether the person was invited. */
    invitationMade: 'faite',
    invitationNone: 'aucune : la personne a déjà choisi son mot de passe, qui reste le sien',
    /** `member add --password` for a person who chose a password: it is theirs, and stays. */
    passwordKept: (email: string) =>
      `${q(email)} a déjà choisi son mot de passe : --password ne le remplace pas. Rien n'a changé.`,
    lastAdmin:
      "C'est le dernier administrateur de l'espace qui peut se connecter : nommez-en d'abord un autre. Rien n'a changé.",
    /** `member add --password` with --aws: on AWS the person is invited by e-mail and chooses a password. */
    passwordLocalOnly:
      "--password ne sert qu'avec le fournisseur d'identité local : sur AWS, la personne reçoit son invitation par e-mail.",
    /** `member add` where the command line knows no identity provider to invite with. */
    identityProviderMissing:
      "Avec --aws, les variables USER_POOL_ID et USER_POOL_CLIENT_ID doivent nommer le pool d'utilisateurs déployé (sorties UserPoolId et UserPoolClientId de la pile) : le membre ne peut pas être invité sans lui.",
    /** `member add` on local tables where no `npm start` has written where its identity provider is. */
    localIdentityProviderMissing:
      "Aucun fournisseur d'identité local n'est inscrit dans cette table : lancez npm start sur ces tables, puis recommencez.",
  },

  /** The audit log's summaries (docs/api.md#audit-log): what happened, naming records, never a secret. */
  audit: {
    apiKeyCreated: (name: string) => `Clé d'API ${q(name)} créée.`,
    apiKeyRevoked: (name: string) => `Clé d'API ${q(name)} révoquée.`,
    webhookGenerated: 'Webhook généré.',
    webhookTokenRegenerated: "Jeton du webhook régénéré : l'ancien ne fonctionne plus.",
    webhookEnabled: 'Webhook activé.',
    webhookDisabled: 'Webhook désactivé.',
    webhookCallReplayed: (callId: string, status: number) => `Appel du webhook ${callId} rejoué (réponse ${status}).`,
    /** `role` already in words (members.roles). */
    memberInvited: (email: string, role: string) => `${email} invité comme ${role}.`,
    memberInvitedAgain: (email: string) => `Invitation envoyée à nouveau à ${email}.`,
    /** A person who already chose a password (a member of another workspace): neither invitation nor new password. */
    memberAdded: (email: string, role: string) =>
      `${email} ajouté comme ${role}, avec le compte qu'il a déjà : ni invitation ni nouveau mot de passe.`,
    memberNotInvitedAgain: (email: string) =>
      `Invitation non renvoyée à ${email} : la personne a déjà choisi son mot de passe.`,
    memberRoleChanged: (name: string, before: string, after: string) =>
      `Rôle de ${q(name)} changé : ${before} → ${after}.`,
    memberRemoved: (name: string) => `${q(name)} retiré de l'espace.`,
    tagCreated: (name: string) => `Tag ${q(name)} créé.`,
    tagRenamed: (before: string, after: string) => `Tag ${q(before)} renommé ${q(after)}.`,
    /** A custom field by its label and key (docs/api.md#custom-fields). */
    fieldCreated: (label: string, key: string) => `Champ personnalisé ${q(label)} (${key}) créé.`,
    /** `changed`: the parts changed, in words (`fieldParts`), separated by commas. */
    fieldChanged: (label: string, key: string, changed: string) =>
      `Champ personnalisé ${q(label)} (${key}) modifié : ${changed}.`,
    fieldDeleted: (label: string, key: string) =>
      `Champ personnalisé ${q(label)} (${key}) supprimé : ses valeurs ne sont plus montrées et seront effacées.`,
    /** What a PATCH of a custom field may change, as `fieldChanged` names it. */
    fieldParts: { label: 'libellé', options: 'options', aliases: 'alias', update: 'mise à jour par un lead' },
    /** A subscription by its URL's host only: a query string may carry the receiver's own token. */
    subscriptionCreated: (host: string) => `Abonnement vers ${host} créé.`,
    subscriptionEnabled: 'Abonnement activé.',
    subscriptionDisabled: 'Abonnement désactivé.',
    /** `PATCH /subscriptions/{s}` with `events`: the types it now sends, already joined with « , ». */
    subscriptionEventsChanged: (types: string) => `Événements envoyés par l'abonnement remplacés : ${types}.`,
    subscriptionDeleted: 'Abonnement supprimé.',
    subscriptionSecretRotated: "Secret de signature de l'abonnement renouvelé (l'ancien reste valable 24 heures).",
    deliveryRedelivered: (status: string) => `Envoi renvoyé (état : ${status}).`,
    /** `POST /deliveries/{d}/redeliver`: the attempt is queued, the delivery function sends it. */
    deliveryRedeliveryQueued: 'Envoi remis en file pour être renvoyé aussitôt.',
    changeUndone: (field: string, prospectId: string) =>
      `Modification du champ ${field} du prospect ${prospectId} annulée.`,
    /** An erasure names the record by its id alone: nothing of the person stays in the log. */
    prospectErased: (prospectId: string) => `Prospect ${prospectId} effacé, avec ses notes, son journal et ses copies.`,
    candidateErased: (candidateId: string) => `Candidat ${candidateId} effacé, avec ses notes et ses copies.`,
    /** The workspace's retention erases by no member: the summary says why. */
    erasedForRetention: (months: number) =>
      ` Effacé par la durée de conservation de l'espace : aucune écriture depuis ${months} mois.`,
    /** One entry per setting changed: the setting (`workspaceSettings`), its values before and after. */
    workspaceSettingChanged: (setting: string, before: string, after: string) =>
      `Réglage de l'espace modifié : ${setting} ${before} → ${after}.`,
    /** What `PATCH /workspaces/{w}` may change, as `workspaceSettingChanged` names it. */
    workspaceSettings: { time_zone: 'fuseau horaire', retention_months: 'conservation des données' },
    /** A retention as `workspaceSettingChanged` quotes it before and after a change. */
    retention: (months: number | null) => (months === null ? "jusqu'à effacement" : `${months} mois`),
    /** An export names the person by id only: an audit entry holds no personal data (docs/api.md#exports). */
    prospectExported: (prospectId: string) => `Données du prospect ${prospectId} exportées.`,
    candidateExported: (candidateId: string) => `Données du candidat ${candidateId} exportées.`,
  },

  /** Erasure (docs/api.md#erasure-export-and-retention). */
  erasure: {
    /** The record kept changing under the erasure: nothing erased. */
    contended: "Le dossier a été modifié pendant l'effacement : rien n'a été effacé, recommencez.",
  },

  /** Outbound events (docs/api.md#outbound-events): why an attempt failed, kept as a delivery's `last_error`. */
  delivery: {
    invalidUrl: 'adresse invalide',
    httpsRequired: (protocol: string) =>
      `protocole ${protocol.replace(/:$/, '')} refusé (https attendu ; http seulement vers 127.0.0.1 ou localhost en local)`,
    privateAddress: (address: string) =>
      `adresse refusée (non publique : privée, locale, réservée ou de bouclage) : ${address}`,
    unresolved: (code: string) => `nom de domaine introuvable : ${code}`,
    timeout: (seconds: number) => `délai de ${seconds} s dépassé`,
    connectionFailed: (code: string) => `connexion impossible : ${code}`,
    unexpectedStatus: (status: number) => `réponse HTTP ${status} (2xx attendu, redirections non suivies)`,
    subscriptionDeleted: 'abonnement supprimé',
    subscriptionDisabled: 'abonnement désactivé',
    /** A subscription whose secret is still where an earlier version wrote it (docs/data-model.md, "Signing secrets"). */
    signingSecretsMissing: 'secret de signature introuvable : lancez « subscription migrate-secrets » (rien envoyé)',
    /** `subscription redeliver` on a disabled subscription: exit 2, nothing sent. */
    redeliverDisabled: (id: string) => `Abonnement désactivé : ${id} (réactivez-le avant de renvoyer un envoi).`,
    redeliverSubscriptionDeleted: (id: string) => `L'abonnement de cet envoi a été supprimé : ${id}`,
    /** The POST was made, but the delivery kept changing under its record. */
    redeliverContended:
      "L'envoi a été renvoyé, mais modifié en même temps par la tentative planifiée : son état n'a pas pu être enregistré.",
  },

  /** The admin command line (lib/settings): refusals print after « Erreur : » and exit with 2. */
  admin: {
    /** A command that writes or reads signing secrets, with --aws and no SECRETS_TABLE_NAME. */
    secretsTableRequired:
      'Avec --aws, la variable SECRETS_TABLE_NAME doit donner le nom de la table des secrets de signature déployée (sortie SecretsTableName de la pile).',
    /** An id given to an admin command: not a UUID, or naming nothing in the workspace. */
    ids: {
      malformed: {
        workspace: (value: string) => uuidExpected("Identifiant d'espace de travail invalide", value),
        apiKey: (value: string) => uuidExpected("Identifiant de clé d'API invalide", value),
        prospect: (value: string) => uuidExpected('Identifiant de prospect invalide', value),
        candidate: (value: string) => uuidExpected('Identifiant de candidat invalide', value),
        changeLogEntry: (value: string) => uuidExpected("Identifiant d'entrée du journal invalide", value),
        salesPipeline: (value: string) => uuidExpected('Identifiant de pipeline de vente invalide', value),
        recruitmentPipeline: (value: string) => uuidExpected('Identifiant de pipeline de recrutement invalide', value),
        webhookCall: (value: string) => uuidExpected("Identifiant d'appel du webhook invalide", value),
        subscription: (value: string) => uuidExpected("Identifiant d'abonnement invalide", value),
        delivery: (value: string) => uuidExpected("Identifiant d'envoi invalide", value),
      },
      unknown: {
        workspace: (id: string) => `Espace de travail inconnu : ${id}`,
        apiKey: (id: string) => `Clé d'API inconnue dans cet espace : ${id}`,
        prospect: (id: string) => `Prospect inconnu dans cet espace : ${id}`,
        candidate: (id: string) => `Candidat inconnu dans cet espace : ${id}`,
        salesPipeline: (id: string) => `Pipeline de vente inconnu dans cet espace : ${id}`,
        recruitmentPipeline: (id: string) => `Pipeline de recrutement inconnu dans cet espace : ${id}`,
        webhookCall: (id: string) => `Appel du webhook inconnu dans cet espace : ${id}`,
        subscription: (id: string) => `Abonnement inconnu dans cet espace : ${id}`,
        delivery: (id: string) => `Envoi inconnu dans cet espace : ${id}`,
      },
    },

    /** `subscription …` (docs/api.md#outbound-events): the URL and event types of a subscription, its deliveries. */
    subscription: {
      invalidUrl: (value: string) =>
        `URL invalide : ${q(value)} (une adresse complète est attendue, par exemple https://exemple.fr/crm/evenements).`,
      urlTooLong: (length: number, max: number) => `URL trop longue : ${length} caractères pour ${max} au plus.`,
      httpsRequired: (value: string) =>
        `L'URL doit être en https : ${q(value)} (http n'est accepté que vers 127.0.0.1 ou localhost, en local).`,
      urlCredentials:
        "L'URL ne doit contenir ni utilisateur ni mot de passe (utilisateur:motdepasse@) : la signature des envois authentifie le service.",
      privateHost: (host: string) =>
        `L'adresse ${q(host)} n'est pas publique (privée, locale, réservée ou de bouclage) : le service sur AWS ne livre pas à une telle adresse.`,
      noEventType: "Indiquez au moins un type d'événement (events).",
      /** Both lists already joined with « , ». */
      unknownEventTypes: (unknown: string, possible: string) =>
        `Type d'événement inconnu : ${unknown} (types possibles : ${possible}).`,
      invalidStatus: (value: string) => `Statut invalide : ${q(value)} (pending, delivered ou failed attendu).`,
      /** `rotate-secret` on a subscription written by an earlier version, its secret not yet moved. */
      secretNotMoved: (id: string) =>
        `Le secret de l'abonnement ${id} n'a pas encore été déplacé : lancez d'abord « subscription migrate-secrets ».`,
    },

    apiKeys: {
      noScope: 'Indiquez au moins un droit pour la clé.',
      /** Both lists already joined with « , ». */
      unknownScopes: (unknown: string, possible: string) =>
        `Droit inconnu : ${unknown} (droits possibles : *, ${possible}).`,
      blankName: 'Le nom de la clé ne peut pas être vide.',
    },

    webhook: {
      notGenerated: "Cet espace n'a pas encore de webhook : générez-le d'abord.",
      /** An internal failure (exit 1): the workspace names an endpoint that is not stored. */
      endpointMissing: (endpointId: string, workspaceId: string) =>
        `Le webhook ${endpointId} de l'espace ${workspaceId} est introuvable.`,
      /** `webhook calls --limit`. */
      invalidLimit: (value: string, max: number) =>
        `Valeur de --limit invalide : ${q(value)} (un nombre entier de 1 à ${max} attendu).`,
      /** `webhook replay` of a call whose body was not kept (a success, or a refusal before authentication). */
      noBodyKept: (id: string) =>
        `L'appel ${id} n'a pas de corps conservé (seuls les appels authentifiés en échec gardent le leur) : rien à rejouer.`,
      /** `webhook replay` of a call whose body was kept cut at 64 KB: what remains is not what was sent. */
      bodyTruncated: (id: string) =>
        `Le corps de l'appel ${id} a été tronqué à 64 Ko à sa réception : il ne peut pas être rejoué tel qu'il a été envoyé.`,
      /** An internal failure (exit 1): the replayed call left no journal entry. */
      replayNotJournaled: (requestId: string) => `L'appel rejoué (${requestId}) n'a pas été journalisé.`,
    },

    changeLog: {
      prospectOrKey: 'Donnez soit --prospect, soit --key.',
    },

    /** `workspace set` (docs/api.md#workspaces). */
    workspaceSettings: {
      nothingToSet:
        'Indiquez au moins une option à changer : --phone-matching, --phone-region, --time-zone ou --retention-months.',
      invalidMatching: (value: string) => `Valeur de --phone-matching invalide : ${q(value)} (exact ou e164 attendu).`,
      invalidRegion: (value: string) =>
        `Valeur de --phone-region invalide : ${q(value)} (un code de pays ISO à deux lettres connu attendu, par exemple FR ou BE).`,
      invalidTimeZone: (value: string) => `Valeur de --time-zone invalide : ${q(value)} : ${timeZoneExpected}.`,
      invalidRetention: (value: string, min: number, max: number) =>
        `Valeur de --retention-months invalide : ${q(value)} : ${retentionExpected(min, max, 'none')}.`,
      /** An internal failure (exit 1): every round lost to a concurrent change. */
      contended: (rounds: number) =>
        `Les réglages de l'espace ont changé pendant chacun des ${rounds} essais : rien n'a été enregistré, réessayez.`,
    },

    /** `tag add`, `member add`, `pipeline add`, `stage add`, `column add`: edits of the configuration item. */
    config: {
      blankName: 'Le nom ne peut pas être vide.',
      blankStageType:
        "Le type de l'étape ne peut pas être vide (par exemple « Appointment Setting » ou « Follow up »).",
      invalidEmail: (value: string) => `Adresse e-mail invalide : ${q(value)}.`,
      tagNameTaken: (name: string) => `Un tag nommé ${q(name)} existe déjà (la casse ne compte pas) : rien n'a changé.`,
      unknownTag: (id: string) => `Tag inconnu dans cet espace : ${quotedStart(id)}`,
      pipelineNameTaken: (name: string) =>
        `Un pipeline de vente nommé ${q(name)} existe déjà (la casse ne compte pas) : rien n'a changé.`,
      stageNameTaken: (name: string, pipeline: string) =>
        `Le pipeline ${q(pipeline)} a déjà une étape nommée ${q(name)} (la casse ne compte pas) : rien n'a changé.`,
      /** DynamoDB refuses an item over 400 KB; the configuration item keeps a margin under it. */
      tooLarge: (bytes: number, max: number) =>
        `Configuration trop volumineuse après cette modification : environ ${Math.ceil(bytes / 1000)} Ko pour un maximum de ${Math.floor(max / 1000)} Ko (membres, tags, pipelines et étapes tiennent dans un seul élément DynamoDB) : rien n'a changé.`,
      /** An internal failure (exit 1): every optimistic round lost to another edit. */
      contended: (rounds: number) =>
        `La configuration de l'espace a été modifiée par d'autres pendant ${rounds} tentatives : rien n'a changé, réessayez.`,
    },

    /** `stream replay`: the stream batches the mapping gave up, kept in S3 (docs/operations.md, alarm StreamFailures). */
    streamReplay: {
      /** `part`: « l'enregistrement d'invocation » or « son payload »; `detail`: what is wrong in it. */
      unreadable: (part: string, detail: string) => `Lot conservé illisible : ${part} ${detail}.`,
      invocationRecord: "l'enregistrement d'invocation",
      payload: 'son payload (l’événement du flux, en JSON dans une chaîne)',
      notJson: "n'est pas du JSON",
      /** The fields joined with « , ». */
      missingFields: (fields: string) => `n'a pas les champs attendus (${fields})`,
      emptyObject: 'est un objet vide',
      fanOutFailed: (sequenceNumber: string) =>
        `Diffusion en échec à partir de l'enregistrement ${sequenceNumber || '(sans numéro de séquence)'} : le lot est gardé, relancez la commande une fois la cause corrigée.`,
      sourceMissing:
        "Indiquez --file <enregistrement d'invocation gardé>, ou --aws pour lire le compartiment du déploiement.",
      bucketMissing:
        'Avec --aws, la variable STREAM_FAILURE_BUCKET doit donner le compartiment des lots gardés (sortie StreamFailureBucketName de la pile).',
      queueMissing:
        'Avec --aws, la variable DELIVERY_QUEUE_URL doit donner la file des envois (sortie DeliveryQueueUrl de la pile).',
      followUpQueueMissing:
        'Avec --aws, la variable FOLLOW_UP_QUEUE_URL doit donner la file des rappels (sortie FollowUpQueueUrl de la pile).',
      unreadableFile: (path: string, reason: string) => `Fichier illisible : ${q(path)} (${reason}).`,
    },

    /** `seed`: every problem of a description, one line each, in a single refusal. */
    seed: {
      invalid: (lines: string) => `Description de seed invalide :\n${lines}`,
      /** `where` is the problem's path joined with dots, empty for the description as a whole. */
      problem: (where: string, message: string) => `- ${where === '' ? 'description' : where} : ${message}`,
      invalidEmail: 'adresse e-mail invalide',
      unlabelledProspect: 'donnez à ce prospect une clé (key), un e-mail, un téléphone ou un profil social',
      unknownMember: (reference: string) => `membre « ${reference} » inconnu`,
      invalidFollowUp: 'date ISO 8601 avec fuseau horaire invalide ou inexistante',
      unknownTag: (reference: string) => `tag « ${reference} » inconnu`,
      unknownPipeline: (reference: string) => `pipeline de vente « ${reference} » inconnu`,
      stageWithoutPipeline: "étape impossible : l'espace n'a aucun pipeline de vente",
      unknownStage: (reference: string) => `étape « ${reference} » inconnue dans ce pipeline`,
      /** `owner` is the path, joined with dots, of the entry that claimed the value first. */
      contactTaken: (owner: string) => `déjà utilisé par ${owner}`,
      labelTaken: (label: string) => `clé « ${label} » déjà utilisée dans cette liste`,
      nameTaken: (name: string, owner: string) => `nom « ${name} » déjà pris par ${owner} (la casse ne compte pas)`,
      secondDefault: 'un seul pipeline de ce type peut être par défaut',
      /** DynamoDB refuses an item over 400 KB; the configuration item keeps a margin under it. */
      configTooLarge: (bytes: number, max: number) =>
        `configuration trop volumineuse : environ ${Math.ceil(bytes / 1000)} Ko pour un maximum de ${Math.floor(max / 1000)} Ko (membres, tags, pipelines et étapes tiennent dans un seul élément DynamoDB)`,
    },
  },
} as const;
