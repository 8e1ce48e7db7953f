import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { showProspect } from '../../lib/settings/prospects';
import type { SeedOutput } from '../seed/seed';
import type { Deps } from '../../lib/storage/client';
import { keys } from '../../lib/storage/table-items';
import type { PlannedRequest } from './workload';

export type Outcome = { request: PlannedRequest; status: number; ms: number; body: unknown };

export type Check = { name: string; checked: number; failures: string[] };

const prospectOf = (seed: SeedOutput, index: number) => seed.prospects[`p${index}`] as string;

/**
 * What the table holds after the run, against what the answers said: every request is either
 * stored exactly once (and its answer says so) or refused with a 4xx and stored nowhere.
 */
export async function verifyRun(
  deps: Deps,
  seeds: readonly SeedOutput[],
  outcomes: readonly Outcome[],
): Promise<Check[]> {
  const serverErrors: Check = { name: 'no 5xx answer', checked: outcomes.length, failures: [] };
  for (const outcome of outcomes) {
    if (outcome.status >= 500) serverErrors.failures.push(`${outcome.request.kind} → ${outcome.status}`);
  }
  return [serverErrors, await verifyLeads(deps, seeds, outcomes), await verifyProspects(deps, seeds, outcomes)];
}

/** One prospect per contact, whatever the number of (concurrent) sends: one `created`, the others `existing`. */
async function verifyLeads(deps: Deps, seeds: readonly SeedOutput[], outcomes: readonly Outcome[]): Promise<Check> {
  const check: Check = { name: 'one prospect per lead contact, every answer naming it', checked: 0, failures: [] };
  const byContact = new Map<string, Outcome[]>();
  for (const outcome of outcomes) {
    if (outcome.request.kind !== 'lead' || outcome.status !== 200) continue;
    const id = `${outcome.request.workspace}\n${outcome.request.email.toLowerCase()}`;
    byContact.set(id, [...(byContact.get(id) ?? []), outcome]);
  }
  for (const [id, answers] of byContact) {
    check.checked += 1;
    const [workspace, email] = id.split('\n') as [string, string];
    const seed = seeds[Number(workspace)] as SeedOutput;
    const bodies = answers.map((answer) => answer.body as { status: string; prospect_id: string });
    const prospectIds = new Set(bodies.map((body) => body.prospect_id));
    const created = bodies.filter((body) => body.status === 'created').length;
    const existing = bodies.filter((body) => body.status === 'existing').length;
    const [prospectId] = prospectIds;
    if (prospectIds.size !== 1 || created !== 1 || prospectId === undefined) {
      check.failures.push(`${email}: ${prospectIds.size} prospects named, ${created} created`);
      continue;
    }
    const { Item: marker } = await deps.db.send(
      new GetCommand({
        TableName: deps.tableName,
        Key: keys.emailMarker(seed.workspace_id, email),
        ConsistentRead: true,
      }),
    );
    const { prospect } = await showProspect(deps, { workspaceId: seed.workspace_id, prospectId });
    if (marker?.record_id !== prospectId)
      check.failures.push(`${email}: marker points to ${String(marker?.record_id)}`);
    if (prospect.version !== 1 + existing) {
      check.failures.push(`${email}: version ${prospect.version} after 1 creation and ${existing} updates`);
    }
  }
  return check;
}

/**
 * Each seeded prospect: exactly the notes answered 201, one log entry per note and per changed
 * field answered 200, and a version that counts each of these writes once.
 */
async function verifyProspects(deps: Deps, seeds: readonly SeedOutput[], outcomes: readonly Outcome[]): Promise<Check> {
  const check: Check = {
    name: 'seeded prospects hold exactly the notes and changes answered 2xx, one log entry each',
    checked: 0,
    failures: [],
  };
  for (const [workspace, seed] of seeds.entries()) {
    for (let index = 0; Object.hasOwn(seed.prospects, `p${index}`); index += 1) {
      check.checked += 1;
      const prospectId = prospectOf(seed, index);
      const mine = outcomes.filter(
        (outcome) =>
          outcome.request.kind !== 'lead' &&
          outcome.request.workspace === workspace &&
          outcome.request.prospect === index,
      );
      const noteIds = mine
        .filter((outcome) => outcome.request.kind === 'note' && outcome.status === 201)
        .map((outcome) => (outcome.body as { id: string }).id)
        .sort();
      const changes = mine
        .filter((outcome) => outcome.request.kind === 'patch' && outcome.status === 200)
        .map((outcome) => (outcome.body as { changed: string[] }).changed.length);
      const writes = noteIds.length + changes.filter((count) => count > 0).length;
      const stored = await showProspect(deps, { workspaceId: seed.workspace_id, prospectId });
      const storedNotes = stored.notes.map((note) => note.id).sort();
      const noteEntries = stored.changelog
        .filter((entry) => entry.field === 'note')
        .map((entry) => entry.after)
        .sort();
      const fieldEntries = stored.changelog.filter((entry) => entry.field !== 'note').length;
      const expectedFieldEntries = changes.reduce((sum, count) => sum + count, 0);
      const label = `workspace ${workspace} prospect p${index}`;
      if (JSON.stringify(storedNotes) !== JSON.stringify(noteIds)) {
        check.failures.push(`${label}: ${storedNotes.length} notes stored, ${noteIds.length} answered 201`);
      }
      if (JSON.stringify(noteEntries) !== JSON.stringify(noteIds)) check.failures.push(`${label}: note entries differ`);
      if (fieldEntries !== expectedFieldEntries) {
        check.failures.push(`${label}: ${fieldEntries} change entries, ${expectedFieldEntries} changes answered`);
      }
      if (stored.prospect.version !== 1 + writes) {
        check.failures.push(`${label}: version ${stored.prospect.version}, ${writes} writes answered`);
      }
    }
  }
  return check;
}
