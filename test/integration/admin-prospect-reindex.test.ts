import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { productionDeps } from '../../lib/storage/client';
import type { ProspectItem } from '../../lib/storage/table-items';
import { aWorkspace, seedTestWorkspace } from '../support/seed';
import { aProspectItem } from '../support/prospect-items';
import { runAdminInProcess } from '../support/admin-cli';

/**
 * `prospect reindex` (docs/deploy.md#new-indexes): the prospects a workspace held before the lists get the keys of
 * the lists' indexes, as their builder writes them, without any change of their own; run again, nothing is written.
 */
const deps = productionDeps();
afterAll(() => deps.db.destroy());

const read = async (item: ProspectItem) =>
  (
    await deps.db.send(
      new GetCommand({ TableName: deps.tableName, Key: { pk: item.pk, sk: item.sk }, ConsistentRead: true }),
    )
  ).Item as ProspectItem;

test('writes the missing index keys, touching nothing else, and nothing the second time', async () => {
  const { workspace_id: workspaceId } = await seedTestWorkspace(aWorkspace({ prospects: [] }));
  const scheduled = aProspectItem(workspaceId, { stage_id: 'stage-a', next_follow_up_at: '2027-01-01T09:00:00.000Z' });
  const plain = aProspectItem(workspaceId, { stage_id: null });
  for (const item of [scheduled, plain]) {
    // As written before the lists: without their index keys.
    const legacy = Object.fromEntries(Object.entries(item).filter(([name]) => !/^gsi[56]/.test(name)));
    await deps.db.send(new PutCommand({ TableName: deps.tableName, Item: legacy }));
  }
  const first = await runAdminInProcess(deps, 'prospect', 'reindex', '--workspace', workspaceId);
  expect(first).toMatchObject({ code: 0 });
  expect(first.stdout).toContain('2 prospect(s) parcouru(s), 2 mis à jour');
  expect(await read(scheduled)).toEqual(scheduled);
  expect(await read(plain)).toEqual(plain);
  const again = await runAdminInProcess(deps, 'prospect', 'reindex', '--workspace', workspaceId);
  expect(again.stdout).toContain('2 prospect(s) parcouru(s), 0 mis à jour');
});

test('an unknown workspace is refused, nothing written', async () => {
  const run = await runAdminInProcess(deps, 'prospect', 'reindex', '--workspace', randomUUID());
  expect(run.code).not.toBe(0);
});
