import { DateTime, IANAZone } from 'luxon';
import { readIsoTimestamp } from './timestamps';

/*
 * A workspace's days in its time zone (docs/api.md#workspaces): which names are zones, where a calendar date begins
 * and ends in one, which day an instant falls on there. The offsets and their changes are luxon's (the runtime's time
 * zone database, through Intl), never worked out here: a day is 23, 24 or 25 hours long, and some dates have no
 * midnight, or two.
 */

/**
 * An IANA name's form: `Area/Location` (`Europe/Paris`, `America/Argentina/Buenos_Aires`) or one word (`UTC`). Intl,
 * which luxon asks, also reads fixed offsets (`+02:00`) as zones: they are no IANA names, and a fixed offset would
 * miss the clock changes a place has.
 */
const ianaNamePattern = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

/** The form as JSON Schema and OpenAPI validators read it (ECMA-262). */
export const ianaNamePatternSource = ianaNamePattern.source;

/** Far above the longest IANA name (32 characters): a longer value is refused before the database is asked. */
export const maxTimeZoneNameLength = 64;

/** Whether `name` is a time zone the runtime's IANA database knows (`Europe/Paris`, `America/Montreal`, `UTC`). */
export function isKnownTimeZone(name: string): boolean {
  return name.length <= maxTimeZoneNameLength && ianaNamePattern.test(name) && IANAZone.isValidZone(name);
}

/** A calendar date as written: `YYYY-MM-DD`. */
const calendarDatePattern = /^\d{4}-\d{2}-\d{2}$/;

/** One day of a workspace: its date and its instants, from `start` included to `end` excluded. */
export type ZonedDay = { date: string; start: Date; end: Date };

/** The date as a pure calendar day (UTC, where every day has its midnight): what date arithmetic works on. */
function calendarDay(date: string): DateTime {
  const day = calendarDatePattern.test(date) ? DateTime.fromISO(date, { zone: 'utc' }) : undefined;
  if (!day?.isValid) throw new RangeError(`Not a calendar date (YYYY-MM-DD): ${date}`);
  return day;
}

function knownZone(zone: string): string {
  if (!isKnownTimeZone(zone)) throw new RangeError(`Unknown time zone: ${zone}`);
  return zone;
}

/**
 * The first instant of a calendar day in `zone`. Its midnight, or: when the clocks skip midnight that day (they go
 * from 23:59:59 to 01:00), the first instant that exists, which luxon gives for a local time in a gap; when they pass
 * midnight twice (back from 01:00 to 00:00), the earlier of the two, among the instants luxon finds for that local
 * time.
 */
function firstInstantOf(day: DateTime, zone: string): Date {
  const midnight = day.setZone(zone, { keepLocalTime: true });
  return new Date(Math.min(...midnight.getPossibleOffsets().map((instant) => instant.toMillis())));
}

/**
 * The day `date` (`YYYY-MM-DD`) in `zone`: from its first instant to the next date's. A malformed date or an unknown
 * zone: RangeError (a date a person wrote is read first, `readTimeReference`; a workspace's zone was checked when set).
 */
export function dayOf(date: string, zone: string): ZonedDay {
  const day = calendarDay(date);
  knownZone(zone);
  return { date, start: firstInstantOf(day, zone), end: firstInstantOf(day.plus({ days: 1 }), zone) };
}

/** The day `instant` falls on in `zone`: "today" there, for `now`. */
export function dayAt(instant: Date, zone: string): ZonedDay {
  const date = DateTime.fromJSDate(instant, { zone: knownZone(zone) }).toISODate();
  if (date === null) throw new RangeError(`Not an instant: ${String(instant)}`);
  return dayOf(date, zone);
}

/**
 * What a time given to a list says (docs/api.md#timestamps): an instant, written with `Z` or an offset
 * (`2026-03-29T10:00:00+02:00`), the same wherever the workspace is; or a calendar date (`2026-03-29`), a day of the
 * workspace, whose instants its time zone decides (`dayOf`).
 */
export type TimeReference = { kind: 'instant'; instant: Date } | { kind: 'date'; date: string };

/**
 * The instant or the date `text` says; undefined for anything else: a date that does not exist (`2026-02-30`), or a
 * date and time without `Z` or an offset, whose instant would depend on a zone the text does not name.
 */
export function readTimeReference(text: string): TimeReference | undefined {
  if (calendarDatePattern.test(text)) {
    return readIsoTimestamp(text, { zone: 'required', dateOnly: true }) === undefined
      ? undefined
      : { kind: 'date', date: text };
  }
  const instant = readIsoTimestamp(text, { zone: 'required', dateOnly: false });
  return instant === undefined ? undefined : { kind: 'instant', instant };
}
