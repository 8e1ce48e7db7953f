import type { Deps, SecretsDeps } from '../../storage/client';
import type { NetworkPolicy } from '../../outbound/address-policy';

/**
 * A queue message asks for one scheduled attempt of one delivery. SQS delays a message at most
 * 15 minutes, so a longer wait is a chain: a message received before `not_before` is sent again
 * with the remaining delay (at most 900 s), until it is due.
 */
export type DeliveryMessage = {
  workspace_id: string;
  delivery_id: string;
  /** The delivery's subscription: the attempt reads both items in one BatchGetItem. */
  subscription_id: string;
  /** The step of the retry schedule this message runs (0: the first attempt). */
  step: number;
  /** ISO 8601: not to be attempted before this time. */
  not_before: string;
  /**
   * A redelivery asked for through the settings API (docs/api.md#settings-api): one attempt now, outside the schedule,
   * whatever the delivery's status (lib/domain/events/redeliver.ts), instead of scheduled step `step`.
   */
  redelivery?: true;
};

/** SQS's limit on DelaySeconds. */
export const maxQueueDelaySeconds = 900;

/**
 * A queue of the events wing: SQS on AWS (lib/queue), the local stand-in in `npm start` (tools/local). Each message
 * carries its own delay, at most `maxQueueDelaySeconds`.
 */
export type MessageQueue<Message> = {
  send(messages: readonly { message: Message; delaySeconds: number }[]): Promise<void>;
};

/** The delivery queue: one message per attempt of a delivery. */
export type DeliveryQueue = MessageQueue<DeliveryMessage>;

export type OutboundRequest = { url: string; headers: Record<string, string>; body: string; timeoutMs: number };

/** What one POST gave: an HTTP status, or an error before any status (refused address, timeout, TLS…). */
export type OutboundResult = { status: number } | { error: string };

/** The HTTP client of deliveries (lib/outbound): address checks, a timeout, no redirects followed. */
export type HttpSender = (request: OutboundRequest) => Promise<OutboundResult>;

export type EventDeps = Deps & { queue: DeliveryQueue; send: HttpSender; network: NetworkPolicy };

/** The delivery function's: it signs, so it alone of the functions is given the signing-secrets table. */
export type DeliveryDeps = EventDeps & Pick<SecretsDeps, 'secretsTableName'>;
