import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { AdminInputError } from '../../lib/settings/admin-input';
import { parseSeedDescription } from '../../tools/seed/seed-description';
import { planSeed } from '../../tools/seed/seed-plan';
import { noteDate } from '../../lib/domain/prospect/add-note';
import { patchProspectSchema } from '../../lib/domain/prospect/update-prospect';
import { readIsoTimestamp, type TimestampOptions } from '../../lib/domain/timestamps';

const zoned: TimestampOptions = { zone: 'required', dateOnly: false };
const lenient: TimestampOptions = { zone: 'utc-if-absent', dateOnly: true };
const read = (text: string, options: TimestampOptions = zoned) => readIsoTimestamp(text, options)?.toISOString();

describe('readIsoTimestamp', () => {
  it.each([
    ['2026-02-28T10:00:00Z', '2026-02-28T10:00:00.000Z'],
    ['2028-02-29T10:00:00Z', '2028-02-29T10:00:00.000Z'],
    ['2000-02-29T10:00:00Z', '2000-02-29T10:00:00.000Z'],
    ['2026-04-30T10:00:00Z', '2026-04-30T10:00:00.000Z'],
    ['2026-12-01T09:30:00+01:00', '2026-12-01T08:30:00.000Z'],
    ['2026-12-01T09:30+0100', '2026-12-01T08:30:00.000Z'],
    ['2026-01-01T00:00:00+14:00', '2025-12-31T10:00:00.000Z'],
    ['2026-01-01T00:00:00-23:59', '2026-01-01T23:59:00.000Z'],
    ['2026-01-01T00:00:00-00:00', '2026-01-01T00:00:00.000Z'],
    ['2026-06-30t23:59:59z', '2026-06-30T23:59:59.000Z'],
    ['2026-06-30T23:59:59.5Z', '2026-06-30T23:59:59.500Z'],
    ['2026-06-30T23:59:59.123456789Z', '2026-06-30T23:59:59.123Z'],
    ['2026-06-30T23:59:59.999999999Z', '2026-06-30T23:59:59.999Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
    ['0099-03-01T00:00:00Z', '0099-03-01T00:00:00.000Z'],
    ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
  ])('reads %s as %s', (text, expected) => {
    expect(read(text)).toBe(expected);
    expect(read(text, lenient)).toBe(expected);
  });

  it.each([
    ['a day after the end of February', '2026-02-30T10:00:00Z'],
    ['Feb 29 of a common year', '2027-02-29T10:00:00Z'],
    ['Feb 29 of a century not divisible by 400', '2100-02-29T10:00:00Z'],
    ['April 31', '2026-04-31T10:00:00Z'],
    ['month 13', '2026-13-01T10:00:00Z'],
    ['month 00', '2026-00-10T10:00:00Z'],
    ['day 00', '2026-01-00T10:00:00Z'],
    ['hour 24', '2026-01-01T24:00:00Z'],
    ['hour 24 without seconds', '2026-01-01T24:00Z'],
    ['minute 61', '2026-01-01T10:61:00Z'],
    ['minute 60', '2026-01-01T10:60Z'],
    ['a leap second', '2026-12-31T23:59:60Z'],
    ['offset +24:00', '2026-01-01T10:00:00+24:00'],
    ['offset minute 60', '2026-01-01T10:00:00+23:60'],
    ['offset of one digit', '2026-01-01T10:00:00+1'],
    ['offset without minutes', '2026-01-01T10:00:00+01'],
    ['year 0000', '0000-06-01T10:00:00Z'],
    ['an instant before year 0001 in UTC', '0001-01-01T00:00:00+01:00'],
    ['an instant after year 9999 in UTC', '9999-12-31T23:00:00-01:00'],
    ['a leading space', ' 2026-01-01T10:00:00Z'],
    ['a trailing space', '2026-01-01T10:00:00Z '],
    ['a trailing newline', '2026-01-01T10:00:00Z\n'],
    ['Arabic-Indic digits', '٢٠٢٦-٠١-٠١T10:00:00Z'],
    ['fullwidth digits', '２０２６-01-01T10:00:00Z'],
    ['an empty fraction', '2026-01-01T10:00:00.Z'],
    ['a fraction of 10 digits', '2026-01-01T10:00:00.1234567890Z'],
    ['a fraction without seconds', '2026-01-01T10:00.5Z'],
    ['an hour alone', '2026-01-01T10Z'],
    ['a space for T', '2026-01-01 10:00:00Z'],
    ['one-digit month and day', '2026-1-1T10:00:00Z'],
    ['a two-digit year', '26-01-01T10:00:00Z'],
    ['a zone name', '2026-01-01T10:00:00UTC'],
    ['two zones', '2026-01-01T10:00:00+01:00Z'],
    ['a zone on a date alone', '2026-01-05Z'],
    ['a T without time', '2026-01-05T'],
    ['words', 'hier'],
    ['nothing', ''],
  ])('refuses %s (%j) under either option', (_label, text) => {
    expect(read(text)).toBeUndefined();
    expect(read(text, lenient)).toBeUndefined();
  });

  it('refuses a date and time without zone when one is required, reads it as UTC otherwise', () => {
    for (const text of ['2026-01-01T10:00:00', '2026-01-01T10:00', '2026-01-01t10:00:00.25']) {
      expect(read(text)).toBeUndefined();
      expect(read(text, { zone: 'utc-if-absent', dateOnly: false })).toMatch(/^2026-01-01T10:00:00\.(000|250)Z$/);
    }
  });

  it('reads a date alone as UTC midnight only when dates alone are allowed, whatever the zone option', () => {
    expect(read('2026-01-05')).toBeUndefined();
    expect(read('2026-01-05', { zone: 'utc-if-absent', dateOnly: false })).toBeUndefined();
    expect(read('2026-01-05', { zone: 'required', dateOnly: true })).toBe('2026-01-05T00:00:00.000Z');
    expect(read('2026-01-05', lenient)).toBe('2026-01-05T00:00:00.000Z');
    expect(read('2026-02-30', lenient)).toBeUndefined();
  });
});

describe('readIsoTimestamp against an independent reference (property)', () => {
  type Zone =
    | { kind: 'none' }
    | { kind: 'utc'; letter: 'Z' | 'z' }
    | { kind: 'offset'; sign: '+' | '-'; hours: number; minutes: number; colon: boolean };
  type Written = {
    year: number;
    month: number;
    day: number;
    separator: 'T' | 't';
    hour: number;
    minute: number;
    /** Undefined: the time stops at the minute. */
    second: number | undefined;
    fraction: string;
    zone: Zone;
  };

  const pad = (value: number, width: number) => String(value).padStart(width, '0');
  // Components reach one past their range, so that rolled-over dates and times are drawn often.
  const written: fc.Arbitrary<Written> = fc.record({
    year: fc.oneof(
      fc.integer({ min: 0, max: 9999 }),
      fc.constantFrom(0, 1, 4, 99, 100, 400, 1900, 2000, 2024, 2026, 2027, 2028, 2100, 9999),
    ),
    month: fc.integer({ min: 0, max: 13 }),
    day: fc.oneof(fc.integer({ min: 0, max: 31 }), fc.constantFrom(28, 29, 30, 31)),
    separator: fc.constantFrom('T' as const, 't' as const),
    hour: fc.integer({ min: 0, max: 24 }),
    minute: fc.integer({ min: 0, max: 60 }),
    second: fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
    fraction: fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: 9 }),
    zone: fc.oneof(
      fc.constant<Zone>({ kind: 'none' }),
      fc.record({ kind: fc.constant('utc' as const), letter: fc.constantFrom('Z' as const, 'z' as const) }),
      fc.record({
        kind: fc.constant('offset' as const),
        sign: fc.constantFrom('+' as const, '-' as const),
        hours: fc.integer({ min: 0, max: 24 }),
        minutes: fc.integer({ min: 0, max: 60 }),
        colon: fc.boolean(),
      }),
    ),
  });

  function text(parts: Written): string {
    const date = `${pad(parts.year, 4)}-${pad(parts.month, 2)}-${pad(parts.day, 2)}`;
    const seconds =
      parts.second === undefined ? '' : `:${pad(parts.second, 2)}${parts.fraction ? `.${parts.fraction}` : ''}`;
    const { zone } = parts;
    const zoneText =
      zone.kind === 'none'
        ? ''
        : zone.kind === 'utc'
          ? zone.letter
          : `${zone.sign}${pad(zone.hours, 2)}${zone.colon ? ':' : ''}${pad(zone.minutes, 2)}`;
    return `${date}${parts.separator}${pad(parts.hour, 2)}:${pad(parts.minute, 2)}${seconds}${zoneText}`;
  }

  const fourHundredYears = 146_097 * 86_400_000;

  /**
   * Components → UTC → components: a date or time that does not exist comes back as other
   * components (Date.UTC rolls it over). Date.UTC reads years 0 to 99 as 1900 to 1999, so the date
   * is built 400 years later (the Gregorian calendar repeats every 400 years) and moved back.
   */
  function expected(parts: Written, zoneRequired: boolean): number | undefined {
    const second = parts.second ?? 0;
    // The fraction is written only after seconds.
    const millis = parts.second === undefined ? 0 : Number(parts.fraction.slice(0, 3).padEnd(3, '0'));
    const wallClock =
      Date.UTC(parts.year + 400, parts.month - 1, parts.day, parts.hour, parts.minute, second, millis) -
      fourHundredYears;
    const back = new Date(wallClock);
    const exists =
      back.getUTCFullYear() === parts.year &&
      back.getUTCMonth() === parts.month - 1 &&
      back.getUTCDate() === parts.day &&
      back.getUTCHours() === parts.hour &&
      back.getUTCMinutes() === parts.minute &&
      back.getUTCSeconds() === second;
    const { zone } = parts;
    let offsetMinutes = 0;
    if (zone.kind === 'offset') {
      const offset = new Date(Date.UTC(1970, 0, 1, zone.hours, zone.minutes));
      if (offset.getUTCDate() !== 1 || offset.getUTCHours() !== zone.hours || offset.getUTCMinutes() !== zone.minutes) {
        return undefined;
      }
      offsetMinutes = (zone.sign === '-' ? -1 : 1) * (zone.hours * 60 + zone.minutes);
    }
    if (!exists || parts.year === 0 || (zoneRequired && zone.kind === 'none')) return undefined;
    const instant = wallClock - offsetMinutes * 60_000;
    const utcYear = new Date(instant).getUTCFullYear();
    return utcYear >= 1 && utcYear <= 9999 ? instant : undefined;
  }

  it('accepts exactly the dates and times that exist, as the instant they denote', () => {
    fc.assert(
      fc.property(written, (parts) => {
        const input = text(parts);
        expect(readIsoTimestamp(input, zoned)?.getTime()).toBe(expected(parts, true));
        expect(readIsoTimestamp(input, { zone: 'utc-if-absent', dateOnly: false })?.getTime()).toBe(
          expected(parts, false),
        );
      }),
      { numRuns: 5000 },
    );
  });

  it('accepts a date alone exactly when it exists, as UTC midnight', () => {
    fc.assert(
      fc.property(written, ({ year, month, day }) => {
        const parts: Written = {
          year,
          month,
          day,
          separator: 'T',
          hour: 0,
          minute: 0,
          second: 0,
          fraction: '',
          zone: { kind: 'none' },
        };
        const input = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
        expect(readIsoTimestamp(input, lenient)?.getTime()).toBe(expected(parts, false));
        expect(readIsoTimestamp(input, zoned)).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });

  it('reads its own output, toISOString, back as the same instant', () => {
    fc.assert(
      fc.property(written, (parts) => {
        const instant = readIsoTimestamp(text(parts), { zone: 'utc-if-absent', dateOnly: false });
        fc.pre(instant !== undefined);
        expect(readIsoTimestamp((instant as Date).toISOString(), zoned)?.getTime()).toBe(instant?.getTime());
      }),
      { numRuns: 2000 },
    );
  });
});

describe('users of the reader', () => {
  const receivedAt = new Date('2026-03-10T12:00:00.000Z');
  const invalidDate = "La date de la note n'est pas une date ISO 8601 valide : la date de réception a été retenue.";

  it.each([
    ['2026-02-30T10:00:00Z', { date: receivedAt.toISOString(), warnings: [invalidDate] }],
    ['2026-01-05T10:00:00', { date: '2026-01-05T10:00:00.000Z', warnings: [] }],
    ['2026-01-05', { date: '2026-01-05T00:00:00.000Z', warnings: [] }],
    ['2026-01-05T10:00:00+01:00', { date: '2026-01-05T09:00:00.000Z', warnings: [] }],
    ['2026-03-10T12:00:00.001Z', { date: receivedAt.toISOString(), warnings: [expect.stringContaining('futur')] }],
  ])('noteDate reads %s', (date, result) => {
    expect(noteDate(date, receivedAt)).toEqual(result);
  });

  it('the PATCH schema answers follow_up_at in UTC, and names the field of an impossible date', () => {
    expect(patchProspectSchema.parse({ follow_up_at: '2026-12-01T09:30:00+01:00' })).toEqual({
      follow_up_at: '2026-12-01T08:30:00.000Z',
    });
    for (const followUp of ['2026-02-30T10:00:00Z', '2026-12-01T09:30:00', '2026-12-01T24:00:00Z']) {
      const result = patchProspectSchema.safeParse({ follow_up_at: followUp });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual(['follow_up_at']);
    }
  });

  it('a seed refuses a follow-up its schema lets through but the reader does not, and stores one in UTC', () => {
    const plan = (followUps: string[]) =>
      planSeed(
        { clock: () => new Date('2026-03-10T12:00:00Z'), newId: randomUUID },
        parseSeedDescription({
          workspace: { name: 'Acme' },
          prospects: followUps.map((followUp, index) => ({
            email: `p${index}@acme.test`,
            next_follow_up_at: followUp,
          })),
        }),
      );
    const stored = plan(['2026-12-01T09:30:00+01:00']).items.find((item) => item.type === 'prospect');
    expect(stored?.next_follow_up_at).toBe('2026-12-01T08:30:00.000Z');
    const refused = () => plan(['0000-06-01T10:00:00Z', '2026-01-01T10:00:00.1234567890Z']);
    expect(refused).toThrow(AdminInputError);
    for (const index of [0, 1]) {
      expect(refused).toThrow(`prospects.${index}.next_follow_up_at : date ISO 8601 avec fuseau horaire invalide`);
    }
  });
});
