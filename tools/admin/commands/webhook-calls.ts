import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { listCalls, showCall } from '../../../lib/settings/webhook-call-reads';
import type { WebhookCallView } from '../../../lib/domain/webhook-call-view';
import { replayCall, type WebhookInvoker } from '../../../lib/settings/webhook-call-replay';
import type { Deps } from '../../../lib/storage/client';
import type { Route } from '../../../lib/routes';
import { deployedRouteById } from '../../../infra/cdk/route-grants';
import { lambdaContext } from '../../local/lambda-runtime';
import { defineCommand, idOption, workspaceOption } from '../command';
import { fields, table } from '../render';

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/**
 * The replay's handler: the webhook's own function module (its entry in infra/cdk/route-grants.ts), built with
 * the command's deps, imported only by `webhook replay` (every function module builds its handler
 * for production when loaded).
 */
const invokerOf =
  (deps: Deps): WebhookInvoker =>
  async (route: Route, event) => {
    const module = (await import(`../../../${deployedRouteById(route.id).entry}`)) as {
      createHandler: (deps: Deps) => Handler;
    };
    return module.createHandler(deps)(event, lambdaContext(`crm-admin-replay-${route.id}`));
  };

const callFields = (call: WebhookCallView): string =>
  fields([
    ['Appel', call.id],
    ['Reçu le', call.at],
    ['Webhook', call.route],
    ['Statut HTTP', call.status],
    ['Résultat', call.outcome],
    ['Fiche', call.record_id],
    ['Placement', call.placement],
    ['Pipeline', call.pipeline_id],
    ['Étape', call.stage_id],
    ['Avertissements', call.warnings.join(' ; ')],
    ['Message', call.message],
    ['Requête', call.request_id],
    ['Appels comptés', call.count],
    ['Corps tronqué à 64 Ko', call.body_truncated ? 'oui' : 'non'],
  ]);

const indented = (value: unknown): string => JSON.stringify(value, null, 2);

const options = { workspace: workspaceOption, id: idOption('required', 'webhookCall') };

export const webhookCallCommands = [
  defineCommand({
    words: ['webhook', 'calls'],
    summary:
      "les appels reçus par les webhooks (30 jours), du plus récent au plus ancien ; au-delà de 10 refus d'authentification dans une minute, une seule entrée les compte (Appels) ; --failed : les appels en échec seulement ; --limit de 1 à 1000 (50 par défaut)",
    options: { workspace: workspaceOption, failed: 'flag', limit: 'optional' },
    async run(target, { workspace, failed, limit }) {
      const document = await listCalls(target.deps, workspace, { failed, limit });
      return {
        document,
        text: table(
          ['Appel', 'Reçu le', 'Webhook', 'Statut', 'Résultat', 'Fiche', 'Requête', 'Appels'],
          document.calls.map((call) => [
            call.id,
            call.at,
            call.route,
            call.status,
            call.outcome,
            call.record_id,
            call.request_id,
            call.count,
          ]),
          failed ? 'Aucun appel en échec.' : 'Aucun appel reçu.',
        ),
      };
    },
  }),
  defineCommand({
    words: ['webhook', 'call'],
    summary:
      'un appel reçu, avec le corps envoyé quand il a été gardé (appels authentifiés en échec ; ses 64 premiers Ko au plus)',
    options,
    async run(target, { workspace, id }) {
      const document = await showCall(target.deps, workspace, id);
      return {
        document,
        text: [
          callFields(document.call),
          document.body === null ? 'Corps : non conservé.' : `Corps :\n${indented(document.body)}`,
        ].join('\n\n'),
      };
    },
  }),
  defineCommand({
    words: ['webhook', 'replay'],
    summary: "renvoie le corps gardé d'un appel au même webhook, comme un nouvel appel (sans clé d'idempotence)",
    options,
    async run(target, { workspace, id }) {
      const document = await replayCall(target.deps, workspace, id, invokerOf(target.deps));
      return {
        document,
        text: [
          document.call === null
            ? "Nouvel appel : non journalisé (voir les journaux de l'API)."
            : callFields(document.call),
          `Réponse du webhook (HTTP ${document.response.status}) :\n${indented(document.response.body)}`,
        ].join('\n\n'),
      };
    },
  }),
];
