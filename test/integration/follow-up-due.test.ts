import { randomUUID } from 'node:crypto';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type * as StreamHandler from '../../functions/events/stream-handler';
import type { StreamDeps } from '../../lib/domain/events/fan-out';
import type { DeliveryMessage } from '../../lib/domain/events/ports';
import type { FollowUpDeps, FollowUpDueMessage } from '../../lib/domain/follow-ups/ports';
import { sendFollowUpDue } from '../../lib/domain/follow-ups/send-follow-up-due';
import { sweepFollowUps } from '../../lib/domain/follow-ups/sweep-follow-ups';
import { createSubscription } from '../../lib/settings/subscriptions';
import { createDynamoClient, loadSecretsTableName, productionDeps, type Deps } from '../../lib/storage/client';
import type { DeliveryItem } from '../../lib/storage/event-items';
import type { FollowUpScheduleItem } from '../../lib/storage/follow-up-schedule';
import { derivedTimeOrderedId, keys, type ItemKey, type ProspectItem } from '../../lib/storage/table-items';
import { configItems } from '../../lib/storage/workspace-config';
import { ensureTable } from '../../tools/local/create-table';
import { recordingFollowUpQueue } from '../support/follow-up-queue';
import { aProspectItem } from '../support/prospect-items';
import { aStreamEvent, aStreamRecord } from '../support/recorded-events';
import { recordingMetrics } from '../support/recording-metrics';
import { setTestQueueUrls } from '../support/queue-urls';

/**
 * `prospect.follow_up_due` (docs/events.md, "Follow-ups falling due"), against DynamoDB Local with the clock
 * injected: the schedule kept from the change stream, the sweep's clock and horizon, the send's one conditional write,
 * and the event the stream makes of it. On a table of its own: the sweep reads every workspace's follow-ups (index
 * gsi4) and one clock, and must see only this file's.
 */

const tableName = `crm-test-follow-ups-${randomUUID()}`;
const secretsTableName = loadSecretsTableName();
const minute = 60_000;
const day = 24 * 60 * minute;
/**
 * Each world starts three days after the previous one: the sweep's clock and index are the table's, and a world's
 * runs must find neither another's follow-ups (over 24 hours old by then) nor its clock (behind the day they read).
 */
const firstStart = Date.parse('2026-12-07T09:00:00.000Z');
let worlds = 0;
let t0 = firstStart;
let now = t0;
let base: Deps;
let createStreamHandler: typeof StreamHandler.createHandler;

beforeAll(async () => {
  const client = createDynamoClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
  await ensureTable(client, tableName);
  client.destroy();
  base = { ...productionDeps(), tableName, metrics: recordingMetrics(), clock: () => new Date(now) };
  setTestQueueUrls();
  ({ createHandler: createStreamHandler } = await import('../../functions/events/stream-handler'));
});
afterAll(async () => {
  await base.db.send(new DeleteTableCommand({ TableName: tableName }));
  base.db.destroy();
});

