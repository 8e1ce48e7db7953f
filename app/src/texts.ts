import { formatDateTime } from './dates';
import type { components } from './settings-api';

/** An audit entry's `action`, as the API enumerates it (docs/api.md#audit-log). */
type AuditAction = components['schemas']['AuditPage']['entries'][number]['action'];
type CustomField = components['schemas']['FieldDefinition'];
/** A follow-up window and an order of the list of prospects, as the API names them (docs/api.md#lists-of-prospects). */
type ListFollowUp = components['parameters']['ListFollowUp'][number];
type ListSort = components['parameters']['ListSort'];

/** The shown-once box of an invitation's password, named as the status that points to it names it. */
const temporaryPassword = (email: string) => `Mot de passe provisoire de ${email}`;

/** Every text of the settings page a person reads, in French, in one place; the API's own messages are shown as sent. */
export const texts = {
  title: 'Réglages du CRM',
  /** The tab's title: the screen, its workspace, the page. */
  pageTitle: (...parts: string[]) => [...parts, 'Réglages du CRM'].join(' – '),
  table: { actions: 'Actions' },
  signIn: {
    heading: 'Connexion',
    email: 'Adresse e-mail',
    password: 'Mot de passe',
    submit: 'Se connecter',
    pending: 'Connexion…',
    newPassword: 'Nouveau mot de passe',
    passwordRules: 'Au moins 12 caractères, dont une minuscule, une majuscule, un chiffre et un autre caractère.',
    forgotten: 'Mot de passe oublié ?',
    /** The first sign-in of an invited person: the provisional password accepted, their own to choose. */
    choose: {
      heading: 'Choisissez votre mot de passe',
      intro: (email: string) =>
        `Le mot de passe provisoire de ${email} est accepté. Choisissez maintenant le vôtre : il le remplace dès cette connexion.`,
      submit: 'Enregistrer et se connecter',
    },
  },
  /** « Mot de passe oublié »: the code comes by e-mail on AWS; `npm start` sends none and prints it (./local-server.ts). */
  reset: {
    heading: 'Mot de passe oublié',
    send: 'Recevoir un code',
    where: 'Le code arrive par e-mail à cette adresse.',
    whereLocally: 'Serveur local : aucun e-mail ne part ; le code s’affiche dans le terminal où tourne npm start.',
    sent: (email: string) => `Si ${email} a un compte, un code vient de lui être envoyé par e-mail.`,
    sentLocally: (email: string) =>
      `Si ${email} a un compte, son code vient de s’afficher dans le terminal où tourne npm start.`,
    code: 'Code de réinitialisation',
    confirm: 'Changer le mot de passe',
    done: 'Mot de passe changé : connectez-vous avec le nouveau.',
    back: 'Retour à la connexion',
  },
  workspaces: {
    heading: 'Vos espaces',
    none: "Vous n'êtes membre d'aucun espace.",
    role: { admin: 'administrateur', member: 'membre' },
    open: 'Ouvrir',
    openNamed: (name: string) => `Ouvrir l'espace ${name}`,
    name: 'Espace',
    yourRole: 'Votre rôle',
    unreachable: 'Espace introuvable',
    backToList: 'Revenir à vos espaces',
  },
  screens: {
    menu: 'Écrans de l’espace',
    tags: 'Tags & Webhook',
    fields: 'Champs',
    prospects: 'Prospects',
    apiKeys: 'Clés d’API',
    subscriptions: 'Abonnements',
    members: 'Membres',
    workspace: 'Espace',
    account: 'Mon compte',
    webhookCalls: 'Appels du webhook',
    audit: 'Journal d’audit',
  },
  /** « Espace »: the workspace's own settings (docs/api.md#workspaces), its time zone and its retention. */
  workspaceSettings: {
    heading: 'Réglages de l’espace',
    name: 'Nom',
    timeZone: 'Fuseau horaire',
    retention: 'Conservation des données',
    /** `retention_months` as the summary says it: null is the default, kept until erased. */
    retentionShown: (months: number | null) =>
      months === null ? 'Jusqu’à effacement' : `${months} mois après la dernière modification`,
    now: 'Date et heure actuelles dans ce fuseau',
    /** A zone the browser's time zone database does not know (the API's may be newer). */
    unknownNow: 'Inconnues de ce navigateur.',
    change: {
      heading: 'Changer de fuseau horaire',
      timeZone: 'Fuseau horaire de l’espace',
      help: 'Son nom IANA, tel qu’il s’écrit (Europe/Paris, America/Montreal, UTC) : les journées de l’espace commencent et finissent à minuit dans ce fuseau.',
      submit: 'Enregistrer le fuseau horaire',
    },
    saved: (timeZone: string) => `Fuseau horaire de l’espace : ${timeZone}.`,
    changeRetention: {
      heading: 'Changer la conservation des données',
      months: 'Conservation des données',
      help: 'En mois, de 1 à 120 : un prospect ou un candidat que rien n’a modifié depuis est effacé. Vide : jusqu’à effacement.',
      submit: 'Enregistrer la conservation',
      /** What the page cannot send as a number at all; a number out of range is the API's to refuse. */
      notANumber:
        'Indiquez un nombre de mois, par exemple 36, ou laissez le champ vide pour garder les données jusqu’à leur effacement.',
    },
    retentionSaved: (months: number | null) =>
      months === null
        ? 'Données conservées jusqu’à leur effacement.'
        : `Données conservées ${months} mois après leur dernière modification.`,
  },
  tags: {
    heading: 'Tags',
    none: "Cet espace n'a encore aucun tag.",
    name: 'Nom du nouveau tag',
    add: 'Ajouter le tag',
    added: (name: string) => `Tag « ${name} » ajouté.`,
    column: 'Nom',
    renameShort: 'Renommer',
    rename: (name: string) => `Renommer le tag « ${name} »`,
    newName: (name: string) => `Nouveau nom du tag « ${name} »`,
    save: 'Enregistrer',
    cancel: 'Annuler',
    renamed: (before: string, after: string) => `Tag « ${before} » renommé en « ${after} ».`,
    idColumn: 'Identifiant (pour les intégrations)',
    copyId: (name: string) => `Copier l’identifiant du tag « ${name} »`,
  },
  /** « Champs »: the workspace's custom fields (docs/api.md#custom-fields), by the parts the API names. */
  fields: {
    heading: 'Champs personnalisés',
    none: "Cet espace n'a encore aucun champ personnalisé.",
    label: 'Libellé',
    key: 'Clé',
    type: 'Type',
    options: 'Options',
    aliases: 'Alias',
    update: 'Mise à jour par un lead',
    noOptions: '(aucune)',
    noAliases: '(aucun)',
    /** A type in words, by the name the API gives it: a new type fails the type check until it has words. */
    types: {
      text: 'Texte',
      number: 'Nombre',
      date: 'Date',
      boolean: 'Oui ou non',
      choice: 'Choix unique',
      multi_choice: 'Choix multiple',
    } satisfies Record<CustomField['type'], string>,
    /** What a lead of a contact already known does to a value already set, by the rule the API names. */
    updates: {
      always: 'Un lead remplace la valeur',
      if_empty: 'Un lead remplit seulement un champ vide',
    } satisfies Record<CustomField['update'], string>,
    /** A value of a yes-or-no field. */
    yes: 'Oui',
    no: 'Non',
    copyKey: (label: string) => `Copier la clé du champ « ${label} »`,
    create: {
      heading: 'Créer un champ',
      label: 'Libellé du nouveau champ',
      key: 'Clé du nouveau champ',
      keyHelp:
        'Le nom sous lequel un formulaire ou une intégration envoie la valeur : lettres minuscules sans accent, chiffres et « _ », en commençant par une lettre, 40 caractères au plus. Elle ne change plus ensuite.',
      type: 'Type du nouveau champ',
      typeHelp: 'Il ne change plus ensuite.',
      options: 'Options du nouveau champ',
      aliases: 'Alias du nouveau champ (facultatif)',
      submit: 'Créer le champ',
    },
    optionsHelp: 'Une option par ligne, sans virgule.',
    /** The update rule's choices, named by when it applies. */
    updateLegend: 'Quand un lead d’un contact déjà connu apporte une valeur',
    aliasesHelp:
      'Les autres noms sous lesquels un formulaire peut envoyer ce champ (le titre de la question, par exemple) : un par ligne.',
    created: (label: string) => `Champ « ${label} » créé.`,
    all: 'Tous les champs',
    named: (label: string) => `Champ « ${label} »`,
    unknown: 'Cet espace n’a pas de champ personnalisé à cette adresse.',
    editShort: 'Modifier',
    edit: (label: string) => `Modifier le champ « ${label} »`,
    change: {
      heading: 'Modifier le champ',
      label: 'Libellé',
      options: 'Options',
      optionsHelp:
        'Une option par ligne, sans virgule. Ajoutez-en ou changez leur ordre : une option ne se retire pas, des prospects peuvent l’avoir.',
      aliases: 'Alias (facultatif)',
      submit: 'Enregistrer le champ',
    },
    saved: (label: string) => `Champ « ${label} » enregistré.`,
    removeShort: 'Supprimer',
    remove: (label: string) => `Supprimer le champ « ${label} »`,
    confirmRemove: (label: string) =>
      `Supprimer le champ « ${label} » ? Ses valeurs seront retirées de tous les prospects, sa clé ne pourra plus servir, et cela ne peut pas être annulé.`,
    removed: (label: string) => `Champ « ${label} » supprimé : ses valeurs ne sont plus affichées nulle part.`,
  },
  webhook: {
    heading: 'Webhook',
    none: "Aucun webhook n'a encore été généré pour cet espace.",
    leadUrl: 'URL du webhook des leads',
    recruitmentUrl: 'URL du webhook de recrutement',
    active: 'État : actif.',
    inactive: 'État : désactivé (les deux URL refusent tout appel).',
    noCall: 'Aucun appel reçu pour l’instant.',
    lastCall: (at: string) => `Dernier appel reçu le ${formatDateTime(at)}.`,
    token: 'Jeton du webhook',
    generate: 'Générer le webhook',
    regenerate: 'Régénérer le jeton',
    confirmRegenerate:
      'Régénérer le jeton ? L’ancien jeton sera refusé dès son prochain appel : il faudra donner le nouveau à vos formulaires.',
    generated: 'Webhook généré.',
    regenerated: 'Nouveau jeton généré ; l’ancien ne fonctionne plus.',
    enable: 'Activer le webhook',
    disable: 'Désactiver le webhook',
    enabled: 'Webhook activé.',
    disabled: 'Webhook désactivé.',
  },
  account: {
    heading: 'Mon compte',
    passwordHeading: 'Changer de mot de passe',
    current: 'Mot de passe actuel',
    next: 'Nouveau mot de passe',
    submit: 'Changer le mot de passe',
    changed: 'Mot de passe changé. Utilisez-le dès votre prochaine connexion.',
    signOut: 'Pour vous déconnecter, utilisez le bouton « Se déconnecter » en haut de la page.',
  },
  apiKeys: {
    heading: 'Clés d’API',
    none: "Cet espace n'a encore aucune clé d'API.",
    scopes: 'Droits',
    createdOn: 'Créée le',
    state: 'État',
    active: 'active',
    revokedOn: (date: string) => `révoquée le ${date}`,
    create: {
      heading: 'Créer une clé',
      name: 'Nom de la clé',
      scopes: 'Routes que la clé peut appeler',
      submit: 'Créer la clé',
    },
    /** What each scope lets a key do (docs/api.md#scopes), by the scope the API names. */
    scope: {
      '*': 'Toutes les routes (*)',
      'pipelines:read': 'Lire les pipelines, les tags et les membres (pipelines:read)',
      'prospects:read': 'Lire les prospects, leurs notes et leurs modifications (prospects:read)',
      'prospects:write': 'Modifier les prospects (prospects:write)',
      'notes:write': 'Ajouter des notes (notes:write)',
      'tags:write': 'Poser et retirer des tags (tags:write)',
    },
    secretLabel: (name: string) => `Valeur de la clé « ${name} »`,
    created: (name: string) => `Clé « ${name} » créée.`,
    name: 'Nom',
    all: 'Toutes les clés d’API',
    named: (name: string) => `Clé « ${name} »`,
    unknown: 'Cet espace n’a pas de clé d’API à cette adresse.',
    changesHeading: 'Modifications faites avec la clé',
    changesShort: 'Modifications',
    revokeShort: 'Révoquer',
    revoke: (name: string) => `Révoquer la clé « ${name} »`,
    confirmRevoke: (name: string) =>
      `Révoquer la clé « ${name} » ? Elle sera refusée dès son prochain appel, et cela ne peut pas être annulé.`,
    revoked: (name: string) => `Clé « ${name} » révoquée.`,
    showChanges: (name: string) => `Modifications faites avec la clé « ${name} »`,
  },
  subscriptions: {
    heading: 'Abonnements',
    none: "Cet espace n'a encore aucun abonnement.",
    events: 'Événements envoyés',
    createdOn: 'Créé le',
    state: 'État',
    active: 'actif',
    inactive: 'désactivé (plus rien n’est envoyé)',
    /** The event types, by the name the API gives them (NewSubscription.events). */
    event: {
      'prospect.created': 'Prospect créé (prospect.created)',
      'prospect.updated': 'Prospect modifié (prospect.updated)',
      'prospect.note_added': 'Note ajoutée (prospect.note_added)',
      'prospect.tag_added': 'Tag ajouté (prospect.tag_added)',
      'prospect.tag_removed': 'Tag retiré (prospect.tag_removed)',
      'prospect.follow_up_due': 'Rappel dû (prospect.follow_up_due)',
      'candidate.created': 'Candidat créé (candidate.created)',
      'candidate.application_received': 'Candidature reçue (candidate.application_received)',
      'prospect.erased': 'Prospect effacé (prospect.erased)',
      'candidate.erased': 'Candidat effacé (candidate.erased)',
    },
    create: {
      heading: 'S’abonner',
      url: 'URL qui recevra les événements',
      /** One sentence true on AWS and on `npm start` alike (docs/api.md#outbound-events). */
      urlHelp:
        'En https (http n’est accepté que par le serveur local, npm start, et vers 127.0.0.1 ou localhost seulement) ; elle reçoit chaque événement choisi en POST, signé.',
      events: 'Événements à envoyer',
      submit: 'Créer l’abonnement',
    },
    /** An opened subscription's event types, checked as stored, saved together (`PATCH { events }`). */
    change: {
      events: 'Événements à envoyer désormais',
      help: 'La liste cochée remplace celle de l’abonnement pour les événements à venir ; ceux déjà écrits gardent leurs envois.',
      submit: 'Enregistrer les événements',
      saved: (url: string) => `Événements de l’abonnement à ${url} enregistrés.`,
    },
    created: (url: string) => `Abonnement à ${url} créé.`,
    secretLabel: (url: string) => `Secret de signature de l’abonnement à ${url}`,
    url: 'Adresse',
    all: 'Tous les abonnements',
    named: (url: string) => `Abonnement à ${url}`,
    unknown: 'Cet espace n’a pas d’abonnement à cette adresse.',
    open: (url: string) => `Ouvrir l’abonnement à ${url}`,
    openShort: 'Ouvrir',
    disableShort: 'Désactiver',
    enableShort: 'Activer',
    rotateShort: 'Changer le secret',
    removeShort: 'Supprimer',
    disable: (url: string) => `Désactiver l’abonnement à ${url}`,
    enable: (url: string) => `Activer l’abonnement à ${url}`,
    disabled: (url: string) => `Abonnement à ${url} désactivé.`,
    enabled: (url: string) => `Abonnement à ${url} activé.`,
    rotate: (url: string) => `Changer le secret de l’abonnement à ${url}`,
    confirmRotate: (url: string) =>
      `Changer le secret de l’abonnement à ${url} ? Pendant 24 heures, chaque envoi portera la signature de l’ancien secret et celle du nouveau, puis celle du nouveau seulement.`,
    rotated: (url: string) => `Nouveau secret de l’abonnement à ${url} créé.`,
    remove: (url: string) => `Supprimer l’abonnement à ${url}`,
    confirmRemove: (url: string) =>
      `Supprimer l’abonnement à ${url} ? Plus rien n’y sera envoyé, ses envois en attente s’arrêtent, et cela ne peut pas être annulé.`,
    removed: (url: string) => `Abonnement à ${url} supprimé.`,
    showDeliveries: (url: string) => `Envois de l’abonnement à ${url}`,
    deliveries: {
      none: 'Aucun envoi pour cet abonnement (les 30 derniers jours).',
      status: {
        pending: 'en attente',
        delivered: 'livré',
        failed: 'échoué',
      },
      state: 'État',
      attempts: 'Tentatives',
      type: 'Événement',
      createdOn: 'Créé le',
      lastAnswer: 'Dernière réponse',
      noAnswer: '(aucune)',
      nextAttempt: 'Prochaine tentative',
      redeliver: 'Renvoyer',
      redeliverOf: (type: string, date: string) => `Renvoyer l’envoi ${type} du ${date}`,
      queued: 'Envoi remis en file : il part dans quelques secondes ; rechargez la liste pour voir son résultat.',
      reload: 'Recharger les envois',
    },
  },
  /** « Prospects »: the workspace's prospects, filtered, a page at a time (docs/api.md#lists-of-prospects). */
  prospects: {
    heading: 'Prospects',
    findHeading: 'Chercher un prospect par e-mail ou téléphone',
    listHeading: 'Liste des prospects',
    filters: 'Filtres de la liste des prospects',
    pipeline: 'Pipeline',
    allPipelines: 'Tous les pipelines',
    stage: 'Étape',
    allStages: 'Toutes les étapes',
    setter: 'Setter',
    closer: 'Closer',
    member: 'Setter ou closer',
    anyone: 'Tous',
    noOne: 'Aucun',
    tag: 'Tag',
    allTags: 'Tous les tags',
    followUp: 'Prochain rappel',
    anyFollowUp: 'Tous',
    /** The follow-up windows, by the word the API names (the workspace's current day, in its time zone). */
    followUps: {
      overdue: 'En retard',
      today: 'Aujourd’hui',
      due: 'En retard ou aujourd’hui',
      none: 'Sans rappel',
      any: 'Avec un rappel',
    } satisfies Record<ListFollowUp, string>,
    sort: 'Ordre',
    /** The orders, by the word the API names. */
    sorts: {
      '-created_at': 'Les plus récents d’abord',
      created_at: 'Les plus anciens d’abord',
      '-updated_at': 'Modifiés le plus récemment d’abord',
      updated_at: 'Modifiés il y a le plus longtemps d’abord',
      next_follow_up_at: 'Prochain rappel le plus proche d’abord',
    } satisfies Record<ListSort, string>,
    preset: 'À relancer',
    presetHelp:
      '« À relancer » montre vos prospects, dont vous êtes setter ou closer, au rappel en retard ou prévu aujourd’hui, le plus proche d’abord.',
    clear: 'Retirer les filtres',
    name: 'Prospect',
    email: 'Adresse e-mail',
    tags: 'Tags',
    /** A prospect with neither name, e-mail, phone nor social profile (none the API accepts). */
    unnamed: 'Prospect sans nom',
    none: 'Aucun prospect ne correspond à ces filtres.',
    noneYet: 'Cet espace n’a encore aucun prospect.',
    /** A page the filters emptied while more follow (docs/api.md#lists-of-prospects, « Pages and cursors »). */
    noneOnPage: 'Aucun prospect sur cette page, d’autres peuvent suivre : le bouton « Plus » lit la suite.',
    more: 'Plus',
    all: 'Tous les prospects',
  },
  prospect: {
    heading: 'Fiche prospect',
    by: 'Chercher par',
    email: 'Adresse e-mail',
    phone: 'Téléphone',
    value: 'Adresse e-mail ou numéro du prospect',
    find: 'Chercher',
    none: 'Aucun prospect de cet espace ne correspond.',
    changes: 'Modifications par l’API',
    noChanges: 'Aucune modification de ce prospect par l’API.',
    /** A stage as the page names it: its pipeline's name, then its own. */
    stageIn: (pipeline: string, stage: string) => `${pipeline} › ${stage}`,
  },
  /**
   * A person's rights on « Fiche prospect » and beside the candidates found by e-mail (docs/api.md#erasure-export-and-retention):
   * their data exported as one file, or erased, an admin's only.
   */
  rights: {
    export: 'Exporter',
    exportOf: (who: string) => `Exporter les données de ${who}`,
    erase: 'Effacer',
    eraseOf: (who: string) => `Effacer ${who} et toutes ses données`,
    /** The person as the confirmation names them: the name the page shows, and the e-mail or phone beside it. */
    who: (name: string, contact: string | null) =>
      contact === null || contact === name ? name : `${name} (${contact})`,
    confirmErase: (what: string, who: string) =>
      `Effacer ${what} ${who} ? Ses données, notes et copies seront supprimées de l’espace. C’est définitif : rien ne pourra être restauré.`,
    prospect: 'le prospect',
    candidate: 'le candidat',
    /** The file the browser saves: the person's kind, then its id. */
    fileName: (kind: 'prospect' | 'candidat', id: string) => `${kind}-${id}.json`,
    exported: (file: string) => `Export prêt : votre navigateur enregistre le fichier ${file}.`,
    saveAgain: (file: string) => `Enregistrer ${file} à nouveau`,
    exportedAsLink:
      'Export prêt : trop volumineux pour être enregistré directement, il se télécharge par le lien « Télécharger l’export », valable 15 minutes.',
    download: 'Télécharger l’export',
    prospectErased:
      'Prospect effacé : il n’apparaît plus nulle part, et ses dernières copies sont supprimées dans les minutes qui suivent.',
    candidateErased:
      'Candidat effacé : il n’apparaît plus nulle part, et ses dernières copies sont supprimées dans les minutes qui suivent.',
  },
  /** The candidates found by the e-mail « Prospects » searches (docs/api.md#erasure-export-and-retention). */
  candidates: {
    heading: 'Candidats à cette adresse',
    name: 'Candidat',
    position: 'Poste',
    received: 'Candidature reçue le',
    openProspect: (name: string) => `Ouvrir la fiche prospect de ${name}`,
  },
  members: {
    heading: 'Membres',
    none: "Cet espace n'a encore aucun membre.",
    email: 'Adresse e-mail',
    noEmail: '(aucune : ne peut pas se connecter)',
    role: 'Rôle',
    access: 'Accès',
    canSignIn: 'peut se connecter',
    cannotSignIn: 'ne peut pas se connecter (retiré de l’espace ou sans adresse e-mail)',
    /** A member as the controls name them: two members may share a name, never an e-mail. */
    who: (name: string, email: string | null) => (email === null ? name : `${name} (${email})`),
    name: 'Nom',
    inviteShort: 'Inviter à nouveau',
    removeShort: 'Retirer',
    saveRoleShort: 'Enregistrer',
    roleOf: (name: string) => `Rôle de ${name}`,
    saveRole: (name: string) => `Enregistrer le rôle de ${name}`,
    roleChanged: (name: string, role: string) => `Rôle de ${name} : ${role}.`,
    invite: (name: string) => `Inviter à nouveau ${name}`,
    invitedByEmail: (email: string) => `Invitation envoyée : ${email} reçoit par e-mail un mot de passe provisoire.`,
    /** The local API answers the temporary password instead of e-mailing it (docs/api.md#settings-api). */
    invitedHere: (email: string) =>
      `Invitation faite : transmettez à ${email} le mot de passe de l’encadré « ${temporaryPassword(email)} » ; il en choisira un autre à sa première connexion.`,
    /** A person who already chose a password (a member of another workspace): the API sent nothing (docs/api.md, « Members »). */
    notInvited: (email: string) =>
      `${email} a déjà un compte : ajouté sans invitation, il se connecte avec le mot de passe qu’il a choisi.`,
    temporaryPassword,
    remove: (name: string) => `Retirer ${name} de l’espace`,
    confirmRemove: (name: string) =>
      `Retirer ${name} de l’espace ? Cette personne perdra l’accès dès son prochain appel ; ses prospects gardent leur setter et leur closer.`,
    removed: (name: string) => `${name} n’a plus accès à l’espace.`,
    idColumn: 'Identifiant (setter ou closer des intégrations)',
    copyId: (who: string) => `Copier l’identifiant de ${who}`,
    add: {
      heading: 'Ajouter un membre',
      email: 'Adresse e-mail du nouveau membre',
      name: 'Nom affiché (facultatif)',
      role: 'Rôle du nouveau membre',
      submit: 'Ajouter et inviter',
    },
  },
  changes: {
    none: 'Aucune modification faite avec cette clé.',
    more: 'Plus',
    prospect: 'Prospect',
    fieldLabel: 'Champ',
    change: 'Changement',
    before: 'Avant',
    after: 'Après',
    at: 'Le',
    empty: '(aucun)',
    undo: 'Annuler cette modification',
    undone: (date: string) => `Annulée le ${date}`,
    undoneNow: 'Modification annulée : le prospect a repris sa valeur d’avant.',
    noteAdded: 'note ajoutée',
    key: 'Clé',
    /** Why an entry has no undo button, when the entries shown already say it (docs/api.md#undo). */
    noteKept: 'Une note n’est jamais supprimée : rien à annuler.',
    changedSince: 'Le prospect a été modifié depuis : cette modification ne peut plus être annulée.',
    /** The prospect's field an entry changed, by the name the API gives it. */
    field: {
      stage: 'Étape',
      setter: 'Setter',
      closer: 'Closer',
      follow_up: 'Prochain rappel',
      tags: 'Tags',
      note: 'Note',
    },
  },
  webhookCalls: {
    heading: 'Appels du webhook',
    failedOnly: 'Échecs seulement',
    none: 'Aucun appel du webhook ces 30 derniers jours.',
    noneFailed: 'Aucun appel en échec ces 30 derniers jours.',
    at: 'Le',
    routeLabel: 'Webhook',
    /** The webhook a call reached, by the route the API names. */
    route: { 'ingest-lead': 'Leads', recruitment: 'Recrutement' },
    status: 'Statut HTTP',
    outcome: 'Résultat',
    /**
     * What a call's `outcome` says, by the code the journal keeps (docs/api.md, « Webhook call journal », and the
     * webhooks' error tables): `created` and `existing` by the webhook that answered them. A code the webhooks do not
     * journal (`invalid_endpoint_id`, the lead webhook's `not_found`: no workspace is known) has no words here.
     */
    outcomes: {
      created: { 'ingest-lead': 'Prospect créé', recruitment: 'Candidat créé' },
      existing: {
        'ingest-lead': 'Prospect déjà connu, retrouvé',
        recruitment: 'Candidat déjà connu : candidature ajoutée en note',
      },
      unauthorized: 'Refusé : jeton absent ou faux, ou webhook désactivé',
      invalid_payload:
        'Refusé : corps illisible, sans e-mail, téléphone ni profil social utilisable, ou clé d’idempotence refusée',
      bad_request: 'Refusé : corps illisible, champ invalide, ou clé d’idempotence refusée',
      not_found: 'Refusé : pipeline de recrutement introuvable',
      conflict: 'Refusé : plusieurs pipelines de recrutement portent ce nom',
      unprocessable: 'Refusé : aucun pipeline de recrutement actif (ou sans colonne)',
      ingest_failed: 'Échec du service (ou appel de même clé d’idempotence encore en cours) : à réessayer',
      internal: 'Échec du service (ou appel de même clé d’idempotence encore en cours) : à réessayer',
    },
    counted: (outcome: string, count: number) => `${outcome} (${count} appels)`,
    /** The refusal as the webhook answered it, shown first on the call's page. */
    refusalHeading: 'Le webhook a refusé cet appel',
    placementLabel: 'Placement',
    /** How a lead call placed its prospect, by the `placement` the journal keeps (docs/api.md#lead-placement). */
    placement: {
      demande: 'à l’étape demandée',
      defaut: 'à l’étape par défaut',
      existant: 'contact déjà connu, laissé où il était',
      aucun: 'sur aucun pipeline (l’espace n’en a pas d’actif)',
    },
    record: 'Fiche',
    openRecord: 'Ouvrir la fiche du prospect',
    warnings: 'Avertissements',
    open: (date: string) => `Ouvrir l’appel du ${date}`,
    openShort: 'Ouvrir',
    openNew: 'Ouvrir le nouvel appel',
    all: 'Tous les appels du webhook',
    opened: (date: string) => `Appel du ${date}`,
    body: 'Corps reçu',
    noBody: 'Aucun corps gardé (seul celui d’un appel authentifié en échec l’est).',
    truncated: 'Corps coupé à 64 Ko : il ne peut pas être rejoué.',
    replay: 'Rejouer',
    replayAnswer: (status: number) => `Réponse du webhook au rejeu : statut ${status}`,
    newCall: 'Nouvel appel, ajouté au journal',
    replayed: 'Appel rejoué.',
    more: 'Plus',
  },
  audit: {
    heading: 'Journal d’audit',
    none: 'Aucune entrée dans le journal d’audit.',
    at: 'Le',
    member: 'Membre',
    commandLine: 'ligne de commande',
    action: 'Action',
    /** What an entry records, by the `action` the API names: a new action fails the type check until it has words. */
    actions: {
      'api_key.created': 'Clé d’API créée',
      'api_key.revoked': 'Clé d’API révoquée',
      'webhook.token_generated': 'Jeton du webhook généré',
      'webhook.enabled': 'Webhook activé',
      'webhook.disabled': 'Webhook désactivé',
      'webhook_call.replayed': 'Appel du webhook rejoué',
      'member.invited': 'Membre invité',
      'member.role_changed': 'Rôle d’un membre changé',
      'member.removed': 'Membre retiré de l’espace',
      'tag.created': 'Tag créé',
      'tag.renamed': 'Tag renommé',
      'field.created': 'Champ personnalisé créé',
      'field.changed': 'Champ personnalisé modifié',
      'field.deleted': 'Champ personnalisé supprimé',
      'subscription.created': 'Abonnement créé',
      'subscription.enabled': 'Abonnement activé',
      'subscription.disabled': 'Abonnement désactivé',
      'subscription.events_changed': 'Événements d’un abonnement changés',
      'subscription.deleted': 'Abonnement supprimé',
      'subscription.secret_rotated': 'Secret d’un abonnement changé',
      'delivery.redelivered': 'Envoi renvoyé',
      'change.undone': 'Modification par l’API annulée',
      'prospect.erased': 'Prospect effacé',
      'candidate.erased': 'Candidat effacé',
      'workspace.time_zone_changed': 'Fuseau horaire de l’espace modifié',
      'workspace.retention_changed': 'Conservation des données modifiée',
      'prospect.exported': 'Données d’un prospect exportées',
      'candidate.exported': 'Données d’un candidat exportées',
    } satisfies Record<AuditAction, string>,
    summary: 'Résumé',
    target: 'Concerne',
    openCall: (date: string) => `Ouvrir l’appel rejoué (entrée du ${date})`,
    call: 'L’appel rejoué',
    more: 'Plus',
  },
  /** What stands for a name the workspace no longer has, beside the id it was (docs/api.md#settings-page). */
  names: {
    missingStage: {
      text: 'étape d’un pipeline inactif ou supprimé',
      copyLabel: 'Copier l’identifiant de l’étape introuvable',
    },
    missingMember: { text: 'membre retiré', copyLabel: 'Copier l’identifiant du membre retiré' },
    missingTag: { text: 'tag supprimé', copyLabel: 'Copier l’identifiant du tag supprimé' },
    missingKey: { text: 'clé d’API supprimée', copyLabel: 'Copier l’identifiant de la clé d’API supprimée' },
    missingField: { text: 'champ personnalisé supprimé', copyLabel: 'Copier la clé du champ personnalisé supprimé' },
    missingProspect: { text: 'prospect supprimé', copyLabel: 'Copier l’identifiant du prospect supprimé' },
  },
  copy: {
    button: 'Copier',
    of: (label: string) => `Copier : ${label}`,
    done: 'Copié dans le presse-papiers.',
    doneShort: 'Copié',
    doneOf: (label: string) => `${label} : copié`,
  },
  secret: {
    warning: 'Copiez cette valeur maintenant : elle ne sera plus jamais affichée.',
    dismiss: 'J’ai copié la valeur, la masquer',
  },
  /**
   * A code of the API (a scope, an event type) in this catalogue's words; one the API types as any string and the
   * page has no words for (added since) is shown as sent.
   */
  wordsFor: (words: Readonly<Record<string, string>>, code: string): string =>
    (Object.hasOwn(words, code) ? words[code] : undefined) ?? code,
  /** A date and time of the API (ISO 8601, UTC) as the person reads it: the page's one format (./dates.ts). */
  date: formatDateTime,
  loading: 'Chargement…',
  signOut: 'Se déconnecter',
  back: 'Changer d’espace',
  unexpected: 'Le service ne répond pas comme prévu. Réessayez dans un instant.',
} as const;
