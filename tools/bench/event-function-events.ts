import { randomUUID } from 'node:crypto';
import type { _Record as StreamApiRecord, AttributeValue as StreamApiValue } from '@aws-sdk/client-dynamodb-streams';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent, SQSEvent } from 'aws-lambda';
import type { SeedOutput } from '../../lib/admin/seed';
import { parseDeliveryMessage } from '../../lib/domain/events/deliver';
import { subjectOfChange } from '../../lib/domain/events/events-of-change';
import type { DeliveryMessage } from '../../lib/domain/events/ports';
import { derivedTimeOrderedId } from '../../lib/ids';
import { items } from '../../lib/storage/table-items';
import { storedChangeOf } from '../../lib/storage/stream-records';
import { localStage } from '../local/api-gateway';
import { lambdaRecord, sqsRecord } from '../local/event-pipeline';

/**
 * The first events of the outbound-event functions (lib/routes.ts `eventFunctions`), built by the
 * code `npm start` feeds them with: a stream record as the local runtime turns DynamoDB Streams
 * records into Lambda's (`lambdaRecord`), a queue message as the local runtime hands it over (`sqsRecord`).
 */

/**
 * The delivery queue the functions are configured with (`DELIVERY_QUEUE_URL`, read on import).
 * Nothing is sent to it in a cold start: the stream handler queues nothing for a workspace without
 * subscription, and the delivery function nothing for a delivery it drops.
 */
export const benchDeliveryQueueUrl = `https://sqs.${localStage.region}.amazonaws.com/${localStage.accountId}/crm-bench-deliveries`;

const streamArn = `arn:aws:dynamodb:${localStage.region}:${localStage.accountId}:table/crm-bench/stream/bench`;

/**
 * Run `run`'s stream batch: one INSERT of a new prospect of the workspace (a lead from the lead
 * webhook, tagged, in the default pipeline), its image marshalled as the stream reports it. A new
 * prospect id each run, so that no run replays another's record. The bench workspace has no
 * subscription: the handler reads the workspace's configuration partition (one Query), finds no one
 * to deliver to, and answers without a write.
 */
export function prospectCreatedBatch(seed: SeedOutput, run: number): DynamoDBStreamEvent {
  const sales = seed.pipelines.sales;
  const at = new Date();
  const createdAt = at.toISOString();
  const prospect = items.prospect({
    id: randomUUID(),
    workspace_id: seed.workspace_id,
    pipeline_id: sales?.id ?? null,
    stage_id: sales?.stages.Nouveau ?? null,
    setter_id: null,
    closer_id: null,
    next_follow_up_at: null,
    first_name: 'Flora',
    last_name: `Flux ${run}`,
    email: `flux-${run}@banc.test`,
    phone: `+339${String(run).padStart(8, '0')}`,
    social_url: null,
    source: 'Typeform - formulaire de contact',
    tag_ids: new Set(seed.tags.vip === undefined ? [] : [seed.tags.vip]),
    version: 1,
    created_at: createdAt,
    updated_at: createdAt,
    actor: { kind: 'webhook', id: seed.webhook?.endpoint_id ?? null },
  });
  // The DynamoDB Streams API's record ("Record", Amazon DynamoDB Streams API Reference): the SDK's
  // attribute values, which marshall makes, the values of both APIs being the same JSON shapes.
  const image = marshall(prospect) as Record<string, StreamApiValue>;
  const apiRecord: StreamApiRecord = {
    eventID: randomUUID(),
    eventName: 'INSERT',
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: localStage.region,
    dynamodb: {
      ApproximateCreationDateTime: new Date(Math.floor(at.getTime() / 1000) * 1000),
      Keys: marshall({ pk: prospect.pk, sk: prospect.sk }) as Record<string, StreamApiValue>,
      NewImage: image,
      SequenceNumber: String(run + 1).padStart(21, '0'),
      SizeBytes: Buffer.byteLength(JSON.stringify(image)),
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  };
  const record = lambdaRecord(apiRecord, streamArn);
  assertCreatesProspect(record, seed.workspace_id);
  return { Records: [record] };
}

/** A record the handler would not read as a new prospect times nothing. */
function assertCreatesProspect(record: DynamoDBRecord, workspaceId: string): void {
  const subject = subjectOfChange(storedChangeOf(record));
  if (subject?.workspaceId !== workspaceId || !subject.types.includes('prospect.created')) {
    throw new Error('the stream handler would not read the bench record as a new prospect');
  }
}

/**
 * Run `run`'s queue batch: one delivery message, as the stream handler queues it (step 0, due now),
 * for a delivery that does not exist. The function reads the delivery with its subscription (one
 * BatchGetItem), finds none, and drops the message. A real attempt cannot be timed here: the
 * deployed bundle's policy (`productionEventDeps`: network 'aws') refuses plain http and loopback
 * addresses, so no receiver on this machine can take its POST (lib/outbound/address-policy.ts).
 */
export function unknownDeliveryBatch(seed: SeedOutput, run: number): SQSEvent {
  const now = new Date();
  const message: DeliveryMessage = {
    workspace_id: seed.workspace_id,
    delivery_id: derivedTimeOrderedId(now, `bench#delivery#${run}`),
    subscription_id: derivedTimeOrderedId(now, `bench#subscription#${run}`),
    step: 0,
    not_before: now.toISOString(),
  };
  const body = JSON.stringify(message);
  if (parseDeliveryMessage(body) === undefined)
    throw new Error('the delivery function would drop the bench message unread');
  return { Records: [sqsRecord({ messageId: randomUUID(), body, receives: 1, sentAt: now.getTime() })] };
}
