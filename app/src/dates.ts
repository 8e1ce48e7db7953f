/**
 * The one way the page writes a date and time (docs/glossary.md, « Dates »): day, abbreviated month, year, hour and
 * minute in French, in a named time zone, and that zone said after it, so that two people in two places read the
 * same time the same way. Every date is Paris time for now, though a workspace has its own time zone (« Espace »,
 * `formatWallClock`): the other screens do not write their dates in it yet.
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

/**
 * « lundi 7 décembre 2026, 18:20 » for `2026-12-07T17:20:00Z` in `Europe/Paris`: what a wall clock of that time zone
 * shows at that instant, day of the week and month in full, so that a zone's name (`America/Montreal`) reads as the
 * time it is there. The zone is an IANA name the API accepted; one the browser does not know (an older time zone
 * database) has no time to show: undefined.
 */
export function formatWallClock(at: Date, timeZone: string): string | undefined {
  try {
    const day = new Intl.DateTimeFormat('fr-FR', {
      timeZone,
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    });
    const time = new Intl.DateTimeFormat('fr-FR', { timeZone, hour: '2-digit', minute: '2-digit' });
    return `${day.format(at)}, ${time.format(at)}`;
  } catch {
    return undefined;
  }
}
