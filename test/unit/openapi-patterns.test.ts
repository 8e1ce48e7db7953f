import fc from 'fast-check';
import { isEmailAddress, isUuid } from '../../lib/domain/model';
import { readIsoTimestamp } from '../../lib/domain/timestamps';
import { pageRequestOf } from '../../lib/http/query-parameters';
import {
  blank,
  emailPattern,
  listInstantPattern,
  memberOrNonePattern,
  notBlank,
  pageLimitPattern,
  trimmed,
  uuidPattern,
  zonedTimestampPattern,
} from '../../tools/openapi/document/patterns';

/**
 * The document's patterns against the code they describe: a validator that applies a pattern must
 * accept exactly what the service reads. Compiled with the `u` flag, as JSON Schema validators do.
 */
const matches = (pattern: string, text: string) => new RegExp(pattern, 'u').test(text);

const whiteSpace = fc.constantFrom('', ' ', '\t', '\n', '\u00a0', '\u2028', '\ufeff', '\u3000', ' \r\n ');
const padded = (text: fc.Arbitrary<string>) =>
  fc.tuple(whiteSpace, text, whiteSpace).map(([before, value, after]) => before + value + after);

const digits = (length: number, min: number, max: number) =>
  fc.integer({ min, max }).map((value) => String(value).padStart(length, '0'));
/** Mostly within the component's range, sometimes just past it. */
const component = (length: number, min: number, max: number) =>
  fc.oneof({ weight: 4, arbitrary: digits(length, min, max) }, digits(length, 0, max + 2));

/** Strings shaped like timestamps, most valid or nearly: month ends, leap years, every limit crossed. */
const timestampLike = fc
  .tuple(
    fc.oneof(
      digits(4, 0, 9999),
      fc.constantFrom('0000', '0001', '0004', '1900', '2000', '2024', '2100', '9999', '999'),
    ),
    component(2, 1, 12),
    fc.oneof(digits(2, 27, 31), component(2, 1, 31)),
    fc.oneof({ weight: 6, arbitrary: fc.constant('T') }, fc.constantFrom('t', ' ', '')),
    component(2, 0, 23),
    fc.oneof({ weight: 6, arbitrary: fc.constant(':') }, fc.constant('')),
    component(2, 0, 59),
    fc.option(component(2, 0, 59), { nil: undefined }),
    fc.option(fc.stringMatching(/^[0-9]{0,10}$/), { nil: undefined }),
    fc.constantFrom('Z', 'z', '', '+', '-', '+', '-', '+01', 'Y'),
    fc.option(fc.tuple(component(2, 0, 23), fc.constantFrom(':', ''), component(2, 0, 59)), { nil: undefined }),
  )
  .map(([year, month, day, t, hour, colon, minute, second, fraction, sign, offset]) => {
    const seconds = second === undefined ? '' : `:${second}${fraction === undefined ? '' : `.${fraction}`}`;
    const zone = offset === undefined || !'+-'.includes(sign) ? sign : `${sign}${offset.join('')}`;
    return `${year}-${month}-${day}${t}${hour}${colon}${minute}${seconds}${zone}`;
  });

describe('follow_up_at: the pattern is readIsoTimestamp with a zone required', () => {
  const reads = (text: string) => readIsoTimestamp(text, { zone: 'required', dateOnly: false }) !== undefined;

  it.each([
    ['2026-12-01T09:30:00+01:00', true],
    ['2026-12-01T09:30+0100', true],
    ['2028-02-29T10:00:00Z', true],
    ['2000-02-29T10:00:00z', true],
    ['2026-06-30T23:59:59.123456789Z', true],
    ['2026-02-30T10:00:00Z', false],
    ['2027-02-29T10:00:00Z', false],
    ['1900-02-29T10:00:00Z', false],
    ['2026-12-01T24:00:00Z', false],
    ['2026-12-01T10:61:00Z', false],
    ['2026-12-31T23:59:60Z', false],
    ['2026-12-01T09:30:00', false],
    ['2026-12-01', false],
    ['0000-01-01T00:00:00Z', false],
    ['2026-12-01T09:30:00.1234567890Z', false],
    ['2026-12-01 09:30:00Z', false],
  ])('%s: %s', (text, expected) => {
    expect(matches(zonedTimestampPattern, text)).toBe(expected);
    expect(reads(text)).toBe(expected);
  });

  it('agrees with the reader on generated timestamps, but for instants outside years 0001 to 9999 in UTC', () => {
    fc.assert(
      fc.property(timestampLike, (text) => {
        const pattern = matches(zonedTimestampPattern, text);
        const instantOutOfRange = /^(?:0001-01-01|9999-12-31)/.test(text);
        expect({ text, pattern }).toEqual({ text, pattern: reads(text) || (pattern && instantOutOfRange) });
      }),
      { numRuns: 20_000 },
    );
  });
});

