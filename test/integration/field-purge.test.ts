import { recordingFollowUpQueue } from '../support/follow-up-queue';
import { randomUUID } from 'node:crypto';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { jest } from '@jest/globals';
import { GetCommand, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import type * as PurgeDeletedFields from '../../functions/events/purge-deleted-fields';
import type * as StreamHandler from '../../functions/events/stream-handler';
import { subjectOfChange } from '../../lib/domain/events/events-of-change';
import type { DeliveryMessage } from '../../lib/domain/events/ports';
import { withDeletedField, withNewField } from '../../lib/domain/fields/field-definitions';
import { fieldPurgeSettings, purgeDeletedFields, type FieldPurgeSettings } from '../../lib/domain/fields/field-purge';
import type { FieldValues } from '../../lib/domain/model';
import { createHttpSender } from '../../lib/outbound/http-sender';
import { createSubscription } from '../../lib/settings/subscriptions';
import {
  createDocumentClient,
  createDynamoClient,
  loadSecretsTableName,
  productionDeps,
  type Deps,
} from '../../lib/storage/client';
import { editWorkspaceConfig, partsOf } from '../../lib/storage/config-edits';
import { writeProspectChange } from '../../lib/storage/prospect-writes';
import { storedChangeOf } from '../../lib/storage/stream-records';
import { items, keys } from '../../lib/storage/table-items';
import { ensureTable } from '../../tools/local/create-table';
import { readTableStream, startEventPipeline, type EventPipeline } from '../../tools/local/event-pipeline';
import { seedWorkspace } from '../../tools/seed/seed';
import { startFaultyWire, partitionOf } from '../support/faulty-wire';
import { aProspectItem } from '../support/prospect-items';
import { aWorkspace } from '../support/seed';
import { setTestQueueUrls } from '../support/queue-urls';

/**
 * The purge of a deleted custom field (docs/data-model.md, "The purge of a deleted field"), run as its function runs
 * it, with a clock and pages of its own, on a table of its own: the purge reads every workspace's pending purges
 * (index gsi4), and must see only this file's. What is left is read from the table itself, item by item.
 */

type Item = Record<string, unknown> & { pk: string; sk: string };

const endpoint = process.env.DYNAMODB_ENDPOINT as string;
const tableName = `crm-test-field-purge-${randomUUID()}`;
let deps: Deps;
let createPurgeHandler: typeof PurgeDeletedFields.createHandler;
let createStreamHandler: typeof StreamHandler.createHandler;

/** Pages of 3 prospects: a workspace of 7 takes three, the last one short. */
const smallPages: FieldPurgeSettings = { ...fieldPurgeSettings, pageSize: 3 };

beforeAll(async () => {
  const client = createDynamoClient({ endpoint });
  await ensureTable(client, tableName);
  client.destroy();
  deps = { ...productionDeps(), tableName };
  // The stream handler's module builds its production dependencies on import, which need the queue's URL.
  setTestQueueUrls();
  ({ createHandler: createPurgeHandler } = await import('../../functions/events/purge-deleted-fields'));
  ({ createHandler: createStreamHandler } = await import('../../functions/events/stream-handler'));
});
afterAll(async () => {
  await deps.db.send(new DeleteTableCommand({ TableName: tableName }));
  deps.db.destroy();
});

const deletedAt = new Date('2026-05-04T10:00:00.000Z');
const afterSettling = () => new Date(deletedAt.getTime() + (fieldPurgeSettings.settleSeconds + 1) * 1000);
const at = (seconds: number) => new Date(Date.parse('2026-04-01T08:00:00.000Z') + seconds * 1000).toISOString();

/** A workspace defining `budget` (number) and `ville` (text). */
async function aWorkspaceWithFields(): Promise<string> {
  const { workspace_id: workspaceId } = await seedWorkspace(deps, aWorkspace({ prospects: [] }));
  await editWorkspaceConfig(deps, workspaceId, (config) => {
    const withBudget = withNewField(config, { key: 'budget', label: 'Budget', type: 'number' });
    return {
      ...partsOf(config),
      fields: withNewField({ fields: withBudget }, { key: 'ville', label: 'Ville', type: 'text' }),
    };
  });
  return workspaceId;
}

/** What `DELETE /fields/{key}` writes: the tombstone, by the same rule and the same configuration edit. */
async function deleteField(workspaceId: string, key: string, when: Date = deletedAt): Promise<void> {
  await editWorkspaceConfig(deps, workspaceId, (config) => ({
    ...partsOf(config),
    fields: withDeletedField(config, key, when.toISOString()),
  }));
}

const put = (item: Record<string, unknown>) => deps.db.send(new PutCommand({ TableName: tableName, Item: item }));

/** A prospect created `index` seconds into the day, with these values (none: no `fields`), written as the API would. */
async function aProspect(workspaceId: string, index: number, values?: FieldValues): Promise<string> {
  const prospect = aProspectItem(workspaceId, {
    created_at: at(index),
    first_name: `Prospect ${index}`,
    version: 3,
    actor: { kind: 'api_key', id: 'key-1' },
    ...(values ? { fields: values } : {}),
  });
  await put(prospect);
  return prospect.id;
}

/** A change-log entry of the prospect naming `field` (`fields.<key>` for a custom field's value). */
async function anEntry(workspaceId: string, prospectId: string, field: string, second: number): Promise<void> {
  const entry = items.changeLogEntry({
    id: randomUUID(),
    workspace_id: workspaceId,
    prospect_id: prospectId,
    key_id: 'key-1',
    field: 'stage',
    before: null,
    after: '1500',
    at: at(1000 + second),
    prospect_version: 2,
    undone_at: null,
  });
  await put({ ...entry, field });
}

async function aNote(workspaceId: string, prospectId: string): Promise<void> {
  await put(
    items.note('prospect', {
      id: randomUUID(),
      workspace_id: workspaceId,
      record_id: prospectId,
      content: 'Rappeler lundi',
      date: at(0),
      created_at: at(2000),
      key_id: 'key-1',
      actor: { kind: 'api_key', id: 'key-1' },
    }),
  );
}

/** Every item of the workspace, read from the table itself (a Scan: a test may). */
async function itemsOf(workspaceId: string): Promise<Item[]> {
  const found: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await deps.db.send(
      new ScanCommand({ TableName: tableName, ConsistentRead: true, ExclusiveStartKey: startKey }),
    );
    found.push(...((page.Items ?? []) as Item[]).filter((item) => item.pk.includes(workspaceId)));
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);
  return found.sort((a, b) => `${a.pk}|${a.sk}`.localeCompare(`${b.pk}|${b.sk}`));
}