/** A world of its own per test: a workspace subscribed to every type (no `events`), queues that keep what they get. */
async function aWorld() {
  t0 = firstStart + worlds * 3 * day;
  worlds += 1;
  now = t0;
  const workspaceId = randomUUID();
  await base.db.send(
    new PutCommand({
      TableName: tableName,
      Item: configItems.workspace(
        { id: workspaceId, name: 'Relances', created_at: new Date(t0).toISOString() },
        { members: [], tags: [], salesPipelines: [], recruitmentPipelines: [], fields: [] },
      ),
    }),
  );
  const subscription = await createSubscription(
    { ...base, secretsTableName },
    { workspaceId, url: 'http://127.0.0.1:9/hook', network: 'local' },
  );
  const followUps = recordingFollowUpQueue();
  const deliveryMessages: DeliveryMessage[] = [];
  const deps: StreamDeps & FollowUpDeps = {
    ...base,
    followUpQueue: followUps,
    queue: { send: async (sent) => void deliveryMessages.push(...sent.map(({ message }) => message)) },
    send: () => Promise.reject(new Error('no POST here')),
    network: 'local',
  };
  const streamHandler = createStreamHandler(deps);
  /** Records handed to the stream handler, as Lambda would, in order; it must take them all. */
  const stream = async (...records: DynamoDBRecord[]) =>
    expect(await streamHandler(aStreamEvent(records))).toEqual({ batchItemFailures: [] });

  const get = async (key: ItemKey) =>
    (await base.db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;
  /** A write and its stream record, read from the item before and after it (the change stream's images). */
  const recordOf = async (key: ItemKey, write: () => Promise<unknown>): Promise<DynamoDBRecord> => {
    const before = await get(key);
    await write();
    const after = await get(key);
    if (!after) throw new Error('nothing written');
    return aStreamRecord(before ? { before, after } : { after });
  };

  let prospect: ProspectItem | undefined;
  /** The prospect written at `now` (a new version) with that follow-up: its stream record, not yet handed over. */
  const setFollowUp = (followUpAt: number | null) => {
    const at = new Date(now).toISOString();
    const next: ProspectItem = prospect
      ? { ...prospect, version: prospect.version + 1, updated_at: at, next_follow_up_at: iso(followUpAt) }
      : aProspectItem(workspaceId, { created_at: at, first_name: 'Inès', next_follow_up_at: iso(followUpAt) });
    prospect = next;
    return recordOf(keys.prospect(workspaceId, next.id), () =>
      base.db.send(new PutCommand({ TableName: tableName, Item: next })),
    );
  };
  const scheduleKey = () => keys.followUpSchedule(workspaceId, prospect?.id ?? '');
  const schedule = async () => (await get(scheduleKey())) as FollowUpScheduleItem | undefined;
  /** A follow-up message handed to the send at `now`; the schedule's change it made, handed to the stream. */
  const send = async (message: FollowUpDueMessage) => {
    let outcome;
    const record = await recordOf(scheduleKey(), async () => (outcome = await sendFollowUpDue(deps, message)));
    if (outcome === 'sent') await stream(record);
    return outcome;
  };
  /** The deliveries of `prospect.follow_up_due` (the subscription takes every type: the prospect's writes make theirs). */
  const deliveries = async () => {
    const { Items = [] } = await base.db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.deliveriesPk(workspaceId) },
        ConsistentRead: true,
      }),
    );
    return (Items as DeliveryItem[])
      .filter((delivery) => delivery.event_type === 'prospect.follow_up_due')
      .map((delivery) => ({
        ...delivery,
        body: JSON.parse(delivery.payload) as { type: string; timestamp: string; data: Record<string, unknown> },
      }));
  };
  const messageFor = (followUpAt: number): FollowUpDueMessage => ({
    workspace_id: workspaceId,
    prospect_id: prospect?.id ?? '',
    follow_up_at: new Date(followUpAt).toISOString(),
  });
  return {
    workspaceId,
    subscription,
    followUps,
    deps,
    stream,
    setFollowUp,
    schedule,
    send,
    deliveries,
    messageFor,
    prospect: () => get(keys.prospect(workspaceId, prospect?.id ?? '')) as Promise<ProspectItem>,
  };
}

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());
/** What the sweep queued at its last run, by time. */
const queuedTimes = (queue: ReturnType<typeof recordingFollowUpQueue>) =>
  queue.sent.map(({ message, delaySeconds }) => ({ at: message.follow_up_at, delaySeconds }));

