import { DateTime } from 'luxon';
import { defaultWorkspaceSettings, type FieldDefinition, type WorkspaceConfig } from '../../lib/domain/model';
import type { WorkspaceDays } from '../../lib/domain/prospect-list/list-query';

/*
 * The workspace the list query's unit tests read against (test/unit/list-query.test.ts, list-match.test.ts): two
 * active pipelines sharing a stage name and an inactive one, members (one removed), tags, one field of each type
 * and a deleted one, in Europe/Paris.
 */

/** The workspace's days in Europe/Paris, as luxon reads them (summer time included). */
const zone = 'Europe/Paris';
export const parisDays: WorkspaceDays = {
  startOf: (date) => DateTime.fromISO(date, { zone }).startOf('day').toJSDate().toISOString(),
  today: (now) => {
    const start = DateTime.fromJSDate(now, { zone }).startOf('day');
    return { start: start.toJSDate().toISOString(), end: start.plus({ days: 1 }).toJSDate().toISOString() };
  },
};

export const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const ids = {
  sales: uuid(1),
  coaching: uuid(2),
  archived: uuid(3),
  new: uuid(11),
  followUp: uuid(12),
  call: uuid(13),
  coachingNew: uuid(14),
  archivedNew: uuid(15),
  alice: uuid(21),
  bob: uuid(22),
  gone: uuid(23),
  vip: uuid(31),
  cold: uuid(32),
  prospect: uuid(41),
};

const field = (key: string, type: FieldDefinition['type'], options: string[] | null = null): FieldDefinition => ({
  key,
  label: key.toUpperCase(),
  type,
  options,
  aliases: [],
  update: 'always',
});

export const listConfig: WorkspaceConfig = {
  settings: defaultWorkspaceSettings,
  workspace: { id: 'ws-list', name: 'Acme', created_at: '2026-01-01T00:00:00.000Z' },
  members: [
    { id: ids.alice, name: 'Alice', email: 'alice@exemple.test' },
    { id: ids.bob, name: 'Bob', email: null },
    { id: ids.gone, name: 'Gaston', email: null, removed_at: '2026-02-01T00:00:00.000Z' },
  ],
  tags: [
    { id: ids.vip, name: 'VIP' },
    { id: ids.cold, name: 'Froid' },
  ],
  salesPipelines: [
    {
      id: ids.sales,
      name: 'Ventes',
      is_default: true,
      active: true,
      position: 0,
      stages: [
        { id: ids.new, name: 'Nouveau', type: 'Appointment Setting', order: 0 },
        { id: ids.followUp, name: 'Relance', type: 'Follow up', order: 1 },
      ],
    },
    {
      id: ids.coaching,
      name: 'Coaching',
      is_default: false,
      active: true,
      position: 1,
      stages: [
        { id: ids.coachingNew, name: 'Nouveau', type: 'Appointment Setting', order: 0 },
        { id: ids.call, name: 'Appel', type: 'Follow up', order: 1 },
      ],
    },
    {
      id: ids.archived,
      name: 'Archives 2025',
      is_default: false,
      active: false,
      position: 2,
      stages: [{ id: ids.archivedNew, name: 'Ancien', type: 'Closed', order: 0 }],
    },
  ],
  recruitmentPipelines: [],
  fields: [
    field('budget', 'number'),
    field('start', 'date'),
    field('newsletter', 'boolean'),
    field('city', 'text'),
    field('offer', 'choice', ['Annuel', 'Mensuel']),
    field('interests', 'multi_choice', ['Vente', 'Coaching', 'Mindset']),
    { key: 'old', deleted_at: '2026-03-01T00:00:00.000Z' },
  ],
};