const configItemOf = async (workspaceId: string) =>
  (await deps.db.send(new GetCommand({ TableName: tableName, Key: keys.workspace(workspaceId), ConsistentRead: true })))
    .Item as Item & { fields: Record<string, unknown>[]; config_version: number };

/** What holds `key` anywhere: a prospect's value, or an entry naming it. */
const holding = (found: Item[], key: string) =>
  found.filter(
    (item) => (item.fields as FieldValues | undefined)?.[key] !== undefined || item.field === `fields.${key}`,
  );

/** The prospects whose partition holds `budget`, once per item holding it, in order. */
const holders = (found: Item[]) =>
  holding(found, 'budget')
    .map((item) => item.pk.split('#').at(-1))
    .sort();

/** The items as the purge must leave them: the entries of `key` gone, its values removed, everything else as it was. */
const withoutKey = (found: Item[], key: string): Item[] =>
  found
    .filter((item) => item.field !== `fields.${key}`)
    .map((item) => {
      if (item.sk !== 'PROSPECT' || item.fields === undefined) return item;
      const { fields, ...rest } = item;
      const others: FieldValues = { ...(fields as FieldValues) };
      delete others[key];
      // A prospect whose only value it was keeps no empty map.
      return Object.keys(others).length === 0 ? rest : { ...rest, fields: others };
    });

/**
 * A workspace of 7 prospects, more than two pages: four hold a budget, one held one (its entry is left), two never
 * did; every one has a `ville` or entries or notes the purge must leave alone.
 */
