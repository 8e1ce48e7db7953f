import { captureLogs } from '../support/captured-logs';
import { randomUUID } from 'node:crypto';
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { productionDeps, createDocumentClient } from '../../lib/storage/client';
import { fanOut } from '../../lib/domain/events/fan-out';
import type { EventType } from '../../lib/domain/events/event-types';
import type { DeliveryMessage } from '../../lib/domain/events/ports';
import type { StreamDeps } from '../../lib/domain/events/fan-out';
import { recordingFollowUpQueue } from '../support/follow-up-queue';
import { eventItems, type DeliveryItem, type SubscriptionItem } from '../../lib/storage/event-items';
import { keys, items, type ProspectItem } from '../../lib/storage/table-items';
import type { StoredChange } from '../../lib/storage/stream-records';
import { configItems } from '../../lib/storage/workspace-config';
import type * as StreamHandler from '../../functions/events/stream-handler';
import { aProspectItem } from '../support/prospect-items';
import { setTestQueueUrls } from '../support/queue-urls';

type Sent = { message: DeliveryMessage; delaySeconds: number };

/** The delivery queue, recording what is sent; `failing` makes a send throw (fault injection). */
function recordingQueue() {
  const sent: Sent[] = [];
  const queue = {
    sent,
    failing: false,
    send: async (messages: readonly Sent[]) => {
      if (queue.failing) throw new Error('File indisponible (simulée)');
      sent.push(...messages);
    },
  };
  return queue;
}

const base = productionDeps();
const put = (item: object) =>
  base.db.send(new PutCommand({ TableName: base.tableName, Item: item as Record<string, unknown> }));

function depsWith(queue: ReturnType<typeof recordingQueue>, db = base.db): StreamDeps {
  return {
    ...base,
    db,
    queue,
    send: () => Promise.reject(new Error('no POST in the fan-out')),
    network: 'local',
    followUpQueue: recordingFollowUpQueue(),
  };
}

const tagId = randomUUID();

/** A workspace configuration item with one tag, « VIP ». */
async function aWorkspace(): Promise<string> {
  const id = randomUUID();
  await put(
    configItems.workspace(
      { id, name: 'Espace', created_at: new Date().toISOString() },
      { members: [], tags: [{ id: tagId, name: 'VIP' }], salesPipelines: [], recruitmentPipelines: [], fields: [] },
    ),
  );
  return id;
}

async function aSubscription(workspaceId: string, events: EventType[], active = true): Promise<SubscriptionItem> {
  const subscription = eventItems.subscription({
    id: randomUUID(),
    workspace_id: workspaceId,
    url: 'https://exemple.test/hook',
    events,
    active,
    created_at: new Date().toISOString(),
  });
  await put(subscription);
  return subscription;
}

async function deliveriesOf(workspaceId: string): Promise<DeliveryItem[]> {
  const { Items } = await base.db.send(
    new QueryCommand({
      TableName: base.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.deliveriesPk(workspaceId) },
      ConsistentRead: true,
    }),
  );
  return (Items ?? []) as DeliveryItem[];
}

let sequence = 1000;
const nextSequence = () => String((sequence += 1)).padStart(21, '0');

const insert = (item: object): StoredChange => {
  const { pk, sk } = item as { pk: string; sk: string };
  return { eventName: 'INSERT', sequenceNumber: nextSequence(), pk, sk, after: { ...item } };
};
const modify = (before: object, after: object): StoredChange => ({
  ...insert(after),
  eventName: 'MODIFY',
  before: { ...before },
});

/** A prospect written to the table (a note event reads it), and its INSERT. */
async function aStoredProspect(workspaceId: string, fields: Partial<ProspectItem> = {}) {
  const prospect = aProspectItem(workspaceId, { first_name: 'Léa', ...fields });
  await put(prospect);
  return { prospect, change: insert(prospect) };
}

const stageChange = (prospect: ProspectItem, stageId: string) =>
  modify(prospect, {
    ...prospect,
    stage_id: stageId,
    version: prospect.version + 1,
    updated_at: new Date(Date.parse(prospect.updated_at) + 1000).toISOString(),
    actor: { kind: 'api_key', id: randomUUID() },
  });

