import { showProspect, type ProspectDetails } from '../../lib/settings/prospects';
import type { Deps } from '../../lib/storage/client';
import type { Entry, Model } from './crm-model';

const byId = <T extends { id?: string | undefined }>(items: T[]) =>
  [...items].sort((a, b) => (a.id ?? '').localeCompare(b.id ?? ''));

type StoredEntry = ProspectDetails['changelog'][number];

/**
 * The server draws entry ids: a model entry takes the id of the stored entry that says the same
 * (key, field, before, after) and that no other model entry has taken yet.
 */
function adoptEntryIds(model: Model, prospectId: string, stored: readonly StoredEntry[]): void {
  const taken = new Set(model.entries.map((entry) => entry.id));
  for (const entry of model.entries.filter((candidate) => candidate.prospectId === prospectId && !candidate.id)) {
    const twin = stored.find(
      (candidate) =>
        !taken.has(candidate.id) &&
        candidate.key_id === entry.keyId &&
        candidate.field === entry.field &&
        candidate.before === entry.before &&
        candidate.after === entry.after,
    );
    if (twin) {
      entry.id = twin.id;
      taken.add(twin.id);
    }
  }
}

const entryView = (
  entry: Pick<Entry, 'id' | 'keyId' | 'undone'> & Pick<StoredEntry, 'field' | 'before' | 'after'>,
) => ({
  id: entry.id,
  key_id: entry.keyId,
  field: entry.field,
  before: entry.before,
  after: entry.after,
  undone: entry.undone,
});

/**
 * The stored prospect (read with the admin tool's `prospect show`) equals the model's: its fields,
 * tags and version, every note (none ever disappears), and one log entry per change, no more.
 */
export async function expectStoredAsModelled(model: Model, deps: Deps, prospectIds: Iterable<string>): Promise<void> {
  for (const prospectId of new Set(prospectIds)) {
    const modelled = model.prospects.get(prospectId);
    if (!modelled) throw new Error(`prospect ${prospectId} is not in the model`);
    const stored = await showProspect(deps, { workspaceId: model.world.workspaceId, prospectId });
    const { tags, notes, ...fields } = modelled;
    expect(stored.prospect).toMatchObject(fields);
    expect(stored.tags.map((tag) => tag.id).sort()).toEqual([...tags].sort());
    expect(byId(stored.notes.map(({ id, content }) => ({ id, content })))).toEqual(byId(notes));
    adoptEntryIds(model, prospectId, stored.changelog);
    expect(
      byId(
        stored.changelog.map((entry) => entryView({ ...entry, keyId: entry.key_id, undone: entry.undone_at !== null })),
      ),
    ).toEqual(byId(model.entries.filter((entry) => entry.prospectId === prospectId).map(entryView)));
  }
}
