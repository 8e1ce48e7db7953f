import {
  createSubscription,
  deleteSubscription,
  moveLegacySecrets,
  rotateSubscriptionSecret,
  setSubscriptionActive,
} from '../../../lib/settings/subscriptions';
import { listSubscriptionDeliveries } from '../../../lib/settings/subscription-deliveries';
import { listSubscriptions } from '../../../lib/settings/subscription-list';
import { redeliverDelivery } from '../use-cases/redeliveries';
import type { DeliveryView } from '../../../lib/domain/events/delivery-view';
import { eventTypes } from '../../../lib/domain/events/event-types';
import { createHttpSender } from '../../../lib/outbound/http-sender';
import { defineCommand, idOption, workspaceOption } from '../command';
import { fields, table } from '../render';
import { withSecretsTable } from '../target';

const idOptions = { workspace: workspaceOption, id: idOption('required', 'subscription') };

const statusWords = { pending: 'en attente', delivered: 'livrée', failed: 'abandonnée' } as const;

/** Seven types make a wide column: a subscription to all of them says so. */
const eventsText = (events: readonly string[]): string =>
  events.length === eventTypes.length ? 'tous' : events.join(', ');

const deliveryFields = (delivery: DeliveryView): string =>
  fields([
    ['Envoi', delivery.id],
    ['Événement', delivery.event_id],
    ['Type', delivery.type],
    ['Statut', statusWords[delivery.status]],
    ['Tentatives', delivery.attempts],
    ['Dernier code HTTP', delivery.last_status_code],
    ['Dernière erreur', delivery.last_error],
    ['Prochaine tentative', delivery.next_attempt_at],
    ['Créée le', delivery.created_at],
  ]);

/** In the order the usage lists them: reading commands first, `delete` last. */
export const subscriptionCommands = [
  defineCommand({
    words: ['subscription', 'create'],
    summary:
      "abonne une URL https aux événements de l'espace (--events a,b ; par défaut les sept types) ; le secret de signature n'est affiché qu'une fois",
    options: { workspace: workspaceOption, url: 'required', events: 'optional' },
    async run(target, { workspace, url, events }) {
      const created = await createSubscription(withSecretsTable(target), {
        workspaceId: workspace,
        url,
        events,
        network: target.network,
      });
      return {
        document: created,
        text: [
          fields([
            ['Abonnement', created.id],
            ['URL', created.url],
            ['Événements', created.events.join(', ')],
            ['Secret', created.secret],
          ]),
          "Le secret n'est affiché qu'une fois : conservez-le maintenant. Il vérifie la signature de chaque envoi (en-têtes webhook-id, webhook-timestamp, webhook-signature).",
        ].join('\n\n'),
      };
    },
  }),
  defineCommand({
    words: ['subscription', 'list'],
    summary: "les abonnements de l'espace (jamais leur secret)",
    options: { workspace: workspaceOption },
    async run(target, { workspace }) {
      const document = await listSubscriptions(target.deps, workspace);
      return {
        document,
        text: table(
          ['Abonnement', 'URL', 'Événements', 'Actif', 'Créé le'],
          document.subscriptions.map((subscription) => [
            subscription.id,
            subscription.url,
            eventsText(subscription.events),
            subscription.active,
            subscription.created_at,
          ]),
          'Aucun abonnement dans cet espace.',
        ),
      };
    },
  }),
  defineCommand({
    words: ['subscription', 'deliveries'],
    summary:
      "les envois d'un abonnement (30 jours), de la plus récente à la plus ancienne ; --status pending, delivered ou failed ; --limit de 1 à 1000 (100 par défaut)",
    options: { ...idOptions, status: 'optional', limit: 'optional' },
    async run(target, { workspace, id, status, limit }) {
      const document = await listSubscriptionDeliveries(target.deps, workspace, id, { status, limit });
      return {
        document,
        text: table(
          ['Envoi', 'Type', 'Statut', 'Tentatives', 'Code HTTP', 'Dernière erreur', 'Prochaine tentative', 'Créée le'],
          document.deliveries.map((delivery) => [
            delivery.id,
            delivery.type,
            statusWords[delivery.status],
            delivery.attempts,
            delivery.last_status_code,
            delivery.last_error,
            delivery.next_attempt_at,
            delivery.created_at,
          ]),
          status === undefined ? 'Aucun envoi pour cet abonnement.' : 'Aucun envoi avec ce statut.',
        ),
      };
    },
  }),
  defineCommand({
    words: ['subscription', 'redeliver'],
    summary:
      "renvoie maintenant l'événement d'un envoi (même webhook-id), hors calendrier, et affiche l'envoi après cette tentative",
    options: { workspace: workspaceOption, delivery: idOption('required', 'delivery') },
    async run(target, { workspace, delivery }) {
      const deps = { ...withSecretsTable(target), network: target.network, send: createHttpSender(target.network) };
      const document = await redeliverDelivery(deps, workspace, delivery);
      return { document, text: deliveryFields(document) };
    },
  }),
  defineCommand({
    words: ['subscription', 'rotate-secret'],
    summary:
      "remplace le secret de signature, affiché une fois ; pendant 24 heures chaque envoi porte deux signatures (l'ancien secret et le nouveau), puis la nouvelle seule",
    options: idOptions,
    async run(target, { workspace, id }) {
      const rotated = await rotateSubscriptionSecret(withSecretsTable(target), workspace, id);
      return {
        document: rotated,
        text: [
          fields([
            ['Abonnement', rotated.id],
            ['Secret', rotated.secret],
          ]),
          "Le nouveau secret n'est affiché qu'une fois : conservez-le maintenant. Pendant 24 heures, chaque envoi est signé avec l'ancien secret et avec le nouveau : passez le récepteur au nouveau dans ce délai.",
        ].join('\n\n'),
      };
    },
  }),
  defineCommand({
    words: ['subscription', 'migrate-secrets'],
    summary:
      "déplace dans la table des secrets de signature les secrets qu'une version antérieure gardait avec l'abonnement (une fois après le déploiement ; tous les espaces, ou celui de --workspace)",
    options: { workspace: idOption('optional', 'workspace') },
    async run(target, { workspace }) {
      const document = await moveLegacySecrets(withSecretsTable(target), workspace);
      return {
        document,
        text: table(
          ['Espace de travail', 'Abonnement'],
          document.migrated.map((moved) => [moved.workspace_id, moved.id]),
          'Aucun secret à déplacer.',
        ),
      };
    },
  }),
  defineCommand({
    words: ['subscription', 'disable'],
    summary: 'suspend un abonnement : les événements qui surviennent pendant ce temps ne lui seront jamais envoyés',
    options: idOptions,
    async run(target, { workspace, id }) {
      const document = await setSubscriptionActive(target.deps, workspace, id, false);
      return { document, text: `Abonnement ${document.id} désactivé.` };
    },
  }),
  defineCommand({
    words: ['subscription', 'enable'],
    summary: 'réactive un abonnement pour les événements à venir',
    options: idOptions,
    async run(target, { workspace, id }) {
      const document = await setSubscriptionActive(target.deps, workspace, id, true);
      return { document, text: `Abonnement ${document.id} activé.` };
    },
  }),
  defineCommand({
    words: ['subscription', 'delete'],
    summary: 'supprime un abonnement (ses envois en attente ne sont plus tentés)',
    options: idOptions,
    async run(target, { workspace, id }) {
      const document = await deleteSubscription(withSecretsTable(target), workspace, id);
      return { document, text: `Abonnement ${document.id} supprimé.` };
    },
  }),
];