describe('fan-out of stored changes to deliveries and queue messages', () => {
  it('creates one pending delivery per active subscription listing the type, and queues its first attempt', async () => {
    const workspaceId = await aWorkspace();
    const all = await aSubscription(workspaceId, ['prospect.created', 'prospect.updated', 'prospect.note_added']);
    const updatesOnly = await aSubscription(workspaceId, ['prospect.updated']);
    await aSubscription(workspaceId, ['prospect.created', 'prospect.updated'], false);
    const { prospect, change } = await aStoredProspect(workspaceId, { tag_ids: new Set([tagId]) });
    const queue = recordingQueue();

    expect(await fanOut(depsWith(queue), [change, stageChange(prospect, 'stage-2')])).toEqual({});

    const deliveries = await deliveriesOf(workspaceId);
    expect(deliveries.map((delivery) => [delivery.subscription_id, delivery.event_type]).sort()).toEqual(
      [
        [all.id, 'prospect.created'],
        [all.id, 'prospect.updated'],
        [updatesOnly.id, 'prospect.updated'],
      ].sort(),
    );
    const created = deliveries.find((delivery) => delivery.event_type === 'prospect.created');
    expect(created).toEqual(
      expect.objectContaining({
        workspace_id: workspaceId,
        status: 'pending',
        attempts: 0,
        step: 0,
        last_status_code: null,
        last_error: null,
        next_attempt_at: prospect.created_at,
        created_at: prospect.created_at,
        expires_at: Math.floor(Date.parse(prospect.created_at) / 1000) + 30 * 24 * 3600,
      }),
    );
    expect(JSON.parse(created?.payload ?? '')).toEqual({
      type: 'prospect.created',
      timestamp: prospect.created_at,
      data: {
        prospect: expect.objectContaining({ id: prospect.id, tags: [{ id: tagId, name: 'VIP' }] }),
        actor: { kind: 'admin', id: null },
      },
    });
    const updated = deliveries.filter((delivery) => delivery.event_type === 'prospect.updated');
    expect(new Set(updated.map((delivery) => delivery.event_id)).size).toBe(1);
    expect(new Set(updated.map((delivery) => delivery.payload)).size).toBe(1);
    expect(queue.sent.sort((a, b) => a.message.delivery_id.localeCompare(b.message.delivery_id))).toEqual(
      deliveries
        .map((delivery) => ({
          message: {
            workspace_id: workspaceId,
            delivery_id: delivery.id,
            subscription_id: delivery.subscription_id,
            step: 0,
            not_before: delivery.created_at,
          },
          delaySeconds: 0,
        }))
        .sort((a, b) => a.message.delivery_id.localeCompare(b.message.delivery_id)),
    );
  });

  it('reads the prospect of a note event, strongly consistent, and shows it with its tag names', async () => {
    const workspaceId = await aWorkspace();
    await aSubscription(workspaceId, ['prospect.note_added']);
    const { prospect } = await aStoredProspect(workspaceId, { tag_ids: new Set([tagId]) });
    const content = 'Rappel 📞 Re\u0301union';
    const note = items.note('prospect', {
      id: randomUUID(),
      workspace_id: workspaceId,
      record_id: prospect.id,
      content,
      date: prospect.created_at,
      created_at: new Date().toISOString(),
      key_id: null,
      actor: { kind: 'api_key', id: 'k' },
    });
    await put(note);
    const queue = recordingQueue();

    expect(await fanOut(depsWith(queue), [insert(note)])).toEqual({});

    const [delivery, ...others] = await deliveriesOf(workspaceId);
    expect(others).toEqual([]);
    expect(JSON.parse(delivery?.payload ?? '').data).toEqual({
      prospect: expect.objectContaining({ id: prospect.id, first_name: 'Léa', tags: [{ id: tagId, name: 'VIP' }] }),
      note: { id: note.id, content, date: note.date, created_at: note.created_at },
      changes: [{ field: 'note', before: null, after: note.id }],
      actor: { kind: 'api_key', id: 'k' },
    });
    expect(queue.sent).toHaveLength(1);
  });

  it('creates nothing in a workspace without subscriptions, and keeps two workspaces apart', async () => {
    const [first, second, silent] = [await aWorkspace(), await aWorkspace(), await aWorkspace()];
    const firstSubscription = await aSubscription(first, ['prospect.created']);
    const secondSubscription = await aSubscription(second, ['prospect.created']);
    const changes = [
      (await aStoredProspect(first)).change,
      (await aStoredProspect(second)).change,
      (await aStoredProspect(second)).change,
      (await aStoredProspect(silent)).change,
    ];
    const queue = recordingQueue();

    expect(await fanOut(depsWith(queue), changes)).toEqual({});

    const inFirst = await deliveriesOf(first);
    const inSecond = await deliveriesOf(second);
    expect(inFirst.map((delivery) => delivery.subscription_id)).toEqual([firstSubscription.id]);
    expect(inSecond.map((delivery) => delivery.subscription_id)).toEqual([
      secondSubscription.id,
      secondSubscription.id,
    ]);
    expect(inSecond.every((delivery) => delivery.workspace_id === second)).toBe(true);
    expect(await deliveriesOf(silent)).toEqual([]);
    expect(queue.sent.filter((sent) => sent.message.workspace_id === first)).toHaveLength(1);
    expect(queue.sent.filter((sent) => sent.message.workspace_id === second)).toHaveLength(2);
    expect(queue.sent).toHaveLength(3);
  });

  it('processes the same changes twice into one delivery each, queued again only while never attempted', async () => {
    const workspaceId = await aWorkspace();
    await aSubscription(workspaceId, ['prospect.created']);
    const changes = [(await aStoredProspect(workspaceId)).change, (await aStoredProspect(workspaceId)).change];
    const queue = recordingQueue();
    await fanOut(depsWith(queue), changes);
    const firstRound = await deliveriesOf(workspaceId);
    const [claimed, unsent] = firstRound;
    // The delivery function claimed one of them (lib/storage/delivery-attempts.ts claimStep).
    await base.db.send(
      new UpdateCommand({
        TableName: base.tableName,
        Key: keys.delivery(workspaceId, claimed?.id ?? ''),
        UpdateExpression: 'SET claimed_step = :zero, claimed_at = :now, attempts = attempts + :one',
        ExpressionAttributeValues: { ':zero': 0, ':now': new Date().toISOString(), ':one': 1 },
      }),
    );
    const again = recordingQueue();

    expect(await fanOut(depsWith(again), changes)).toEqual({});

    const secondRound = await deliveriesOf(workspaceId);
    expect(secondRound.map((delivery) => delivery.id)).toEqual(firstRound.map((delivery) => delivery.id));
    expect(secondRound.find((delivery) => delivery.id === claimed?.id)?.attempts).toBe(1);
    expect(again.sent.map((sent) => sent.message.delivery_id)).toEqual([unsent?.id]);
  });

  it('reports the earliest change that queued a message when the queue throws; the deliveries stay', async () => {
    const workspaceId = await aWorkspace();
    await aSubscription(workspaceId, ['prospect.created']);
    const silent = await aWorkspace();
    const marker = items.marker(keys.emailMarker(workspaceId, 'a@exemple.test'), workspaceId, randomUUID());
    const changes = [
      insert(marker),
      (await aStoredProspect(silent)).change,
      (await aStoredProspect(workspaceId)).change,
      (await aStoredProspect(workspaceId)).change,
    ];
    const queue = recordingQueue();
    queue.failing = true;
    const logs = captureLogs('ERROR');

    expect(await fanOut(depsWith(queue), changes)).toEqual({ failedSequenceNumber: changes[2]?.sequenceNumber });

    expect(await deliveriesOf(workspaceId)).toHaveLength(2);
    logs.restore();
    expect(logs.lines().filter((line) => line.level === 'ERROR')).toHaveLength(1);
    expect(logs.raw().join('\n')).not.toContain('Léa');
    queue.failing = false;
    expect(await fanOut(depsWith(queue), changes.slice(2))).toEqual({});
    expect(queue.sent).toHaveLength(2);
  });

  it('reports the earliest change of a workspace whose context cannot be read, and still serves the others', async () => {
    const healthy = await aWorkspace();
    const broken = await aWorkspace();
    await aSubscription(healthy, ['prospect.created']);
    await aSubscription(broken, ['prospect.created']);
    const faulty = createDocumentClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
    faulty.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'QueryCommand' && JSON.stringify(args.input).includes(broken)) {
          throw new Error('Panne simulée');
        }
        return next(args);
      },
      { step: 'initialize', name: 'faultInjection' },
    );
    const changes = [
      (await aStoredProspect(healthy)).change,
      (await aStoredProspect(broken)).change,
      (await aStoredProspect(healthy)).change,
    ];
    const queue = recordingQueue();
    const logs = captureLogs('ERROR');

    expect(await fanOut(depsWith(queue, faulty), changes)).toEqual({
      failedSequenceNumber: changes[1]?.sequenceNumber,
    });

    logs.restore();
    faulty.destroy();
    expect(await deliveriesOf(healthy)).toHaveLength(2);
    expect(await deliveriesOf(broken)).toEqual([]);
    expect(queue.sent.map((sent) => sent.message.workspace_id)).toEqual([healthy, healthy]);
  });
});