async function aWorkspaceWithValues(): Promise<{ workspaceId: string; prospects: string[] }> {
  const workspaceId = await aWorkspaceWithFields();
  const prospects = [
    await aProspect(workspaceId, 0, { budget: 1500, ville: 'Lyon' }),
    await aProspect(workspaceId, 1, { ville: 'Nantes' }),
    await aProspect(workspaceId, 2, { budget: 20 }),
    await aProspect(workspaceId, 3),
    await aProspect(workspaceId, 4, { budget: 0, ville: 'Paris' }),
    await aProspect(workspaceId, 5, { ville: 'Lille' }),
    await aProspect(workspaceId, 6, { budget: 7 }),
  ];
  await anEntry(workspaceId, prospects[0]!, 'fields.budget', 1);
  await anEntry(workspaceId, prospects[0]!, 'fields.budget', 2);
  await anEntry(workspaceId, prospects[0]!, 'fields.ville', 3);
  await anEntry(workspaceId, prospects[1]!, 'fields.budget', 4);
  await anEntry(workspaceId, prospects[1]!, 'stage', 5);
  await anEntry(workspaceId, prospects[6]!, 'fields.budget', 6);
  await aNote(workspaceId, prospects[0]!);
  await aNote(workspaceId, prospects[3]!);
  return { workspaceId, prospects };
}

