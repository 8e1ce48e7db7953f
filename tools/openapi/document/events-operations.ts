import { eventTypes } from '../../../lib/domain/events/event-types';
import { messages } from '../../../lib/messages';
import { exampleCursor, exampleIds as ids } from './examples';
import type { ErrorCase, ErrorExample, Example, OperationText } from './operations';

/*
 * The settings API's webhook call journal and replay, subscriptions and deliveries (docs/api.md#outbound-events,
 * #webhook-call-journal, #settings-api), all for admins. What every settings route answers (401, the workspace's 404,
 * 403, 429, a body's 400, 500) the document adds by credential (tools/openapi/document/document.ts): these list what
 * their use cases add.
 */

const example = (summary: string, value: unknown): Record<string, Example> => ({ answer: { summary, value } });

const field = (name: string, message: string): ErrorExample['details'] => ({ field: name, message });

const callId = '0193a1b2-7c3d-7e4f-8a5b-6c7d8e9f0a1b';
const replayId = '0193a1b9-1a2b-7c3d-8e4f-5a6b7c8d9e0f';
const subscriptionId = '0193a0f1-2b3c-7d4e-8f5a-6b7c8d9e0f1a';
const deliveryId = '0193a1c4-5d6e-7f8a-9b0c-1d2e3f4a5b6c';
const eventId = '0193a1c4-0a1b-7c2d-8e3f-4a5b6c7d8e9f';

const lostCall = {
  id: callId,
  at: '2026-11-21T10:04:12.345Z',
  route: 'ingest-lead',
  status: 500,
  outcome: 'ingest_failed',
  record_id: null,
  placement: null,
  pipeline_id: null,
  stage_id: null,
  warnings: [],
  message: messages.failure.leadNotSaved,
  request_id: 'c0f1e2d3-b4a5-4968-8776-655443322110',
  count: 1,
  body_truncated: false,
};

const replayedCall = {
  ...lostCall,
  id: replayId,
  at: '2026-11-21T10:30:00.000Z',
  status: 200,
  outcome: 'created',
  record_id: ids.prospect,
  placement: 'demande',
  pipeline_id: ids.salesPipeline,
  stage_id: ids.newStage,
  message: null,
  request_id: `admin-replay-${ids.workspace}`,
};

const limitOrCursor = (list: string): ErrorCase => ({
  description:
    `\`limit\` not an integer from 1 to 100, or \`cursor\` not the \`next_cursor\` of a page of this same ${list}, ` +
    'or either given twice.',
  examples: [
    {
      summary: 'Invalid limit',
      message: messages.query.invalidLimit,
      details: field('limit', messages.query.invalidLimit),
    },
    {
      summary: 'Cursor of another list',
      message: messages.query.invalidCursor,
      details: field('cursor', messages.query.invalidCursor),
    },
  ],
});

const callNotFound: ErrorCase = {
  description:
    'No such call in the journal of this workspace (also an id that is not a UUID, or one past its 30 days).',
  examples: [{ summary: 'Unknown call', message: messages.settingsEvents.callNotFound }],
};

const subscriptionNotFound: ErrorCase = {
  description: 'No such subscription in this workspace (also an id that is not a UUID, or a deleted one).',
  examples: [{ summary: 'Unknown subscription', message: messages.settingsEvents.subscriptionNotFound }],
};

const subscription = {
  id: subscriptionId,
  url: 'https://hooks.exemple.test/crm',
  events: [...eventTypes],
  active: true,
  created_at: '2026-11-20T08:00:00.000Z',
};

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

const delivery = {
  id: deliveryId,
  event_id: eventId,
  type: 'prospect.created',
  status: 'failed',
  attempts: 8,
  last_status_code: 503,
  last_error: 'Réponse 503 du destinataire.',
  next_attempt_at: null,
  created_at: '2026-11-19T07:12:00.000Z',
};

