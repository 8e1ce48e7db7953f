import { pageOfListedChanges, type ChangePageRead } from '../../lib/domain/prospect/read-views';
import type { ChangeLogEntry, FieldDefinition } from '../../lib/domain/model';

/**
 * The listing of a change log without the entries of a deleted custom field (docs/adr/0016-custom-fields-storage.md):
 * full pages, a next position only when a listed entry follows, and the definitions read only when needed.
 */

const budget: FieldDefinition = {
  key: 'budget',
  label: 'Budget',
  type: 'number',
  options: null,
  aliases: [],
  update: 'always',
};

/** A log of entries newest first, `n` the nth; `deleted` entries name the deleted field `old`. */
function logOf(fields: readonly string[]): ChangeLogEntry[] {
  return fields.map((field, index) => ({
    id: `e${index}`,
    workspace_id: 'ws',
    prospect_id: 'p',
    key_id: 'k',
    field: field as ChangeLogEntry['field'],
    before: null,
    after: 1,
    at: `2026-11-${String(30 - index).padStart(2, '0')}T00:00:00.000Z`,
    prospect_version: index + 2,
    undone_at: null,
  }));
}

/** Pages read as storage reads them: `limit` entries after the position, and the one that follows. */
function reader(log: readonly ChangeLogEntry[], limit: number): { read: ChangePageRead; reads: number } {
  const counter = {
    reads: 0,
    read: async (after: { at: string; id: string } | undefined) => {
      counter.reads += 1;
      const start = after === undefined ? 0 : log.findIndex((entry) => entry.id === after.id) + 1;
      return { items: log.slice(start, start + limit), following: log[start + limit] };
    },
  };
  return counter;
}

const ids = (entries: readonly ChangeLogEntry[]) => entries.map((entry) => entry.id);

describe('pageOfListedChanges', () => {
  it('reads one page and no definitions when neither the page nor the entry after it is of a custom field', async () => {
    const log = logOf(['stage', 'setter', 'tags', 'fields.old']);
    const pages = reader(log, 2);
    let definitionReads = 0;
    const definitions = async () => {
      definitionReads += 1;
      return [budget];
    };
    const page = await pageOfListedChanges(pages.read, { limit: 2 }, definitions);
    expect(ids(page.entries)).toEqual(['e0', 'e1']);
    expect(page.next).toEqual({ at: log[1]?.at, id: 'e1' });
    expect([pages.reads, definitionReads]).toEqual([1, 0]);

    // The entry after the page is of a deleted field: read on until a listed one is seen past the page.
    const withDeleted = logOf(['stage', 'setter', 'fields.old', 'tags']);
    const more = reader(withDeleted, 2);
    const next = await pageOfListedChanges(more.read, { limit: 2 }, definitions);
    expect([ids(next.entries), next.next, more.reads, definitionReads]).toEqual([
      ['e0', 'e1'],
      { at: withDeleted[1]?.at, id: 'e1' },
      2,
      1,
    ]);
  });

  it('leaves out entries of deleted fields, reads on to fill the page, and gives no position when only such entries follow', async () => {
    const log = logOf(['fields.old', 'fields.budget', 'fields.old', 'stage', 'fields.old', 'fields.old']);
    const pages = reader(log, 2);
    let definitionReads = 0;
    const definitions = async () => {
      definitionReads += 1;
      return [budget];
    };
    const first = await pageOfListedChanges(pages.read, { limit: 2 }, definitions);
    expect(ids(first.entries)).toEqual(['e1', 'e3']);
    expect(first.next).toBeNull();
    expect(definitionReads).toBe(1);

    const byOne = await pageOfListedChanges(reader(log, 1).read, { limit: 1 }, definitions);
    expect(ids(byOne.entries)).toEqual(['e1']);
    expect(byOne.next).toEqual({ at: log[1]?.at, id: 'e1' });
    const second = await pageOfListedChanges(
      reader(log, 1).read,
      { limit: 1, after: byOne.next ?? undefined },
      definitions,
    );
    expect([ids(second.entries), second.next]).toEqual([['e3'], null]);
  });

  it('answers an empty page for a log of deleted fields only', async () => {
    const page = await pageOfListedChanges(
      reader(logOf(['fields.old', 'fields.old']), 5).read,
      { limit: 5 },
      async () => [budget],
    );
    expect(page).toEqual({ entries: [], next: null });
  });
});
