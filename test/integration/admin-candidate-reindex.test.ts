import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { productionDeps } from '../../lib/storage/client';
import { items, keys, type CandidateItem } from '../../lib/storage/table-items';
import { aCandidateItem } from '../support/candidate-items';
import { aWorkspace, seedTestWorkspace } from '../support/seed';
import { runAdminInProcess } from '../support/admin-cli';

/**
 * `candidate reindex` (docs/deploy.md#new-indexes): the candidates written before the index of their last write get
 * their last application as `updated_at` and their key in gsi5 (the retention's), as their builder writes it, without
 * any change of their own; run again, nothing is written.
 */
const deps = productionDeps();
afterAll(() => deps.db.destroy());

const read = async (item: CandidateItem) =>
  (
    await deps.db.send(
      new GetCommand({ TableName: deps.tableName, Key: { pk: item.pk, sk: item.sk }, ConsistentRead: true }),
    )
  ).Item as CandidateItem;

/** As written before the index: without its keys. */
const plantLegacy = async (item: CandidateItem) => {
  const legacy = Object.fromEntries(Object.entries(item).filter(([name]) => !name.startsWith('gsi5')));
  await deps.db.send(new PutCommand({ TableName: deps.tableName, Item: legacy }));
};

async function aRecruitingWorkspace(): Promise<{ workspaceId: string; pipelineId: string }> {
  const seeded = await seedTestWorkspace(aWorkspace({ prospects: [] }));
  return { workspaceId: seeded.workspace_id, pipelineId: seeded.recruitment_pipelines.devs?.id as string };
}

test('writes the last application and the index key of the candidates written before it, nothing the second time', async () => {
  const { workspaceId, pipelineId } = await aRecruitingWorkspace();
  const plain = aCandidateItem(workspaceId, pipelineId, { created_at: '2026-01-10T08:00:00.000Z' });
  const appliedAgain = aCandidateItem(workspaceId, pipelineId, { created_at: '2026-02-01T08:00:00.000Z' });
  const current = aCandidateItem(workspaceId, pipelineId);
  for (const item of [plain, appliedAgain]) await plantLegacy(item);
  await deps.db.send(new PutCommand({ TableName: deps.tableName, Item: current }));
  // Applied again before this version: a note, and nothing moved on the candidate.
  const againAt = '2026-05-20T09:30:00.000Z';
  const again = items.note('candidate', {
    id: randomUUID(),
    workspace_id: workspaceId,
    record_id: appliedAgain.id,
    content: 'Q : deux',
    date: againAt,
    created_at: againAt,
    key_id: null,
    actor: { kind: 'webhook', id: randomUUID() },
  });
  await deps.db.send(new PutCommand({ TableName: deps.tableName, Item: { ...again, application: 'again' } }));

  const first = await runAdminInProcess(deps, 'candidate', 'reindex', '--workspace', workspaceId);
  expect(first).toMatchObject({ code: 0 });
  expect(first.stdout).toContain('3 candidat(s) parcouru(s), 2 mis à jour');
  expect(await read(plain)).toEqual(plain);
  expect(await read(appliedAgain)).toEqual({
    ...appliedAgain,
    updated_at: againAt,
    gsi5pk: keys.candidatesOfPipeline(workspaceId, pipelineId),
    gsi5sk: `${againAt}#${appliedAgain.id}`,
  });
  expect(await read(current)).toEqual(current);

  const secondRun = await runAdminInProcess(deps, 'candidate', 'reindex', '--workspace', workspaceId);
  expect(secondRun.stdout).toContain('3 candidat(s) parcouru(s), 0 mis à jour');
});

test('without --workspace, reindexes the candidates of every workspace', async () => {
  const [one, other] = [await aRecruitingWorkspace(), await aRecruitingWorkspace()];
  const candidates = [one, other].map(({ workspaceId, pipelineId }) => aCandidateItem(workspaceId, pipelineId));
  for (const item of candidates) await plantLegacy(item);
  const run = await runAdminInProcess(deps, 'candidate', 'reindex');
  expect(run).toMatchObject({ code: 0 });
  for (const item of candidates) expect(await read(item)).toEqual(item);
});

test('an unknown workspace is refused', async () => {
  const run = await runAdminInProcess(deps, 'candidate', 'reindex', '--workspace', randomUUID());
  expect(run.code).not.toBe(0);
});