export const eventsOperations: Record<string, OperationText> = {
  listWebhookCalls: {
    summary: 'List the calls of the webhooks',
    description:
      "The calls of the lead and recruitment webhooks that named this workspace's endpoint, kept 30 days, newest " +
      "first, by pages; `failed=true`: those answered 400 or more. A minute's refusals past the 10th make one entry " +
      'whose `count` says how many they were. Never a body (see the call).',
    query: ['Failed', 'Limit', 'Cursor'],
    success: {
      200: {
        description: 'A page of calls.',
        schema: 'WebhookCallPage',
        examples: example('One failed call, more to come', { calls: [lostCall], next_cursor: exampleCursor }),
      },
    },
    errors: {
      400: {
        ...limitOrCursor('list (a cursor of the failed calls is not one of every call)'),
        description:
          '`failed` neither `true` nor `false`; ' +
          limitOrCursor('list (a cursor of the failed calls is not one of every call)').description,
        examples: [
          {
            summary: 'Invalid failed',
            message: messages.settingsEvents.invalidFailed,
            details: field('failed', messages.settingsEvents.invalidFailed),
          },
          ...limitOrCursor('list').examples,
        ],
      },
    },
  },

  getWebhookCall: {
    summary: 'Show a call of the webhooks, with its kept body',
    description:
      'The call and the body it carried, read as the webhook reads it: kept only for an authenticated call that did ' +
      'not succeed, `{ "raw" }` when it was cut at 64 KB (or cannot be read), null otherwise.',
    success: {
      200: {
        description: 'The call and its body.',
        schema: 'WebhookCallDocument',
        examples: example('A lead lost to an outage', {
          call: lostCall,
          body: { first_name: 'Nina', email: 'nina.roux@exemple.test' },
        }),
      },
    },
    errors: { 404: callNotFound },
  },

  replayWebhookCall: {
    summary: 'Replay a failed call of the webhooks',
    description:
      'Runs the kept body again through the same webhook, as a new call of the same endpoint (journaled, without the ' +
      "original `Idempotency-Key`), and answers that call and the webhook's answer, whatever it is. Audited " +
      '(`webhook_call.replayed`).',
    success: {
      200: {
        description: "The new call and the webhook's answer (an error answer too).",
        schema: 'WebhookReplay',
        examples: example('Replayed, now created', {
          call: replayedCall,
          response: { status: 200, body: { status: 'created', prospect_id: ids.prospect, warnings: [] } },
        }),
      },
    },
    errors: {
      404: callNotFound,
      422: {
        description: 'No body was kept for that call (a success, or a refused token), or it was cut at 64 KB.',
        examples: [
          { summary: 'No body kept', message: messages.admin.webhook.noBodyKept(callId) },
          { summary: 'Body cut at 64 KB', message: messages.admin.webhook.bodyTruncated(callId) },
        ],
      },
    },
  },

  listSubscriptions: {
    summary: 'List the subscriptions to outbound events',
    description: 'Every subscription of the workspace, oldest first; never a secret.',
    success: {
      200: {
        description: 'The subscriptions.',
        schema: 'SubscriptionList',
        examples: example('One subscription', { subscriptions: [subscription] }),
      },
    },
    errors: {},
  },

  createSubscription: {
    summary: 'Subscribe a URL to outbound events',
    description:
      'An active subscription: every event of the listed types is POSTed to the URL, signed (Standard Webhooks). ' +
      'The signing secret is in this answer only. Audited (`subscription.created`, never the secret).',
    requestBody: {
      schema: 'NewSubscription',
      description: 'The URL, and the event types (all when absent).',
      examples: {
        all: { summary: 'Every event', value: { url: subscription.url } },
        notes: { summary: 'Notes only', value: { url: subscription.url, events: ['prospect.note_added'] } },
      },
    },
    success: {
      201: {
        description: 'Subscribed; the secret, shown this once.',
        schema: 'CreatedSubscription',
        examples: example('Every event', {
          id: subscriptionId,
          url: subscription.url,
          events: [...eventTypes],
          secret,
        }),
      },
    },
    errors: {
      400: {
        description: 'A URL that is not accepted, or an unknown event type (`details.field` names it).',
        examples: [
          {
            summary: 'Not https',
            message: messages.admin.subscription.httpsRequired('ftp://exemple.test'),
            details: field('url', messages.admin.subscription.httpsRequired('ftp://exemple.test')),
          },
        ],
      },
    },
  },

  updateSubscription: {
    summary: 'Turn a subscription off or on, or change its event types',
    description:
      '`active`: events written while it is off are never sent later. `events`: the event types sent from now on, ' +
      'replacing the whole list; a type added to the service since the subscription was created is sent only once ' +
      'listed so. Events written before keep their deliveries. At least one of the two. Written with its audit ' +
      'entries in one transaction: `subscription.disabled` or `subscription.enabled`, `subscription.events_changed` ' +
      'naming the types.',
    requestBody: {
      schema: 'SubscriptionChange',
      description: 'Whether events are sent, and which.',
      examples: {
        off: { summary: 'Turn it off', value: { active: false } },
        events: {
          summary: 'Notes and follow-ups due',
          value: { events: ['prospect.note_added', 'prospect.follow_up_due'] },
        },
      },
    },
    success: {
      200: {
        description: "The subscription's state after the change, its event types as stored.",
        schema: 'SubscriptionState',
        examples: example('Off', { id: subscriptionId, active: false, events: [...eventTypes] }),
      },
    },
    errors: {
      400: {
        description:
          'An unknown event type, an empty list, or a type with a comma (`details.field`: `events`); `active` not a ' +
          'boolean, another member, or neither member.',
        examples: [
          {
            summary: 'Unknown event type',
            message: messages.admin.subscription.unknownEventTypes('prospect.deleted', eventTypes.join(', ')),
            details: field(
              'events',
              messages.admin.subscription.unknownEventTypes('prospect.deleted', eventTypes.join(', ')),
            ),
          },
          {
            summary: 'No event type',
            message: messages.admin.subscription.noEventType,
            details: field('events', messages.admin.subscription.noEventType),
          },
        ],
      },
      404: subscriptionNotFound,
    },
  },

  deleteSubscription: {
    summary: 'Delete a subscription',
    description:
      'Nothing more is sent to it, its pending deliveries stop, and its secret is deleted. Audited ' +
      '(`subscription.deleted`).',
    success: {
      200: {
        description: 'Deleted.',
        schema: 'DeletedSubscription',
        examples: example('Deleted', { id: subscriptionId, deleted: true }),
      },
    },
    errors: { 404: subscriptionNotFound },
  },

  rotateSubscriptionSecret: {
    summary: 'Give a subscription a new signing secret',
    description:
      "A new secret, in this answer only. For 24 hours every delivery carries two signatures, the old secret's and " +
      "the new one's, then the new one's only; a second rotation within those 24 hours drops the oldest. Audited " +
      '(`subscription.secret_rotated`, never the secret).',
    success: {
      201: {
        description: 'The new secret, shown this once.',
        schema: 'RotatedSecret',
        examples: example('Rotated', { id: subscriptionId, secret }),
      },
    },
    errors: {
      404: subscriptionNotFound,
      409: {
        description:
          'A subscription whose secret an earlier version kept elsewhere, not yet moved by the platform team.',
        examples: [
          { summary: 'Secret not moved', message: messages.admin.subscription.secretNotMoved(subscriptionId) },
        ],
      },
    },
  },

  listDeliveries: {
    summary: 'List the deliveries of a subscription',
    description:
      'The deliveries of the subscription (30 days), newest first, by pages; `status` keeps those in that state.',
    query: ['DeliveryStatus', 'Limit', 'Cursor'],
    success: {
      200: {
        description: 'A page of deliveries.',
        schema: 'DeliveryPage',
        examples: example('A failed delivery', { deliveries: [delivery], next_cursor: null }),
      },
    },
    errors: {
      400: {
        description: `\`status\` none of pending, delivered, failed; ${limitOrCursor('list (and status)').description} Checked before the subscription.`,
        examples: [
          {
            summary: 'Unknown status',
            message: messages.admin.subscription.invalidStatus('perdue'),
            details: field('status', messages.admin.subscription.invalidStatus('perdue')),
          },
          ...limitOrCursor('list').examples,
        ],
      },
      404: subscriptionNotFound,
    },
  },

  redeliverDelivery: {
    summary: 'Send a delivery again now',
    description:
      'A new attempt of the same delivery (same `webhook-id`), outside its schedule, queued at once: the functions ' +
      'that sign send it within seconds, and the delivery then shows its outcome. Audited (`delivery.redelivered`).',
    success: {
      202: {
        description: 'Queued: the delivery as it stood.',
        schema: 'Delivery',
        examples: example('A failed delivery sent again', delivery),
      },
    },
    errors: {
      404: {
        description:
          'No such delivery in this workspace (also an id that is not a UUID, or one past its 30 days), or its ' +
          'subscription was deleted.',
        examples: [{ summary: 'Unknown delivery', message: messages.settingsEvents.deliveryNotFound }],
      },
      409: {
        description: 'Its subscription is turned off: turn it on first.',
        examples: [{ summary: 'Subscription off', message: messages.delivery.redeliverDisabled(subscriptionId) }],
      },
    },
  },
};
