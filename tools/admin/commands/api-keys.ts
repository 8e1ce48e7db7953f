import { listApiKeys } from '../../../lib/settings/api-key-list';
import { createApiKey, revokeApiKey } from '../../../lib/settings/api-keys';
import { defineCommand, idOption, workspaceOption } from '../command';
import { fields, table } from '../render';

const apiKeyCreate = defineCommand({
  words: ['apikey', 'create'],
  summary: "crée une clé d'API (par défaut avec les cinq droits) ; sa valeur n'est affichée qu'une fois",
  options: { workspace: workspaceOption, name: 'required', scopes: 'optional' },
  async run(target, options) {
    const created = await createApiKey(target.deps, {
      workspaceId: options.workspace,
      name: options.name,
      scopes: options.scopes?.split(','),
    });
    return {
      document: created,
      text: [
        fields([
          ['Identifiant', created.id],
          ['Nom', created.name],
          ['Droits', created.scopes.join(', ')],
          ['Secret', created.secret],
        ]),
        "Le secret n'est affiché qu'une fois : conservez-le maintenant.",
      ].join('\n\n'),
    };
  },
});

const apiKeyRevoke = defineCommand({
  words: ['apikey', 'revoke'],
  summary: 'révoque une clé : la requête suivante qui la présente reçoit 401',
  options: { workspace: workspaceOption, id: idOption('required', 'apiKey') },
  async run(target, options) {
    const revoked = await revokeApiKey(target.deps, { workspaceId: options.workspace, keyId: options.id });
    return { document: revoked, text: `Clé ${revoked.id} révoquée le ${revoked.revoked_at}.` };
  },
});

const apiKeyList = defineCommand({
  words: ['apikey', 'list'],
  summary: "liste les clés d'API de l'espace (jamais leur valeur)",
  options: { workspace: workspaceOption },
  async run(target, options) {
    const apiKeys = await listApiKeys(target.deps, options.workspace);
    return {
      document: { api_keys: apiKeys },
      text: table(
        ['Identifiant', 'Nom', 'Droits', 'Créée le', 'Révoquée le'],
        apiKeys.map((key) => [key.id, key.name, key.scopes.join(', '), key.created_at, key.revoked_at]),
        "Aucune clé d'API dans cet espace.",
      ),
    };
  },
});

export const apiKeyCommands = [apiKeyCreate, apiKeyRevoke, apiKeyList];