describe('stream handler', () => {
  let createHandler: typeof StreamHandler.createHandler;

  beforeAll(async () => {
    // The module builds its production dependencies on import, which need the queue's URL.
    setTestQueueUrls();
    ({ createHandler } = await import('../../functions/events/stream-handler'));
  });

  const streamImage = (item: object) =>
    marshall(item, { removeUndefinedValues: true }) as unknown as Record<string, AttributeValue>;
  const streamRecord = (item: ProspectItem, sequenceNumber: string): DynamoDBRecord => ({
    eventName: 'INSERT',
    eventID: randomUUID(),
    dynamodb: {
      Keys: { pk: { S: item.pk }, sk: { S: item.sk } },
      NewImage: streamImage(item),
      SequenceNumber: sequenceNumber,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  });

  it('reads Lambda stream records (string sets included) and answers no failure when all went through', async () => {
    const workspaceId = await aWorkspace();
    await aSubscription(workspaceId, ['prospect.created']);
    const { prospect } = await aStoredProspect(workspaceId, { tag_ids: new Set([tagId]) });
    const queue = recordingQueue();

    const answer = await createHandler(depsWith(queue))({ Records: [streamRecord(prospect, nextSequence())] });

    expect(answer).toEqual({ batchItemFailures: [] });
    const [delivery] = await deliveriesOf(workspaceId);
    expect(JSON.parse(delivery?.payload ?? '').data.prospect.tags).toEqual([{ id: tagId, name: 'VIP' }]);
    expect(queue.sent).toHaveLength(1);
  });

  it('answers the sequence number of an unreadable record, after processing the records before it', async () => {
    const workspaceId = await aWorkspace();
    await aSubscription(workspaceId, ['prospect.created']);
    const { prospect } = await aStoredProspect(workspaceId);
    const unreadable: DynamoDBRecord = { eventName: 'INSERT', dynamodb: { SequenceNumber: nextSequence() } };
    const after = await aStoredProspect(workspaceId);
    const queue = recordingQueue();
    const logs = captureLogs('ERROR');

    const answer = await createHandler(depsWith(queue))({
      Records: [streamRecord(prospect, nextSequence()), unreadable, streamRecord(after.prospect, nextSequence())],
    });

    logs.restore();
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: unreadable.dynamodb?.SequenceNumber }] });
    expect((await deliveriesOf(workspaceId)).map((delivery) => JSON.parse(delivery.payload).data.prospect.id)).toEqual([
      prospect.id,
    ]);
  });
});
