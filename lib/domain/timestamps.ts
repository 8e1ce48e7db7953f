/**
 * The one reader of every ISO 8601 timestamp the service accepts (docs/api.md#timestamps). Each component is
 * checked here, never left to `Date.parse`, which rolls a day that does not exist (`2026-02-30`,
 * `T24:00`) over to another one and reads a time without a zone in the server's local time.
 */
export type TimestampOptions = {
  /** `required`: a date and time without `Z` or an offset is refused; `utc-if-absent`: it is read as UTC. */
  zone: 'required' | 'utc-if-absent';
  /** Whether a calendar date alone (`2026-01-05`) is accepted, as UTC midnight. */
  dateOnly: boolean;
};

/**
 * Date, then optionally `T`, hh:mm, :ss, a fraction of 1 to 9 digits, and `Z` or ±hh:mm / ±hhmm.
 * `\d` is ASCII 0-9 only in JavaScript, so other scripts' digits never match.
 */
const timestampPattern =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?)?$/;

/**
 * Years 0001 to 9999 only, for the date as written and for the instant in UTC: year 0000 is 1 BC
 * (ISO 8601 allows it only by mutual agreement), and `toISOString` writes an instant outside this
 * range with six digits and a sign, an answer this reader would then refuse.
 */
const firstYear = 1;
const lastYear = 9999;

/**
 * The instant `text` denotes, or undefined when it is not such a timestamp or names a date or time
 * that does not exist (Feb 29 of a common year, April 31, hour 24, minute or second 60). Fractions
 * beyond the millisecond are truncated, as `Date` cannot hold them.
 */
export function readIsoTimestamp(text: string, options: TimestampOptions): Date | undefined {
  const match = timestampPattern.exec(text);
  if (!match) return undefined;
  const [, yearText, monthText, dayText, hourText, minuteText, secondText, fraction, utc, sign, offsetH, offsetM] =
    match;
  const year = Number(yearText);
  const month = Number(monthText);
  const day = Number(dayText);
  if (year < firstYear || year > lastYear || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return undefined;
  }

  const hasTime = hourText !== undefined;
  if (!hasTime && !options.dateOnly) return undefined;
  const hour = Number(hourText ?? 0);
  const minute = Number(minuteText ?? 0);
  const second = Number(secondText ?? 0);
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const millis = Number((fraction ?? '').slice(0, 3).padEnd(3, '0'));

  const hasZone = utc !== undefined || sign !== undefined;
  if (hasTime && !hasZone && options.zone === 'required') return undefined;
  const offsetHours = Number(offsetH ?? 0);
  const offsetMinutes = Number(offsetM ?? 0);
  if (offsetHours > 23 || offsetMinutes > 59) return undefined;
  const offset = (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes);

  // Not Date.UTC: it reads years 0 to 99 as 1900 to 1999.
  const wallClock = new Date(0);
  wallClock.setUTCFullYear(year, month - 1, day);
  wallClock.setUTCHours(hour, minute, second, millis);
  const instant = new Date(wallClock.getTime() - offset * 60_000);
  const utcYear = instant.getUTCFullYear();
  return utcYear < firstYear || utcYear > lastYear ? undefined : instant;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Gregorian rule: every fourth year, except centuries not divisible by 400. */
function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}
