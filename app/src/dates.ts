/**
 * The one way the page writes a date and time (docs/glossary.md, « Dates »): day, abbreviated month, year, hour and
 * minute in French, in a named time zone, and that zone said after it, so that two people in two places read the
 * same time the same way. Workspaces have no time zone of their own yet: every date is Paris time.
 */
export type PageTimeZone = { id: string; label: string };

export const parisTime: PageTimeZone = { id: 'Europe/Paris', label: 'heure de Paris' };

/** « 7 déc. 2026, 14:05 (heure de Paris) » for `2026-12-07T13:05:00Z`. */
export function formatDateTime(iso: string, zone: PageTimeZone = parisTime): string {
  const format = new Intl.DateTimeFormat('fr-FR', {
    timeZone: zone.id,
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
  return `${format.format(new Date(iso))} (${zone.label})`;
}

/**
 * « 7 déc. 2026 » for `2026-12-07`: a date without a time (a custom field's, docs/api.md#custom-fields), the same
 * day wherever it is read, so written as the calendar says it, in no time zone; a text that is no such date (the
 * page would otherwise stop on its error) as it is.
 */
export function formatDate(isoDate: string): string {
  const day = new Date(`${isoDate}T00:00:00Z`);
  if (Number.isNaN(day.getTime())) return isoDate;
  return new Intl.DateTimeFormat('fr-FR', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' }).format(
    day,
  );
}
