import {
  generateWebhook,
  regenerateWebhook,
  setWebhookActive,
  type WebhookTokenView,
} from '../../../lib/settings/webhooks';
import { webhookStatus, type WebhookStatusView } from '../../../lib/settings/webhook-status';
import { defineCommand, workspaceOption, type CommandResult } from '../command';
import { fields } from '../render';
import { requirePublicBaseUrl } from '../target';

const tokenResult = (view: WebhookTokenView): CommandResult => ({
  document: view,
  text: [
    fields([
      ['Endpoint', view.endpoint_id],
      ['URL', view.url],
      ['Jeton', view.token],
    ]),
    "Le jeton n'est affiché qu'une fois : l'ancien ne fonctionne plus.",
  ].join('\n\n'),
});

const statusResult = (view: WebhookStatusView): CommandResult => ({
  document: view,
  text: fields([
    ['Endpoint', view.endpoint_id],
    ['URL', view.url],
    ['Actif', view.active],
    ['Dernier appel reçu', view.last_call_at],
  ]),
});

const options = { workspace: workspaceOption };

export const webhookCommands = [
  defineCommand({
    words: ['webhook', 'generate'],
    summary: "crée le webhook de l'espace, ou lui donne un nouveau jeton ; le jeton n'est affiché qu'une fois",
    options,
    run: async (target, { workspace }) =>
      tokenResult(await generateWebhook(target.deps, workspace, requirePublicBaseUrl(target))),
  }),
  defineCommand({
    words: ['webhook', 'regenerate'],
    summary: "donne un nouveau jeton au webhook ; l'ancien cesse aussitôt de fonctionner",
    options,
    run: async (target, { workspace }) =>
      tokenResult(await regenerateWebhook(target.deps, workspace, requirePublicBaseUrl(target))),
  }),
  defineCommand({
    words: ['webhook', 'enable'],
    summary: 'active le webhook',
    options,
    run: async (target, { workspace }) =>
      statusResult(await setWebhookActive(target.deps, workspace, true, requirePublicBaseUrl(target))),
  }),
  defineCommand({
    words: ['webhook', 'disable'],
    summary: 'désactive le webhook : il répond alors 401',
    options,
    run: async (target, { workspace }) =>
      statusResult(await setWebhookActive(target.deps, workspace, false, requirePublicBaseUrl(target))),
  }),
  defineCommand({
    words: ['webhook', 'status'],
    summary: 'affiche endpoint_id, URL, état et dernier appel reçu',
    options,
    run: async (target, { workspace }) =>
      statusResult(await webhookStatus(target.deps, workspace, requirePublicBaseUrl(target))),
  }),
];
