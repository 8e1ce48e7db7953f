import { tombstoneToPurge, withPurgeProgress } from '../../lib/domain/fields/field-purge';
import type { FieldDefinition, FieldEntry } from '../../lib/domain/model';
import { keys } from '../../lib/storage/table-items';
import { fieldPurgeIndexOf } from '../../lib/storage/workspace-config';

/** The purge's decisions on a workspace's fields (docs/data-model.md, "The purge of a deleted field"). */

const live: FieldDefinition = {
  key: 'ville',
  label: 'Ville',
  type: 'text',
  options: null,
  aliases: [],
  update: 'always',
};
const purging = (key: string, deletedAt: string, through?: string): FieldEntry => ({
  key,
  deleted_at: deletedAt,
  purging: true,
  ...(through === undefined ? {} : { purged_through: through }),
});
const purged = (key: string, deletedAt: string): FieldEntry => ({ key, deleted_at: deletedAt });
const settled = new Date('2026-05-04T10:00:00.000Z');

describe('the tombstone a workspace’s purge walks', () => {
  it('is the oldest deletion still purging and settled, whatever the creation order', () => {
    const fields = [
      purging('budget', '2026-05-04T09:59:00.000Z'),
      live,
      purged('ancien', '2026-01-01T00:00:00.000Z'),
      purging('salon', '2026-05-04T09:00:00.000Z'),
    ];
    expect(tombstoneToPurge(fields, settled)?.key).toBe('salon');
  });

  it('is none while the only purging deletion is not settled, nor when none purges', () => {
    expect(tombstoneToPurge([purging('budget', '2026-05-04T10:00:00.001Z'), live], settled)).toBeUndefined();
    expect(tombstoneToPurge([purged('budget', '2026-05-01T00:00:00.000Z'), live], settled)).toBeUndefined();
    expect(tombstoneToPurge([purging('budget', settled.toISOString())], settled)?.key).toBe('budget');
  });
});

describe('the purge’s progress on the tombstone', () => {
  const fields = [purging('budget', '2026-05-04T09:00:00.000Z'), live];

  it('keeps where the walk stopped, and moves it forward only', () => {
    const moved = withPurgeProgress(fields, 'budget', { through: '2026-04-01T08:00:02.000Z#b' });
    expect(moved).toEqual([purging('budget', '2026-05-04T09:00:00.000Z', '2026-04-01T08:00:02.000Z#b'), live]);
    expect(withPurgeProgress(moved!, 'budget', { through: '2026-04-01T08:00:01.000Z#a' })).toBeUndefined();
    expect(withPurgeProgress(moved!, 'budget', { through: '2026-04-01T08:00:02.000Z#b' })).toBeUndefined();
  });

  it('leaves the key and the deletion time alone once every prospect is walked', () => {
    const through = withPurgeProgress(fields, 'budget', { through: '2026-04-01T08:00:02.000Z#b' })!;
    expect(withPurgeProgress(through, 'budget', 'finished')).toEqual([
      purged('budget', '2026-05-04T09:00:00.000Z'),
      live,
    ]);
  });

  it('writes nothing for a tombstone that no longer purges, nor for a live field of that key', () => {
    expect(withPurgeProgress([purged('budget', '2026-05-04T09:00:00.000Z')], 'budget', 'finished')).toBeUndefined();
    expect(withPurgeProgress([live], 'ville', 'finished')).toBeUndefined();
  });
});

describe('the configuration item in the purge’s list (index gsi4)', () => {
  it('while a tombstone purges, sorted by the oldest such deletion, in UTC with milliseconds', () => {
    expect(
      fieldPurgeIndexOf([
        purging('budget', '2026-05-04T11:00:00+01:00'),
        purged('ancien', '2026-01-01T00:00:00.000Z'),
        purging('salon', '2026-05-04T10:30:00.000Z'),
        live,
      ]),
    ).toEqual({ gsi4pk: keys.fieldPurges, gsi4sk: '2026-05-04T10:00:00.000Z' });
  });

  it('not once none purges', () => {
    expect(fieldPurgeIndexOf([purged('budget', '2026-05-04T10:00:00.000Z'), live])).toBeUndefined();
    expect(fieldPurgeIndexOf([])).toBeUndefined();
  });
});
