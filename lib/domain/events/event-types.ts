/**
 * Outbound events (docs/api.md#outbound-events, docs/events.md): the shapes a subscriber receives. One event
 * is built from one stored write, read from the table's change stream, never from a handler.
 */
export const eventTypes = [
  'prospect.created',
  'prospect.updated',
  'prospect.note_added',
  'prospect.tag_added',
  'prospect.tag_removed',
  'prospect.follow_up_due',
  'candidate.created',
  'candidate.application_received',
  'prospect.erased',
  'candidate.erased',
] as const;

export type EventType = (typeof eventTypes)[number];

export const isEventType = (value: string): value is EventType => (eventTypes as readonly string[]).includes(value);

import type { FieldValue } from '../model';

/** Who made the write, as its writer stamped it on what it wrote. */
export type { Actor, ActorKind } from '../model';

/**
 * One value that really changed. Fields are named as in the change log (`stage`, `setter`,
 * `closer`, `follow_up`, `tags`, `note`, `fields.<key>`), plus `first_name`, `last_name`, `email`, `phone` for a
 * lead update; values as stored (ids, ISO 8601 timestamps, strings), a custom field's as answered, null when absent.
 */
export type EventChange = { field: string; before: FieldValue | null; after: FieldValue | null };

/**
 * The body POSTed to the subscriber: `{ type, timestamp, data }`. The event's id travels in the
 * `webhook-id` header (Standard Webhooks), the same on every attempt. `timestamp` is the time of
 * the write (ISO 8601 UTC), the same on every attempt too.
 */
export type EventBody = { type: EventType; timestamp: string; data: Record<string, unknown> };

export type OutboundEvent = { id: string; workspaceId: string; body: EventBody };
