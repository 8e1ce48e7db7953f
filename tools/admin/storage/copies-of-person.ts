import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Store } from '../../../lib/storage/client';
import type { DeliveryItem } from '../../../lib/storage/event-items';
import { keys, type WebhookCallItem } from '../../../lib/storage/table-items';

/*
 * The copies of a person kept outside their record's partition (docs/data-model.md, "Copies of a person"): the
 * journaled webhook calls that name them and the outbound deliveries whose event is about them. Their partitions are
 * the workspace's, so each is found by one Query of that partition with a filter, page after page, never a Scan: what
 * it costs is the read of the workspace's journal of 30 days, or of its deliveries, which only an export pays, a
 * rare admin action. Only the command line reads them today, hence here; written to serve an erasure as they are.
 *
 * Both are async generators of pages: each page is what the filter kept of one Query page (empty when it kept
 * nothing), in the partition's order, oldest first. A caller that deletes or rewrites what it is given as it goes
 * (the erasure) resumes an interrupted walk by starting it again: what it already handled no longer matches.
 */

/** Whose copies: a prospect or a candidate, by id. */
export type PersonSubject = { kind: 'prospect' | 'candidate'; id: string };

/** Every page of one partition that the filter keeps, strongly consistent, oldest first. */
async function* filteredPages<T>(
  store: Store,
  query: Pick<QueryCommandInput, 'FilterExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'>,
): AsyncGenerator<T[]> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await store.db.send(
      new QueryCommand({
        ...query,
        TableName: store.tableName,
        KeyConditionExpression: 'pk = :pk',
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    yield (result.Items ?? []) as T[];
    startKey = result.LastEvaluatedKey;
  } while (startKey !== undefined);
}

/**
 * Access pattern "the journaled calls of a record": the workspace's journal partition `CALL#<ws>` filtered on
 * `record_id` (a prospect's or a candidate's id, docs/api.md#webhook-call-journal), entries past their 30 days that TTL
 * has not removed yet included: the caller decides what it shows of them.
 */
export function readCallsOfRecord(
  store: Store,
  workspaceId: string,
  recordId: string,
): AsyncGenerator<WebhookCallItem[]> {
  return filteredPages<WebhookCallItem>(store, {
    FilterExpression: 'record_id = :record',
    ExpressionAttributeValues: { ':pk': keys.webhookCallsPk(workspaceId), ':record': recordId },
  });
}

/**
 * The record an event is about: `data.prospect` or `data.candidate` of its body, by the type's prefix
 * (docs/events.md). The payload is the exact JSON posted, kept as a string, so the filter can only narrow by text.
 */
function isAbout(delivery: DeliveryItem, subject: PersonSubject): boolean {
  const { data } = JSON.parse(delivery.payload) as { data?: Record<string, { id?: unknown } | undefined> };
  return data?.[subject.kind]?.id === subject.id;
}

/**
 * Access pattern "the deliveries about a record": the workspace's delivery partition `DELIVERY#<ws>` filtered on the
 * event type's prefix and on the id appearing in the payload, then kept when the event's subject is that record (a
 * note's text may quote another record's id); deliveries past their 30 days that TTL has not removed yet included.
 */
export async function* readDeliveriesAbout(
  store: Store,
  workspaceId: string,
  subject: PersonSubject,
): AsyncGenerator<DeliveryItem[]> {
  const pages = filteredPages<DeliveryItem>(store, {
    FilterExpression: 'begins_with(event_type, :kind) AND contains(payload, :id)',
    ExpressionAttributeValues: {
      ':pk': keys.deliveriesPk(workspaceId),
      ':kind': `${subject.kind}.`,
      ':id': subject.id,
    },
  });
  for await (const page of pages) yield page.filter((delivery) => isAbout(delivery, subject));
}
