import fc from 'fast-check';
import { InvalidInputError } from '../../lib/domain/model';
import { decodeCursor, encodeCursor, type CursorBinding, pageRequestOf } from '../../lib/http/query-parameters';

const binding: CursorBinding = {
  list: 'notes',
  workspaceId: '11111111-1111-4111-8111-111111111111',
  prospectId: '22222222-2222-4222-8222-222222222222',
};
const position = { at: '2026-11-22T10:00:00.123Z', id: '33333333-3333-4333-8333-333333333333' };

const times = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2999-12-31T23:59:59Z'), noInvalidDate: true })
  .map((date) => date.toISOString());

describe('list cursors (docs/api.md#pagination)', () => {
  it('give back the position they were issued for, for any reception time and id', () => {
    fc.assert(
      fc.property(times, fc.uuid(), (at, id) => {
        expect(decodeCursor(encodeCursor(binding, { at, id }), binding)).toEqual({ at, id: id.toLowerCase() });
      }),
      { numRuns: 500 },
    );
  });

  it('are refused for another list, workspace or prospect', () => {
    const cursor = encodeCursor(binding, position);
    for (const other of [
      { ...binding, list: 'changes' as const },
      { ...binding, workspaceId: '44444444-4444-4444-8444-444444444444' },
      { ...binding, prospectId: '55555555-5555-4555-8555-555555555555' },
    ]) {
      expect(() => decodeCursor(cursor, other)).toThrow(InvalidInputError);
    }
  });

  it("of the audit log are bound to its workspace: refused for a prospect's list or another workspace's log", () => {
    const audit: CursorBinding = { list: 'audit', workspaceId: binding.workspaceId };
    const cursor = encodeCursor(audit, position);
    expect(decodeCursor(cursor, audit)).toEqual(position);
    for (const other of [binding, { list: 'audit' as const, workspaceId: '44444444-4444-4444-8444-444444444444' }]) {
      expect(() => decodeCursor(cursor, other)).toThrow(InvalidInputError);
    }
    expect(() => decodeCursor(encodeCursor(binding, position), audit)).toThrow(InvalidInputError);
  });

  it('refuse anything else with a 400, never another error, whatever the string', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 600, unit: 'binary' }), (text) => {
        try {
          decodeCursor(text, binding);
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidInputError);
          expect((error as InvalidInputError).details).toMatchObject({ field: 'cursor' });
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('refuse a well-formed cursor whose position is not a reception time and a UUID', () => {
    const valid = JSON.parse(Buffer.from(encodeCursor(binding, position), 'base64url').toString()) as object;
    const forged = (changes: object) => Buffer.from(JSON.stringify({ ...valid, ...changes })).toString('base64url');
    for (const changes of [
      { a: '2026-02-30T10:00:00.000Z' },
      { a: '2026-11-22T10:00:00Z' },
      { a: '2026-11-22T10:00:00.000+01:00' },
      { a: 42 },
      { i: 'pas-un-uuid' },
      { i: null },
      { x: 1 },
    ]) {
      expect(() => decodeCursor(forged(changes), binding)).toThrow(InvalidInputError);
    }
  });
});

describe('limit', () => {
  const pageOf = (limit: string | undefined) =>
    pageRequestOf(
      {
        queryStringParameters: limit === undefined ? null : { limit },
        multiValueQueryStringParameters: limit === undefined ? null : { limit: [limit] },
      },
      binding,
    );

  it('is 50 by default, and any whole number of 1 to 100 written in digits', () => {
    expect(pageOf(undefined)).toEqual({ limit: 50 });
    fc.assert(fc.property(fc.integer({ min: 1, max: 100 }), (n) => expect(pageOf(String(n)).limit).toBe(n)));
  });

  it('refuses everything else with a 400 naming limit', () => {
    for (const limit of ['0', '101', '-1', '1.5', '1e2', '', ' 5', '5 ', '0x10', '٣', '1000', 'Infinity', 'NaN']) {
      expect(() => pageOf(limit)).toThrow(InvalidInputError);
    }
  });

  it('refuses a parameter given twice', () => {
    expect(() =>
      pageRequestOf(
        { queryStringParameters: { limit: '5' }, multiValueQueryStringParameters: { limit: ['4', '5'] } },
        binding,
      ),
    ).toThrow(InvalidInputError);
  });
});
