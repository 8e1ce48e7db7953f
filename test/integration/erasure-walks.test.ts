import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { continueErasures, erasureSettings, type ErasureSettings } from '../../lib/domain/erasure/continue-erasures';
import { eraseRecordOf } from '../../lib/domain/erasure/erase-record';
import { productionDeps } from '../../lib/storage/client';
import { keys } from '../../lib/storage/table-items';
import { seedWorkspace } from '../../tools/seed/seed';
import { aProspectItem } from '../support/prospect-items';
import { aWorkspace } from '../support/seed';
import { strongReads } from '../support/table-reads';

/*
 * The background of many erasures of one workspace (docs/adr/0019-erasure-in-the-background.md, point 2): its journal
 * and its deliveries are walked once for all the jobs standing at that step, not once per job; a job that had walked
 * further waits for the walk to pass where it stopped, and every job still ends with its copies gone.
 */

const deps = productionDeps();
/** The same table through a client that notes the partition of every Query it sends. */
const counted = productionDeps();
const queried: string[] = [];
counted.db.middlewareStack.add(
  (next, context) => async (args) => {
    const input = args.input as { ExpressionAttributeValues?: Record<string, unknown> };
    if (context.commandName === 'QueryCommand') queried.push(String(input.ExpressionAttributeValues?.[':pk']));
    return next(args);
  },
  { step: 'initialize', name: 'queriedPartitions' },
);
afterAll(() => {
  deps.db.destroy();
  counted.db.destroy();
});

/** Past the deliveries' wait, so that one run may walk both partitions. */
const later = () => new Date(Date.now() + (erasureSettings.deliveriesAfterSeconds + 60) * 1000);
const run = (settings: Partial<ErasureSettings> = {}) =>
  continueErasures({ ...counted, clock: later }, { ...erasureSettings, ...settings });

const put = (item: Record<string, unknown>) => deps.db.send(new PutCommand({ TableName: deps.tableName, Item: item }));
const { item, partition } = strongReads(deps);

type Planted = { workspaceId: string; prospects: { id: string; email: string }[] };

/**
 * A workspace, `count` prospects with an e-mail, and a journal of `calls` calls: one naming each prospect, one failed
 * call carrying each prospect's e-mail, the rest about nobody; a delivery about each prospect.
 */
async function aWorkspaceWithJournal(count: number, calls: number): Promise<Planted> {
  const { workspace_id: workspaceId } = await seedWorkspace(deps, aWorkspace({ prospects: [] }));
  const prospects = Array.from({ length: count }, () => {
    const email = `p-${randomUUID()}@exemple.test`;
    return { id: aProspectItem(workspaceId, { email }).id, email };
  });
  for (const { id, email } of prospects) {
    await put({ ...aProspectItem(workspaceId, { email }), ...keys.prospect(workspaceId, id), id });
    await put({
      ...keys.delivery(workspaceId, randomUUID()),
      type: 'delivery',
      payload: JSON.stringify({ data: { prospect: { id } } }),
    });
  }
  const about = prospects.flatMap(({ id, email }) => [
    { record_id: id },
    { body: `{"email":"${email}"}`, status: 400 },
  ]);
  for (let index = 0; index < calls; index += 1) {
    await put({ ...keys.webhookCall(workspaceId, randomUUID()), type: 'webhook_call', status: 200, ...about[index] });
  }
  return { workspaceId, prospects };
}

const erase = ({ workspaceId }: Planted, recordId: string) =>
  eraseRecordOf(deps, { workspaceId, kind: 'prospect', recordId, memberId: null });

const journalQueries = ({ workspaceId }: Planted) =>
  queried.filter((pk) => pk === keys.webhookCallsPk(workspaceId)).length;
const deliveryQueries = ({ workspaceId }: Planted) =>
  queried.filter((pk) => pk === keys.deliveriesPk(workspaceId)).length;

async function expectCopiesGone({ workspaceId, prospects }: Planted): Promise<void> {
  const calls = await partition(keys.webhookCallsPk(workspaceId));
  for (const { id, email } of prospects) {
    expect(calls.filter((call) => call.record_id === id)).toEqual([]);
    expect(calls.filter((call) => String(call.body).includes(email))).toEqual([]);
    expect(await item(keys.erasure(workspaceId, 'prospect', id))).toBeUndefined();
  }
  expect(await partition(keys.deliveriesPk(workspaceId))).toEqual([]);
}

test('walks the journal and the deliveries of one workspace once for all its jobs', async () => {
  const planted = await aWorkspaceWithJournal(8, 250);
  for (const { id } of planted.prospects) await erase(planted, id);
  queried.splice(0);

  await run();

  // 250 calls: three pages of 100, once, for the 8 jobs (one walk each: 24); one page of deliveries (8).
  expect(journalQueries(planted)).toBe(3);
  expect(deliveryQueries(planted)).toBe(1);
  await expectCopiesGone(planted);
});

test('a job that walked further waits for the walk to pass where it stopped; every job ends with its copies gone', async () => {
  const planted = await aWorkspaceWithJournal(4, 250);
  const [early, ...late] = planted.prospects.map(({ id }) => id) as [string, ...string[]];
  await erase(planted, early);
  // A run cut short: the first job walked two pages of the journal.
  await run({ pagesPerRun: 2 });
  expect(await item(keys.erasure(planted.workspaceId, 'prospect', early))).toMatchObject({ step: 'calls' });
  for (const id of late) await erase(planted, id);
  queried.splice(0);

  await run();

  // The late jobs walk from the start, the early one joins them past where it stopped: three pages in all.
  expect(journalQueries(planted)).toBe(3);
  await expectCopiesGone(planted);
});
