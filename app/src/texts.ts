/** Every text of the settings page a person reads, in French, in one place; the API's own messages are shown as sent. */
export const texts = {
  title: 'Réglages du CRM',
  signIn: {
    heading: 'Connexion',
    email: 'Adresse e-mail',
    password: 'Mot de passe',
    submit: 'Se connecter',
    pending: 'Connexion…',
  },
  workspaces: {
    heading: 'Vos espaces',
    none: "Vous n'êtes membre d'aucun espace.",
    role: { admin: 'administrateur', member: 'membre' },
    open: "Ouvrir l'espace",
  },
  screens: {
    menu: 'Écrans de l’espace',
    tags: 'Tags & Webhook',
  },
  tags: {
    heading: 'Tags',
    none: "Cet espace n'a encore aucun tag.",
    name: 'Nom du nouveau tag',
    add: 'Ajouter le tag',
    added: (name: string) => `Tag « ${name} » ajouté.`,
  },
  secret: {
    warning: 'Copiez cette valeur maintenant : elle ne sera plus jamais affichée.',
    copy: 'Copier',
    copied: 'Copié dans le presse-papiers.',
    dismiss: 'J’ai copié la valeur, la masquer',
  },
  loading: 'Chargement…',
  signOut: 'Se déconnecter',
  back: 'Changer d’espace',
  unexpected: 'Le service ne répond pas comme prévu. Réessayez dans un instant.',
} as const;
