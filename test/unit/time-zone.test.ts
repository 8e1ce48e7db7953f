import { defaultWorkspaceSettings, workspaceSettingsOf } from '../../lib/domain/model';
import { dayAt, dayOf, isKnownTimeZone, readTimeReference } from '../../lib/domain/time-zone';

/** A day's bounds as ISO strings, and its length in hours. */
const bounds = ({ date, start, end }: { date: string; start: Date; end: Date }) => ({
  date,
  start: start.toISOString(),
  end: end.toISOString(),
  hours: (end.getTime() - start.getTime()) / 3_600_000,
});

describe('isKnownTimeZone', () => {
  it.each(['Europe/Paris', 'America/Montreal', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5', 'UTC'])(
    'knows %s',
    (name) => expect(isKnownTimeZone(name)).toBe(true),
  );

  it.each([
    ['a place the database does not have', 'Europe/Lyon'],
    ['an area alone', 'Europe'],
    ['a fixed offset, which Intl reads but is no IANA name', '+02:00'],
    ['a name with spaces', ' Europe/Paris'],
    ['an abbreviation', 'CEST'],
    ['nothing', ''],
    ['a name past 64 characters', `Europe/${'P'.repeat(60)}`],
  ])('refuses %s (%j)', (_case, name) => expect(isKnownTimeZone(name)).toBe(false));
});

describe('the days of a workspace in Europe/Paris', () => {
  it('a workspace that never set its zone is in Europe/Paris', () => {
    expect(workspaceSettingsOf({}).time_zone).toBe('Europe/Paris');
    expect(workspaceSettingsOf(undefined)).toEqual(defaultWorkspaceSettings);
    expect(workspaceSettingsOf({ time_zone: 42 }).time_zone).toBe('Europe/Paris');
    expect(workspaceSettingsOf({ time_zone: 'America/Montreal' }).time_zone).toBe('America/Montreal');
  });

  it('an ordinary day is 24 hours, from midnight at the winter offset', () => {
    expect(bounds(dayOf('2026-01-15', 'Europe/Paris'))).toEqual({
      date: '2026-01-15',
      start: '2026-01-14T23:00:00.000Z',
      end: '2026-01-15T23:00:00.000Z',
      hours: 24,
    });
  });

  it('the last Sunday of March 2026 is 23 hours: midnight at +01:00, the next at +02:00', () => {
    expect(bounds(dayOf('2026-03-29', 'Europe/Paris'))).toEqual({
      date: '2026-03-29',
      start: '2026-03-28T23:00:00.000Z',
      end: '2026-03-29T22:00:00.000Z',
      hours: 23,
    });
  });

  it('the last Sunday of October 2026 is 25 hours: midnight at +02:00, the next at +01:00', () => {
    expect(bounds(dayOf('2026-10-25', 'Europe/Paris'))).toEqual({
      date: '2026-10-25',
      start: '2026-10-24T22:00:00.000Z',
      end: '2026-10-25T23:00:00.000Z',
      hours: 25,
    });
  });

  it.each([
    ['just after midnight, the first instant', '2026-03-28T23:00:00.000Z', '2026-03-29'],
    ['at 03:00 after the clocks went forward', '2026-03-29T01:00:00.000Z', '2026-03-29'],
    ['at 23:59:59.999, the last instant', '2026-03-29T21:59:59.999Z', '2026-03-29'],
    ['the next midnight, the next day', '2026-03-29T22:00:00.000Z', '2026-03-30'],
    ['the second 02:30 of October, still the 25th', '2026-10-25T01:30:00.000Z', '2026-10-25'],
    ['the instant before the day', '2026-03-28T22:59:59.999Z', '2026-03-28'],
  ])('"today" %s', (_case, instant, date) => {
    const today = dayAt(new Date(instant), defaultWorkspaceSettings.time_zone);
    expect(today).toEqual(dayOf(date, 'Europe/Paris'));
    expect(today.start.getTime()).toBeLessThanOrEqual(new Date(instant).getTime());
    expect(today.end.getTime()).toBeGreaterThan(new Date(instant).getTime());
  });
});

describe('a day whose midnight does not exist, or happens twice', () => {
  it('America/Santiago, 6 September 2026: the clocks go from 23:59:59 to 01:00, the day starts at 01:00 -03:00', () => {
    expect(bounds(dayOf('2026-09-06', 'America/Santiago'))).toEqual({
      date: '2026-09-06',
      start: '2026-09-06T04:00:00.000Z',
      end: '2026-09-07T03:00:00.000Z',
      hours: 23,
    });
    // The day before ends where this one starts: no instant between them belongs to no day.
    expect(dayOf('2026-09-05', 'America/Santiago').end).toEqual(dayOf('2026-09-06', 'America/Santiago').start);
  });

  it('America/Havana, 8 March 2026: the day starts at 01:00 -04:00', () => {
    expect(bounds(dayOf('2026-03-08', 'America/Havana'))).toEqual({
      date: '2026-03-08',
      start: '2026-03-08T05:00:00.000Z',
      end: '2026-03-09T04:00:00.000Z',
      hours: 23,
    });
  });

  it('America/Havana, 1 November 2026: from 01:00 back to 00:00, the day starts at the first midnight (-04:00)', () => {
    expect(bounds(dayOf('2026-11-01', 'America/Havana'))).toEqual({
      date: '2026-11-01',
      start: '2026-11-01T04:00:00.000Z',
      end: '2026-11-02T05:00:00.000Z',
      hours: 25,
    });
    expect(dayAt(new Date('2026-11-01T04:30:00.000Z'), 'America/Havana').date).toBe('2026-11-01');
  });

  it('Pacific/Apia skipped 30 December 2011: that day has no instant', () => {
    const skipped = dayOf('2011-12-30', 'Pacific/Apia');
    expect(skipped.end).toEqual(skipped.start);
    expect(dayOf('2011-12-29', 'Pacific/Apia').end).toEqual(skipped.start);
  });
});

describe('what the day arithmetic refuses', () => {
  it.each([
    ['an unknown zone', () => dayOf('2026-03-29', 'Europe/Lyon')],
    ['a fixed offset', () => dayOf('2026-03-29', '+02:00')],
    ['an unknown zone, for today', () => dayAt(new Date('2026-03-29T10:00:00Z'), 'Mars/Olympus')],
    ['a date that does not exist', () => dayOf('2026-02-30', 'Europe/Paris')],
    ['a date and time', () => dayOf('2026-03-29T00:00:00', 'Europe/Paris')],
    ['a week date', () => dayOf('2026-W13', 'Europe/Paris')],
  ])('%s: RangeError', (_case, call) => expect(call).toThrow(RangeError));
});

describe('readTimeReference', () => {
  it.each([
    ['an offset', '2026-03-29T10:00:00+02:00', '2026-03-29T08:00:00.000Z'],
    ['Z', '2026-03-29T10:00:00Z', '2026-03-29T10:00:00.000Z'],
    ['a negative offset, past midnight UTC', '2026-03-29T22:30:00-04:00', '2026-03-30T02:30:00.000Z'],
  ])('a timestamp with %s is an instant', (_case, text, instant) => {
    const read = readTimeReference(text);
    expect(read?.kind === 'instant' && read.instant.toISOString()).toBe(instant);
  });

  it('a plain date is a date, whose instants the zone decides', () => {
    expect(readTimeReference('2026-03-29')).toEqual({ kind: 'date', date: '2026-03-29' });
  });

  it.each([
    ['a date and time without a zone', '2026-03-29T10:00:00'],
    ['a date that does not exist', '2026-02-30'],
    ['a time that does not exist', '2026-03-29T24:00:00Z'],
    ['a date without its leading zeros', '2026-3-29'],
    ['words', 'aujourd’hui'],
  ])('refuses %s', (_case, text) => expect(readTimeReference(text)).toBeUndefined());
});