describe('a follow-up falling due', () => {
  test('is queued by the sweep to its second, sent once at its time and not before, as one event whose id comes from the prospect and the time; the prospect is not changed', async () => {
    const world = await aWorld();
    expect(world.subscription.events).toContain('prospect.follow_up_due');
    const due = t0 + 60 * minute;
    await world.stream(await world.setFollowUp(due));
    const written = await world.prospect();
    expect(await world.schedule()).toMatchObject({ follow_up_at: iso(due), gsi4sk: iso(due), prospect_version: 1 });
    // An hour ahead: neither the stream handler nor the sweep queues it yet.
    expect(await sweepFollowUps(world.deps)).toMatchObject({ queued: 0, to: iso(t0 + 3 * minute) });
    expect(world.followUps.sent).toEqual([]);

    now = due - 100_000;
    await sweepFollowUps(world.deps);
    expect(queuedTimes(world.followUps)).toEqual([{ at: iso(due), delaySeconds: 100 }]);

    // Received a second early (SQS's delay, a clock ahead): back in the queue for the second left, nothing sent.
    now = due - 999;
    expect(await world.send(world.messageFor(due))).toBe('early');
    expect(world.followUps.sent.at(-1)).toEqual({ message: world.messageFor(due), delaySeconds: 1 });
    expect(await world.deliveries()).toEqual([]);

    now = due + 2_000;
    expect(await world.send(world.messageFor(due))).toBe('sent');
    const [delivery, ...others] = await world.deliveries();
    expect(others).toEqual([]);
    expect(delivery?.body).toEqual({
      type: 'prospect.follow_up_due',
      timestamp: iso(due + 2_000),
      data: {
        prospect: expect.objectContaining({ id: written.id, first_name: 'Inès', next_follow_up_at: iso(due) }),
        follow_up_at: iso(due),
        late: false,
      },
    });
    const seed = `${keys.prospectPk(world.workspaceId, written.id)}#prospect.follow_up_due#${iso(due)}`;
    expect(delivery?.event_id).toBe(derivedTimeOrderedId(new Date(due), seed));
    // Sending is no change of the prospect: same item, so no version, `updated_at`, change-log entry or update event.
    expect(await world.prospect()).toEqual(written);
    expect(await world.schedule()).toMatchObject({ sent_for: iso(due), late: false });
    expect((await world.schedule())?.gsi4pk).toBeUndefined();

    // The same message again (a redelivery, another run's copy): nothing more.
    now = due + 5_000;
    expect(await world.send(world.messageFor(due))).toBe('refused');
    expect(await world.deliveries()).toHaveLength(1);
  });

  test('seen by two overlapping sweep runs, is queued twice and sent once', async () => {
    const world = await aWorld();
    const due = t0 + 10 * minute;
    await world.stream(await world.setFollowUp(due));
    now = due - 30_000;
    // Both read the clock before either moves it.
    await Promise.all([sweepFollowUps(world.deps), sweepFollowUps(world.deps)]);
    const copies = world.followUps.sent.filter(({ message }) => message.follow_up_at === iso(due));
    expect(copies.length).toBeGreaterThanOrEqual(2);
    now = due;
    const outcomes = await Promise.all(copies.map(({ message }) => world.send(message)));
    expect(outcomes.filter((outcome) => outcome === 'sent')).toHaveLength(1);
    expect(await world.deliveries()).toHaveLength(1);
  });

  test('moved while its message waits in the queue: nothing for the old time, one event at the new one', async () => {
    const world = await aWorld();
    const first = t0 + 2 * minute;
    await world.stream(await world.setFollowUp(first));
    // Within minutes: queued at once by the stream handler, with the delay to its second.
    expect(queuedTimes(world.followUps)).toEqual([{ at: iso(first), delaySeconds: 120 }]);
    now = t0 + minute;
    const moved = t0 + 30 * minute;
    await world.stream(await world.setFollowUp(moved));
    now = first;
    expect(await world.send(world.messageFor(first))).toBe('refused');
    expect(await world.deliveries()).toEqual([]);
    now = moved - 60_000;
    await sweepFollowUps(world.deps);
    expect(world.followUps.sent.at(-1)).toEqual({ message: world.messageFor(moved), delaySeconds: 60 });
    now = moved;
    expect(await world.send(world.messageFor(moved))).toBe('sent');
    expect((await world.deliveries()).map(({ body }) => body.data.follow_up_at)).toEqual([iso(moved)]);
  });

  test('cancelled while its message waits, even before the stream has carried the cancellation: nothing is sent, and the schedule leaves the index', async () => {
    const world = await aWorld();
    const due = t0 + minute;
    await world.stream(await world.setFollowUp(due));
    now = t0 + 10_000;
    const cancellation = await world.setFollowUp(null);
    // The schedule still waits for the time; the prospect no longer holds it.
    now = due;
    expect(await world.send(world.messageFor(due))).toBe('refused');
    await world.stream(cancellation);
    expect(await world.schedule()).toMatchObject({ follow_up_at: null, prospect_version: 2 });
    expect((await world.schedule())?.gsi4sk).toBeUndefined();
    expect(await world.send(world.messageFor(due))).toBe('refused');
    await sweepFollowUps(world.deps);
    expect(world.followUps.sent.filter(({ message }) => message.follow_up_at === iso(due))).toHaveLength(1);
    expect(await world.deliveries()).toEqual([]);
  });

  test('a time already past when it is set is never scheduled nor sent', async () => {
    const world = await aWorld();
    now = t0 + 5 * minute;
    await world.stream(await world.setFollowUp(t0));
    expect(await world.schedule()).toBeUndefined();
    expect(world.followUps.sent).toEqual([]);
    expect(await sweepFollowUps(world.deps)).toMatchObject({ queued: 0 });
  });

  test('an older version read after a newer one does not bring its time back', async () => {
    const world = await aWorld();
    const older = await world.setFollowUp(t0 + 60 * minute);
    const newer = await world.setFollowUp(t0 + 90 * minute);
    await world.stream(newer);
    await world.stream(older);
    expect(await world.schedule()).toMatchObject({ follow_up_at: iso(t0 + 90 * minute), prospect_version: 2 });
  });
});

describe('after an outage', () => {
  test('an hour down: the next run queues what fell due meanwhile at once, sent late', async () => {
    const world = await aWorld();
    await sweepFollowUps(world.deps);
    const due = t0 + 30 * minute;
    await world.stream(await world.setFollowUp(due));
    // Nothing runs for an hour; the clock stayed where the last run left it.
    now = t0 + 60 * minute;
    await sweepFollowUps(world.deps);
    const mine = world.followUps.sent.filter(
      ({ message }) => message.prospect_id === world.messageFor(due).prospect_id,
    );
    expect(mine).toEqual([{ message: world.messageFor(due), delaySeconds: 0 }]);
    expect(await world.send(world.messageFor(due))).toBe('sent');
    expect((await world.deliveries())[0]?.body.data).toMatchObject({ follow_up_at: iso(due), late: true });
  });

  test('25 hours down: a time more than 24 hours past is never queued, and its message from before is dropped', async () => {
    const world = await aWorld();
    await sweepFollowUps(world.deps);
    const due = t0 + 30 * minute;
    await world.stream(await world.setFollowUp(due));
    now = due + 25 * 60 * minute;
    const run = await sweepFollowUps(world.deps);
    expect(run.from).toBe(iso(now - day));
    expect(world.followUps.sent.filter(({ message }) => message.follow_up_at === iso(due))).toEqual([]);
    expect(await world.send(world.messageFor(due))).toBe('expired');
    expect(await world.deliveries()).toEqual([]);
    // Just within the day, it is still sent, late.
    now = due + day - 1_000;
    expect(await world.send(world.messageFor(due))).toBe('sent');
  });
});
