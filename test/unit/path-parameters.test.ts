import fc from 'fast-check';
import { InvalidInputError, NotFoundError } from '../../lib/domain/model';
import { decodePathParameter } from '../../lib/http/middleware/route';
import { pathParameterText, prospectIdOf, tagOf } from '../../lib/http/request-input';
import { messages } from '../../lib/messages';

/**
 * API Gateway REST hands path parameters over still percent-encoded; one
 * function decodes them, exactly once, and a malformed escape is a typed failure, never a throw.
 */
const malformed = [
  '%',
  'abc%',
  '%E9',
  'Tr%E8s',
  '%C3',
  '%G1',
  '%%',
  '%ED%A0%80', // an encoded surrogate: not UTF-8
  '%C0%AF', // an overlong slash
];

const event = (pathParameters: Record<string, string> | null) => ({ pathParameters });

describe('decodePathParameter', () => {
  test('encodeURIComponent then decodePathParameter gives the text back, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(decodePathParameter(encodeURIComponent(text))).toEqual({ readable: true, value: text });
      }),
    );
  });

  test('any percent-escaped UTF-8 form of a text decodes to it (upper or lower case hex, reserved characters left plain)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.boolean(), (text, lower) => {
        const encoded = encodeURI(text).replace(/%[0-9A-F]{2}/g, (escape) => (lower ? escape.toLowerCase() : escape));
        expect(decodePathParameter(encoded)).toEqual({ readable: true, value: decodeURI(encodeURI(text)) });
      }),
    );
  });

  test('decodes exactly once: %2F is a slash, %25 a percent sign, %2525 the text %25; + stays a plus', () => {
    expect(decodePathParameter('Achat%2FVente')).toEqual({ readable: true, value: 'Achat/Vente' });
    expect(decodePathParameter('100%25')).toEqual({ readable: true, value: '100%' });
    expect(decodePathParameter('50%2525')).toEqual({ readable: true, value: '50%25' });
    expect(decodePathParameter('A+B')).toEqual({ readable: true, value: 'A+B' });
    expect(decodePathParameter('Tr%C3%A8s%20chaud')).toEqual({ readable: true, value: 'Très chaud' });
  });

  test.each(malformed)('%j is a typed failure that keeps the text as received', (raw) => {
    expect(decodePathParameter(raw)).toEqual({ readable: false, raw });
  });

  test('a text without % is read as itself', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        const plain = text.replace(/%/g, '');
        expect(decodePathParameter(plain)).toEqual({ readable: true, value: plain });
      }),
    );
  });

  test('escapes well formed or not never make it throw: a read text is well-formed Unicode, an unreadable one is kept as received', () => {
    const escapeSoup = fc.string({ unit: fc.constantFrom('%', 'C', '3', 'A', '9', 'E', 'F', '2', '5', 'G', 'é', '+') });
    fc.assert(
      fc.property(escapeSoup, (raw) => {
        const decoded = decodePathParameter(raw);
        if (decoded.readable) expect(decodePathParameter(encodeURIComponent(decoded.value))).toEqual(decoded);
        else expect(decoded).toEqual({ readable: false, raw });
      }),
    );
  });
});

describe('the readers of the routes', () => {
  const id = '0b6f5a3e-4c1d-4e2f-9a8b-7c6d5e4f3a2b';

  test('prospectIdOf decodes, then lower-cases a UUID', () => {
    expect(prospectIdOf(event({ prospect_id: id.toUpperCase() }))).toBe(id);
    expect(prospectIdOf(event({ prospect_id: `%30${id.slice(1)}` }))).toBe(id);
  });

  test.each([...malformed, `${id}%`, 'not-a-uuid', ''])('prospectIdOf(%j) is not found', (raw) => {
    expect(() => prospectIdOf(event({ prospect_id: raw }))).toThrow(NotFoundError);
  });

  test('prospectIdOf without path parameters is not found', () => {
    expect(() => prospectIdOf(event(null))).toThrow(NotFoundError);
  });

  test('tagOf gives the decoded name', () => {
    expect(tagOf(event({ tag: '100%25%20client' }))).toBe('100% client');
  });

  test.each(malformed)('tagOf(%j) is a 400 naming the parameter', (raw) => {
    expect.assertions(2);
    try {
      tagOf(event({ tag: raw }));
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidInputError);
      expect((error as InvalidInputError).details).toEqual({ field: 'tag', message: messages.path.unreadable('tag') });
    }
  });

  test('pathParameterText decodes, or keeps an unreadable parameter as received', () => {
    expect(pathParameterText(event({ prospect_id: 'a%20b' }), 'prospect_id')).toBe('a b');
    expect(pathParameterText(event({ prospect_id: '%E9' }), 'prospect_id')).toBe('%E9');
    expect(pathParameterText(event(null), 'prospect_id')).toBe('');
  });
});
