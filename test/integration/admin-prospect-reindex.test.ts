import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { productionDeps } from '../../lib/storage/client';
import { keys, type ProspectItem } from '../../lib/storage/table-items';
import { aWorkspace, seedTestWorkspace } from '../support/seed';
import { aProspectItem } from '../support/prospect-items';
import { runAdminInProcess } from '../support/admin-cli';

/**
 * `prospect reindex` (docs/deploy.md#new-indexes): the prospects a workspace held before the lists get the keys of
 * the lists' indexes, as their builder writes them, without any change of their own; run again, nothing is written.
 */
const deps = productionDeps();
afterAll(() => deps.db.destroy());

/** A follow-up still ahead whenever the test runs. */
const inAMonth = () => new Date(Date.now() + 30 * 24 * 3_600_000).toISOString();

const read = async (item: ProspectItem) =>
  (
    await deps.db.send(
      new GetCommand({ TableName: deps.tableName, Key: { pk: item.pk, sk: item.sk }, ConsistentRead: true }),
    )
  ).Item as ProspectItem;

test('writes the missing index keys and the schedule of a follow-up still ahead, touching nothing else, and nothing the second time', async () => {
  const { workspace_id: workspaceId } = await seedTestWorkspace(aWorkspace({ prospects: [] }));
  const scheduled = aProspectItem(workspaceId, { stage_id: 'stage-a', next_follow_up_at: inAMonth() });
  const plain = aProspectItem(workspaceId, { stage_id: null });
  for (const item of [scheduled, plain]) {
    // As written before the lists: without their index keys.
    const legacy = Object.fromEntries(Object.entries(item).filter(([name]) => !/^gsi[56]/.test(name)));
    await deps.db.send(new PutCommand({ TableName: deps.tableName, Item: legacy }));
  }
  const first = await runAdminInProcess(deps, 'prospect', 'reindex', '--workspace', workspaceId);
  expect(first).toMatchObject({ code: 0 });
  expect(first.stdout).toContain('2 prospect(s) parcouru(s), 2 mis à jour (clés des index des listes), 1 rappel(s)');
  expect(await read(scheduled)).toEqual(scheduled);
  expect(await read(plain)).toEqual(plain);
  // Its follow-up, still ahead, waits in the follow-up sweep's index (docs/events.md, "Follow-ups falling due").
  const schedule = await deps.db.send(
    new GetCommand({
      TableName: deps.tableName,
      Key: keys.followUpSchedule(workspaceId, scheduled.id),
      ConsistentRead: true,
    }),
  );
  expect(schedule.Item).toMatchObject({ follow_up_at: scheduled.next_follow_up_at, prospect_version: 1 });
  expect(schedule.Item?.gsi4sk).toBe(scheduled.next_follow_up_at);
  const again = await runAdminInProcess(deps, 'prospect', 'reindex', '--workspace', workspaceId);
  expect(again.stdout).toContain('2 prospect(s) parcouru(s), 0 mis à jour (clés des index des listes), 0 rappel(s)');
});

test('an unknown workspace is refused, nothing written', async () => {
  const run = await runAdminInProcess(deps, 'prospect', 'reindex', '--workspace', randomUUID());
  expect(run.code).not.toBe(0);
});