describe("a list's instants: the pattern is readIsoTimestamp with a zone required and a date alone accepted", () => {
  const reads = (text: string) => readIsoTimestamp(text, { zone: 'required', dateOnly: true }) !== undefined;

  it.each([
    ['2026-11-02', true],
    ['2028-02-29', true],
    ['2026-11-02T10:00:00Z', true],
    ['2026-11-02T11:00+01:00', true],
    ['2026-02-30', false],
    ['2027-02-29', false],
    ['0000-01-01', false],
    ['2026-11-02T10:00:00', false],
    ['2026-11-02T', false],
    ['2026-11-02Z', false],
    [' 2026-11-02', false],
    ['02/11/2026', false],
  ])('%s: %s', (text, expected) => {
    expect(matches(listInstantPattern, text)).toBe(expected);
    expect(reads(text)).toBe(expected);
  });

  it('agrees with the reader on generated dates and timestamps, but for instants outside years 0001 to 9999 in UTC', () => {
    const dateLike = timestampLike.map((text) => text.slice(0, 10));
    fc.assert(
      fc.property(fc.oneof(timestampLike, dateLike), (text) => {
        const pattern = matches(listInstantPattern, text);
        const instantOutOfRange = /^(?:0001-01-01|9999-12-31)T/i.test(text);
        expect({ text, pattern }).toEqual({ text, pattern: reads(text) || (pattern && instantOutOfRange) });
      }),
      { numRuns: 2_000 },
    );
  });
});

/**
 * A pattern cannot normalize: it reads `A` + U+0300 as two characters where the service, after NFC,
 * reads one `À`. So it accepts a few decomposed addresses the service refuses (a one-letter
 * top-level label), never the reverse.
 */
describe('addresses: the pattern is isEmailAddress after trimming, length (maxLength) and NFC apart', () => {
  const agrees = (text: string) => {
    if (text.trim().length > 254) return;
    const pattern = matches(emailPattern, text);
    const changedByNfc = text.normalize('NFC') !== text;
    expect({ text, pattern }).toEqual({ text, pattern: isEmailAddress(text.trim()) || (pattern && changedByNfc) });
  };

  it.each([
    ['hélène@exemple.fr', true],
    [' camille.dupont@exemple.test\n', true],
    ['用户@例子.广告', true],
    ['he\u0301le\u0300ne@exemple.fr', true],
    ['a@xn--exemple-9ua.fr', true],
    ['"a b"@exemple.fr', false],
    ['a@[192.0.2.1]', false],
    ['a@b', false],
    ['nina@exemple.A\u0300', true],
    ['a b@exemple.fr', false],
    ['', false],
  ])('%j: %s', (text, expected) => {
    expect(matches(emailPattern, text)).toBe(expected);
    agrees(text);
  });

  it('agrees on generated addresses and text', () => {
    const text = fc.oneof(
      fc.emailAddress(),
      fc.string({ unit: 'grapheme', maxLength: 20 }).map((local) => `${local}@exemple.fr`),
      fc.string({ unit: 'grapheme', maxLength: 20 }).map((domain) => `nina@${domain}`),
      fc.string({ maxLength: 30 }),
    );
    fc.assert(fc.property(padded(text), agrees), { numRuns: 5_000 });
  });
});

describe('ids, blank and not blank', () => {
  it('pipeline_id and endpoint_id: the pattern is isUuid', () => {
    const text = fc.oneof(
      fc.uuid(),
      fc.uuid().map((id) => id.toUpperCase()),
      fc.uuid().map((id) => `urn:uuid:${id}`),
      fc.stringMatching(/^[0-9a-fA-Fg-]{30,40}$/),
    );
    fc.assert(
      fc.property(text, (id) => {
        expect(matches(uuidPattern, id)).toBe(isUuid(id));
        expect(matches(trimmed(uuidPattern), ` ${id}\t`)).toBe(isUuid(id));
      }),
    );
  });

  it('setter_id and closer_id of a list: the pattern is isUuid, or none', () => {
    const text = fc.oneof(
      fc.uuid(),
      fc.uuid().map((id) => id.toUpperCase()),
      fc.constantFrom('none', 'None', ' none', 'nonee', ''),
      fc.stringMatching(/^[0-9a-fA-Fg-]{30,40}$/),
    );
    fc.assert(fc.property(text, (id) => expect(matches(memberOrNonePattern, id)).toBe(id === 'none' || isUuid(id))));
  });

  it('blank and not blank are what trim() says', () => {
    fc.assert(
      fc.property(fc.oneof(padded(fc.constant('')), padded(fc.string({ maxLength: 3 }))), (text) => {
        expect(matches(notBlank, text)).toBe(text.trim() !== '');
        expect(matches(blank, text)).toBe(text.trim() === '');
      }),
    );
  });
});

describe('limit: the pattern is what pageRequestOf reads', () => {
  const binding = { list: 'notes', workspaceId: '', prospectId: '' } as const;
  const reads = (limit: string) => {
    try {
      pageRequestOf({ queryStringParameters: { limit }, multiValueQueryStringParameters: { limit: [limit] } }, binding);
      return true;
    } catch {
      return false;
    }
  };

  it.each([
    ['1', true],
    ['50', true],
    ['100', true],
    ['007', true],
    ['099', true],
    ['0', false],
    ['000', false],
    ['101', false],
    ['0100', false],
    ['+5', false],
    ['5.0', false],
    ['1e1', false],
    [' 5', false],
    ['', false],
    ['٥', false],
  ])('%j: %s', (text, expected) => {
    expect(matches(pageLimitPattern, text)).toBe(expected);
    expect(reads(text)).toBe(expected);
  });

  it('agrees on generated values', () => {
    const text = fc.oneof(
      fc.stringMatching(/^[0-9]{0,4}$/),
      fc.integer({ min: -5, max: 1005 }).map(String),
      fc.string(),
    );
    fc.assert(
      fc.property(text, (limit) =>
        expect({ limit, pattern: matches(pageLimitPattern, limit) }).toEqual({ limit, pattern: reads(limit) }),
      ),
    );
  });
});
