import type { ChangeLogEntryView } from '../../lib/domain/prospect/read-views';
import { fieldValueText, table } from './render';

/** "Modifications par l'API" as a table; the prospect column only where entries span several prospects. */
export function changeLogTable(entries: readonly ChangeLogEntryView[], options: { withProspect: boolean }): string {
  const prospect = (entry: ChangeLogEntryView) => (options.withProspect ? [entry.prospect_id] : []);
  return table(
    ['Date', ...(options.withProspect ? ['Prospect'] : []), 'Champ', 'Avant', 'Après', 'Clé', 'Annulée le', 'Entrée'],
    entries.map((entry) => [
      entry.at,
      ...prospect(entry),
      entry.field,
      fieldValueText(entry.before),
      fieldValueText(entry.after),
      entry.key_id,
      entry.undone_at,
      entry.id,
    ]),
    "Aucune modification par l'API.",
  );
}