describe('the purge of a deleted field', () => {
  test('walks a workspace of three pages: no value or entry of the key left, the rest as it was, versions unmoved', async () => {
    const { workspaceId } = await aWorkspaceWithValues();
    await deleteField(workspaceId, 'budget');
    const before = await itemsOf(workspaceId);
    expect(holding(before, 'budget')).toHaveLength(8);
    expect((await configItemOf(workspaceId)).gsi4pk).toBe(keys.fieldPurges);

    // Not settled yet: a write that read the definition may still land.
    const early = await purgeDeletedFields({ ...deps, clock: () => deletedAt }, smallPages);
    expect(early).toMatchObject({ prospects: 0, finished: 0 });
    expect(await itemsOf(workspaceId)).toEqual(before);

    const outcome = await purgeDeletedFields({ ...deps, clock: afterSettling }, smallPages);

    expect(outcome).toEqual({ prospects: 7, values: 4, entries: 4, finished: 1, more: false });
    const after = await itemsOf(workspaceId);
    expect(holding(after, 'budget')).toEqual([]);
    const expected = withoutKey(before, 'budget').filter((item) => item.sk !== 'CFG#WORKSPACE');
    expect(after.filter((item) => item.sk !== 'CFG#WORKSPACE')).toEqual(expected);
    // The tombstone keeps its key and deletion time, the live field stays; the workspace leaves the purge's list.
    const config = await configItemOf(workspaceId);
    expect(config.fields).toEqual([
      { key: 'budget', deleted_at: deletedAt.toISOString() },
      expect.objectContaining({ key: 'ville', label: 'Ville' }),
    ]);
    expect(config).not.toHaveProperty('gsi4pk');
    expect(config).not.toHaveProperty('gsi4sk');

    expect(await purgeDeletedFields({ ...deps, clock: afterSettling }, smallPages)).toEqual({
      prospects: 0,
      values: 0,
      entries: 0,
      finished: 0,
      more: false,
    });
  });

  test('a run that stops resumes where the last page was recorded: at its page budget, or failing mid-page', async () => {
    const { workspaceId, prospects } = await aWorkspaceWithValues();
    await deleteField(workspaceId, 'budget');
    const onePage: FieldPurgeSettings = { ...smallPages, pagesPerRun: 1 };

    expect(await purgeDeletedFields({ ...deps, clock: afterSettling }, onePage)).toEqual({
      prospects: 3,
      values: 2,
      entries: 3,
      finished: 0,
      more: true,
    });
    const firstPage = await itemsOf(workspaceId);
    expect(holders(firstPage)).toEqual([prospects[4], prospects[6], prospects[6]].sort());
    const stopped = (await configItemOf(workspaceId)).fields[0];
    expect(stopped).toEqual({
      key: 'budget',
      deleted_at: deletedAt.toISOString(),
      purging: true,
      purged_through: `${at(2)}#${prospects[2]}`,
    });

    // The next run purges its page, then fails to record it (the configuration's update refused at every attempt).
    const wire = await startFaultyWire(endpoint);
    const faulty: Deps = { ...deps, db: createDocumentClient({ endpoint: wire.endpoint }), clock: afterSettling };
    wire.plan = (call) =>
      call.operation === 'UpdateItem' && partitionOf(call) === keys.workspace(workspaceId).pk ? 'fail' : 'pass';
    try {
      await expect(purgeDeletedFields(faulty, onePage)).rejects.toThrow();
    } finally {
      faulty.db.destroy();
      await wire.close();
    }
    expect((await configItemOf(workspaceId)).fields[0]).toEqual(stopped);
    expect(holders(await itemsOf(workspaceId))).toEqual([prospects[6], prospects[6]]);

    // The function, on its own pages, walks again the page done without its record (nothing left there) and the last.
    expect(await createPurgeHandler({ ...deps, clock: afterSettling })({})).toEqual({
      prospects: 4,
      values: 1,
      entries: 1,
      finished: 1,
      more: false,
    });
    expect(holding(await itemsOf(workspaceId), 'budget')).toEqual([]);
  });

  test('an admin’s edit made while a page is purged is kept: the progress is applied again to it', async () => {
    const workspaceId = await aWorkspaceWithFields();
    const prospectId = await aProspect(workspaceId, 0, { budget: 3 });
    await deleteField(workspaceId, 'budget');
    const versionBefore = (await configItemOf(workspaceId)).config_version;
    const wire = await startFaultyWire(endpoint);
    const held: Deps = { ...deps, db: createDocumentClient({ endpoint: wire.endpoint }), clock: afterSettling };
    let heldOnce = false;
    wire.plan = (call) => {
      if (heldOnce || call.operation !== 'UpdateItem' || partitionOf(call) !== keys.workspace(workspaceId).pk)
        return 'pass';
      heldOnce = true;
      return 'hold';
    };
    try {
      const run = purgeDeletedFields(held, smallPages);
      while (!heldOnce) await new Promise((resolve) => setTimeout(resolve, 5));
      await editWorkspaceConfig(deps, workspaceId, (config) => ({
        ...partsOf(config),
        fields: withNewField(config, { key: 'source_salon', label: 'Salon', type: 'text' }),
      }));
      wire.release();
      expect(await run).toMatchObject({ prospects: 1, values: 1, finished: 1 });
    } finally {
      held.db.destroy();
      await wire.close();
    }
    const config = await configItemOf(workspaceId);
    expect(config.fields.map((field) => [field.key, field.purging ?? null])).toEqual([
      ['budget', null],
      ['ville', null],
      ['source_salon', null],
    ]);
    expect(config.config_version).toBe(versionBefore + 2);
    expect(holding(await itemsOf(workspaceId), 'budget')).toEqual([]);
    const purged = (await itemsOf(workspaceId)).find(
      (item) => item.pk === keys.prospectPk(workspaceId, prospectId) && item.sk === 'PROSPECT',
    );
    expect(purged).toMatchObject({ version: 3 });
    expect(purged).not.toHaveProperty('fields');
  });

  test('a value written beside the purged one while it is removed is kept: the removal is decided again on it', async () => {
    const workspaceId = await aWorkspaceWithFields();
    const prospectId = await aProspect(workspaceId, 0, { budget: 3 });
    await deleteField(workspaceId, 'budget');
    const key = keys.prospect(workspaceId, prospectId);
    const wire = await startFaultyWire(endpoint);
    const held: Deps = { ...deps, db: createDocumentClient({ endpoint: wire.endpoint }), clock: afterSettling };
    let heldOnce = false;
    wire.plan = (call) => {
      if (heldOnce || call.operation !== 'UpdateItem' || partitionOf(call) !== key.pk) return 'pass';
      heldOnce = true;
      return 'hold';
    };
    try {
      const run = purgeDeletedFields(held, smallPages);
      while (!heldOnce) await new Promise((resolve) => setTimeout(resolve, 5));
      // The only value, read so by the purge, is no longer alone: removing the whole map would lose `ville`.
      const stored = (await deps.db.send(new GetCommand({ TableName: tableName, Key: key }))).Item!;
      await put({ ...stored, fields: { budget: 3, ville: 'Brest' } });
      wire.release();
      expect(await run).toMatchObject({ prospects: 1, values: 1, finished: 1 });
    } finally {
      held.db.destroy();
      await wire.close();
    }
    const after = (await deps.db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;
    expect(after).toMatchObject({ fields: { ville: 'Brest' }, version: 3 });
    expect(after?.fields).not.toHaveProperty('budget');
  });

  test('a PATCH decided on the map the purge then removes whole loses its round instead of failing, and sets the whole map on a fresh read', async () => {
    const workspaceId = await aWorkspaceWithFields();
    const prospectId = await aProspect(workspaceId, 0, { budget: 3 });
    await deleteField(workspaceId, 'budget');
    const target = { workspaceId, prospectId };
    const decidedOnTheMap = { values: { ville: 'Nantes' }, mapExists: true };
    const change = { set: {}, actor: { kind: 'api_key', id: 'key-1' } as const, now: at(60), expectedVersion: 3 };
    await purgeDeletedFields({ ...deps, clock: afterSettling }, smallPages);
    const key = keys.prospect(workspaceId, prospectId);
    expect((await deps.db.send(new GetCommand({ TableName: tableName, Key: key }))).Item).not.toHaveProperty('fields');

    // The version did not move: only the condition on the map tells this write it was decided on another item.
    await expect(writeProspectChange(deps, target, { ...change, fields: decidedOnTheMap }, [])).resolves.toBe(
      'changed_meanwhile',
    );
    const decidedAgain = { ...change, fields: { ...decidedOnTheMap, mapExists: false } };
    await expect(writeProspectChange(deps, target, decidedAgain, [])).resolves.toBe('written');
    const after = (await deps.db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;
    expect(after).toMatchObject({ fields: { ville: 'Nantes' }, version: 4 });
  });

  test('tombstones of two workspaces in one run, and two of one workspace one after the other; the same key live elsewhere untouched', async () => {
    const first = await aWorkspaceWithValues();
    const second = await aWorkspaceWithValues();
    const untouched = await aWorkspaceWithValues();
    await deleteField(first.workspaceId, 'budget');
    await deleteField(second.workspaceId, 'ville', new Date(deletedAt.getTime() - 1000));
    await deleteField(second.workspaceId, 'budget');
    const elsewhere = await itemsOf(untouched.workspaceId);

    expect(await purgeDeletedFields({ ...deps, clock: afterSettling }, smallPages)).toMatchObject({
      finished: 3,
      more: false,
    });

    expect(holding(await itemsOf(first.workspaceId), 'budget')).toEqual([]);
    expect(holding(await itemsOf(first.workspaceId), 'ville')).not.toEqual([]);
    const secondItems = await itemsOf(second.workspaceId);
    expect([...holding(secondItems, 'budget'), ...holding(secondItems, 'ville')]).toEqual([]);
    expect((await configItemOf(second.workspaceId)).fields).toEqual([
      { key: 'budget', deleted_at: deletedAt.toISOString() },
      { key: 'ville', deleted_at: new Date(deletedAt.getTime() - 1000).toISOString() },
    ]);
    expect(await itemsOf(untouched.workspaceId)).toEqual(elsewhere);
  });

  test('a deletion not yet settled waits while an older one of the same workspace is walked', async () => {
    const { workspaceId } = await aWorkspaceWithValues();
    await deleteField(workspaceId, 'budget');
    await deleteField(workspaceId, 'ville', new Date(afterSettling().getTime() - 1000));

    expect(await purgeDeletedFields({ ...deps, clock: afterSettling }, smallPages)).toMatchObject({ finished: 1 });

    const config = await configItemOf(workspaceId);
    expect(config.fields).toEqual([
      { key: 'budget', deleted_at: deletedAt.toISOString() },
      { key: 'ville', deleted_at: new Date(afterSettling().getTime() - 1000).toISOString(), purging: true },
    ]);
    expect(config.gsi4sk).toBe(new Date(afterSettling().getTime() - 1000).toISOString());
    expect(holding(await itemsOf(workspaceId), 'ville')).not.toEqual([]);
  });
});

describe('the purge is no change of a prospect', () => {
  test('its writes reach the stream handler and make no event; a real change after them makes one', async () => {
    const secretsDeps = { ...deps, secretsTableName: loadSecretsTableName() };
    const { workspaceId, prospects } = await aWorkspaceWithValues();
    await createSubscription(secretsDeps, { workspaceId, url: 'http://127.0.0.1:9/hook', network: 'local' });
    await deleteField(workspaceId, 'budget');
    const queued: DeliveryMessage[] = [];
    const streamHandler = createStreamHandler({
      ...deps,
      queue: { send: async (messages) => void queued.push(...messages.map(({ message }) => message)) },
      followUpQueue: recordingFollowUpQueue(),
      send: createHttpSender('local'),
      network: 'local',
    });
    const handed: DynamoDBStreamEvent['Records'] = [];
    const stream = await readTableStream({
      endpoint,
      tableName,
      startingPosition: 'LATEST',
      handler: (event) => {
        handed.push(...event.Records);
        return streamHandler(event);
      },
    });
    try {
      expect(await purgeDeletedFields({ ...deps, clock: afterSettling }, smallPages)).toMatchObject({ values: 4 });
      await stream.caughtUp();
      const purgedProspects = handed.filter(
        (record) => record.eventName === 'MODIFY' && record.dynamodb?.Keys?.sk?.S === 'PROSPECT',
      );
      expect(purgedProspects).toHaveLength(4);
      // A value removed, the version where it was: no subject, so not even the workspace's subscriptions are read.
      for (const record of purgedProspects) {
        const change = storedChangeOf(record);
        expect(change.before?.fields).toHaveProperty('budget');
        expect(change.after?.version).toBe(change.before?.version);
        expect(subjectOfChange(change)).toBeUndefined();
      }
      expect(handed.filter((record) => record.eventName === 'REMOVE')).toHaveLength(4);
      expect(queued).toEqual([]);

      // The same pipeline sees a real change: the version raised, one event.
      const moved = (await itemsOf(workspaceId)).find(
        (item) => item.pk === keys.prospectPk(workspaceId, prospects[0]!) && item.sk === 'PROSPECT',
      )!;
      await put({
        ...moved,
        first_name: 'Léa',
        version: (moved.version as number) + 1,
        updated_at: afterSettling().toISOString(),
      });
      await stream.caughtUp();
      expect(queued).toHaveLength(1);
    } finally {
      await stream.stop();
    }
  });
});

describe('npm start', () => {
  test('runs the purge on its timer, every minute, as its schedule does on AWS', async () => {
    const { workspaceId } = await aWorkspaceWithValues();
    await deleteField(workspaceId, 'budget');
    const stillHeld = async () => holding(await itemsOf(workspaceId), 'budget').length;
    // The timers of the scheduled functions only: the stream is read, and the test waits, on real time.
    jest.useFakeTimers({
      doNotFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'nextTick', 'queueMicrotask', 'Date'],
    });
    let pipeline: EventPipeline | undefined;
    try {
      const secretsDeps = { ...deps, clock: afterSettling, secretsTableName: loadSecretsTableName() };
      pipeline = await startEventPipeline({ deps: secretsDeps, endpoint });
      jest.advanceTimersByTime(fieldPurgeSettings.intervalMinutes * 60_000 - 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await stillHeld()).toBe(8);

      jest.advanceTimersByTime(1);
      for (const started = Date.now(); (await stillHeld()) > 0 && Date.now() - started < 10_000;)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await stillHeld()).toBe(0);
      expect((await configItemOf(workspaceId)).fields[0]).toEqual({
        key: 'budget',
        deleted_at: deletedAt.toISOString(),
      });
    } finally {
      await pipeline?.stop();
      jest.useRealTimers();
    }
  });
});
