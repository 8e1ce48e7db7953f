import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { readAuditPage } from '../../lib/storage/audit-log';
import { applyRetention } from '../../lib/domain/erasure/apply-retention';
import { productionDeps } from '../../lib/storage/client';
import { changeWorkspace } from '../../lib/settings/workspace-settings';
import { keys, type CandidateItem, type ProspectItem } from '../../lib/storage/table-items';
import { getProspect } from '../../lib/storage/prospects';
import { seedWorkspace } from '../../tools/seed/seed';
import { aCandidateItem } from '../support/candidate-items';
import { aProspectItem } from '../support/prospect-items';
import { aWorkspace } from '../support/seed';

/*
 * The daily retention (docs/adr/0019-erasure-in-the-background.md, "Retention") with an injected clock: the prospects
 * and candidates of a workspace last written more than its `retention_months` ago are erased by no member, in bounded
 * batches that the next run goes on from; those written since, and every record of a workspace without a retention,
 * are kept.
 */

const deps = productionDeps();
afterAll(() => deps.db.destroy());

const now = new Date('2027-06-15T10:00:00.000Z');
const clock = () => now;
const monthsAgo = (months: number, days = 0) => {
  const at = new Date(now);
  at.setUTCMonth(at.getUTCMonth() - months);
  at.setUTCDate(at.getUTCDate() - days);
  return at.toISOString();
};

async function plant(record: ProspectItem | CandidateItem): Promise<string> {
  await deps.db.send(new PutCommand({ TableName: deps.tableName, Item: record }));
  return record.id;
}

const stored = async (key: { pk: string; sk: string }) =>
  (await deps.db.send(new GetCommand({ TableName: deps.tableName, Key: key, ConsistentRead: true }))).Item;

async function aWorkspaceKeeping(months: number | null): Promise<string> {
  const { workspace_id: workspaceId } = await seedWorkspace(deps, aWorkspace({ prospects: [] }));
  if (months !== null) {
    await changeWorkspace(deps, { workspaceId, change: { retention_months: months }, actingMemberId: null });
  }
  return workspaceId;
}

const auditOf = async (workspaceId: string) => (await readAuditPage(deps, workspaceId, { limit: 50, now })).entries;

test('erases what outlived the retention in bounded batches, the next run going on; keeps the rest', async () => {
  const keeping = await aWorkspaceKeeping(12);
  const forever = await aWorkspaceKeeping(null);
  const old = await Promise.all(
    [13, 14, 24, 36, 12].map((months, index) =>
      plant(aProspectItem(keeping, { created_at: monthsAgo(months, index === 4 ? 1 : 0), first_name: 'Ancien' })),
    ),
  );
  const recent = await plant(aProspectItem(keeping, { created_at: monthsAgo(11) }));
  const oldElsewhere = await plant(aProspectItem(forever, { created_at: monthsAgo(48) }));
  // The index says it was last written long ago, the prospect itself was written since: the strong read keeps it.
  const rewritten = aProspectItem(keeping, { created_at: monthsAgo(30) });
  const stale = await plant({ ...rewritten, updated_at: monthsAgo(1) });

  // One batch of two, oldest first: the 36 months old one is erased, the stale one kept; more are left.
  const first = await applyRetention({ ...deps, clock }, { batchSize: 2, batchesPerRun: 1 });
  expect(first).toMatchObject({ erased: 1, kept: 1, more: true });
  const second = await applyRetention({ ...deps, clock }, { batchSize: 2, batchesPerRun: 10 });
  expect(second).toMatchObject({ erased: 4, more: false });

  for (const id of old) expect(await getProspect(deps, keeping, id)).toBeUndefined();
  for (const [workspaceId, id] of [
    [keeping, recent],
    [forever, oldElsewhere],
    [keeping, stale],
  ] as const) {
    expect(await getProspect(deps, workspaceId, id)).toBeDefined();
  }
  // Each erasure is an admin's (its job, its event), by no member, the summary saying why.
  const entries = (await auditOf(keeping)).filter((entry) => entry.action === 'prospect.erased');
  expect(entries).toHaveLength(5);
  for (const entry of entries) {
    expect(entry.member_id).toBeNull();
    expect(entry.summary).toContain('durée de conservation');
    expect(entry.summary).not.toContain('Ancien');
    expect(await getProspect(deps, keeping, entry.target_id as string)).toBeUndefined();
  }
  const third = await applyRetention({ ...deps, clock }, { batchSize: 2, batchesPerRun: 10 });
  expect(third).toMatchObject({ erased: 0, more: false });
});

test('erases the candidates of every recruitment pipeline that outlived the retention; keeps those written since', async () => {
  const pipelines = ['devs', 'sales'].map((key, index) => ({
    key,
    name: `Recrutement ${index}`,
    is_default: index === 0,
    active: index === 0,
    columns: [{ key: 'in', name: 'Reçue' }],
  }));
  const seeded = await seedWorkspace(deps, aWorkspace({ prospects: [], recruitment_pipelines: pipelines }));
  const workspaceId = seeded.workspace_id;
  await changeWorkspace(deps, { workspaceId, change: { retention_months: 6 }, actingMemberId: null });
  const [devs, sales] = ['devs', 'sales'].map((key) => seeded.recruitment_pipelines[key]?.id as string) as [
    string,
    string,
  ];
  const old = [
    await plant(aCandidateItem(workspaceId, devs, { created_at: monthsAgo(7), first_name: 'Ancienne' })),
    // The inactive pipeline's candidates are kept no longer than the others.
    await plant(aCandidateItem(workspaceId, sales, { created_at: monthsAgo(40), first_name: 'Ancienne' })),
  ];
  const recent = await plant(aCandidateItem(workspaceId, sales, { created_at: monthsAgo(5) }));
  // Applied again since the index entry was read (the run sees the old key; the candidate says otherwise): kept.
  const appliedAgain = await plant({
    ...aCandidateItem(workspaceId, devs, { created_at: monthsAgo(20) }),
    updated_at: monthsAgo(1),
  });

  await applyRetention({ ...deps, clock });

  for (const id of old) expect(await stored(keys.candidate(workspaceId, id))).toBeUndefined();
  for (const id of [recent, appliedAgain]) expect(await stored(keys.candidate(workspaceId, id))).toBeDefined();
  // Each erased as the candidate erase route does: its audit entry by no member saying why, and its job.
  const entries = (await auditOf(workspaceId)).filter((entry) => entry.action === 'candidate.erased');
  expect(entries.map((entry) => entry.target_id).sort()).toEqual([...old].sort());
  for (const entry of entries) {
    expect(entry.member_id).toBeNull();
    expect(entry.summary).toContain('durée de conservation');
    expect(entry.summary).not.toContain('Ancienne');
    const job = await stored(keys.erasure(workspaceId, 'candidate', entry.target_id as string));
    expect(job).toMatchObject({ kind: 'candidate', member_id: null, contacts: { phone_region: 'FR' } });
  }
});
