import { jest } from '@jest/globals';
import {
  billedUnits,
  itemSize,
  numberSize,
  readUnits,
  reportedUnits,
  updatedAttributes,
  writeDestinations,
  writesByDestination,
  type ItemLookup,
  type MeteredCall,
} from '../../tools/bench/capacity';

const none = () => undefined;
const noWrites = { table: 0, gsi1: 0, gsi2: 0, gsi3: 0, gsi4: 0, gsi5: 0, gsi6: 0 };
/** An item's write units in total, as billed before they were split by destination. */
const writeUnits = (...args: Parameters<typeof writesByDestination>) =>
  Object.values(writesByDestination(...args)).reduce((sum, units) => sum + units, 0);
/** A call's units, its writes by destination aside. */
const totals = (call: MeteredCall, lookup: ItemLookup) => {
  const { read, write } = billedUnits(call, lookup);
  return { read, write };
};
const prospect = { pk: 'PROSPECT#w#p', sk: 'PROSPECT', version: 3 };
const logEntry = {
  pk: 'PROSPECT#w#p',
  sk: 'LOG#1',
  gsi1pk: 'APIKEYLOG#k',
  gsi1sk: 'x',
  gsi2pk: 'LOGENTRY#w#e',
  gsi2sk: 'LOG',
};

describe('item sizes, as DynamoDB counts them', () => {
  it('counts attribute names and UTF-8 bytes of strings', () => {
    expect(itemSize({ pk: 'abc', nom: 'é' })).toBe(2 + 3 + 3 + 2);
  });

  it('counts numbers by significant digits, two to a byte, plus one', () => {
    expect(numberSize('1')).toBe(2);
    expect(numberSize('12345')).toBe(4);
    expect(numberSize('1000')).toBe(2);
    expect(numberSize('-0.25')).toBe(3);
  });

  it('counts sets, lists, maps, booleans and null', () => {
    expect(itemSize({ s: new Set(['ab', 'c']) })).toBe(1 + 3);
    expect(itemSize({ l: ['ab'] })).toBe(1 + 3 + 2 + 1);
    expect(itemSize({ m: { k: 'v' } })).toBe(1 + 3 + 1 + 1 + 1);
    expect(itemSize({ b: true, n: null })).toBe(2 + 2);
  });
});

describe('units billed', () => {
  it('reads 4 KB per unit, halves an eventually consistent read, bills a missing item at the minimum', () => {
    expect(readUnits(0, true)).toBe(1);
    expect(readUnits(4096, true)).toBe(1);
    expect(readUnits(4097, true)).toBe(2);
    expect(readUnits(5000, false)).toBe(1);
    expect(readUnits(100, false)).toBe(0.5);
  });

  it('writes 1 KB per unit and the item again in every index that holds it', () => {
    expect(writeUnits({ pk: 'a', sk: 'b' })).toBe(1);
    expect(writeUnits({ pk: 'a', sk: 'b', big: 'x'.repeat(1100) })).toBe(2);
    expect(writeUnits(logEntry)).toBe(3);
    expect(writeUnits({ pk: 'a', sk: 'b', gsi1pk: 'only the partition key' })).toBe(1);
  });

  it('writes an index projecting some attributes only when a put or an update reaches one of them', () => {
    const indexed = { pk: 'PROSPECT#w#p', sk: 'PROSPECT', gsi3pk: 'WS#w#PROSPECTS', gsi3sk: 't#p', phone: '+33' };
    expect(writeUnits(indexed)).toBe(2);
    expect(
      writeUnits(indexed, updatedAttributes({ UpdateExpression: 'SET stage_id = :s, version = version + :one' })),
    ).toBe(1);
    expect(
      writeUnits(
        indexed,
        updatedAttributes({ UpdateExpression: 'SET #f0 = :f0', ExpressionAttributeNames: { '#f0': 'phone' } }),
      ),
    ).toBe(2);
    // An index projecting everything is written by any update of an item it holds.
    expect(writeUnits(logEntry, updatedAttributes({ UpdateExpression: 'SET undone_at = :now' }))).toBe(3);
  });

  it('writes an index twice when an update moves the item’s key in it, once when it takes the item out', () => {
    const listed = {
      pk: 'PROSPECT#w#p',
      sk: 'PROSPECT',
      gsi5pk: 'WS#w#STAGE#s',
      gsi5sk: 't#p',
      notes: 'x'.repeat(1100),
    };
    // A keys-only entry is under 1 KB whatever the item's size: the item's 2 units, the entry's 1.
    expect(writeUnits(listed)).toBe(3);
    expect(writeUnits(listed, updatedAttributes({ UpdateExpression: 'SET gsi5sk = :k, updated_at = :now' }))).toBe(4);
    expect(writeUnits(listed, updatedAttributes({ UpdateExpression: 'SET first_name = :n' }))).toBe(2);
    const outside = { ...listed, gsi5pk: undefined };
    expect(writeUnits(outside, updatedAttributes({ UpdateExpression: 'REMOVE gsi5pk' }))).toBe(3);
  });

  it('reads the attributes an update expression touches, names resolved', () => {
    const touched = updatedAttributes({
      UpdateExpression: 'SET updated_at = :now, version = version + :one, #f0 = :f0 ADD tag_ids :t REMOVE a, #b',
      ExpressionAttributeNames: { '#f0': 'stage_id', '#b': 'phone' },
    });
    expect([...touched].sort()).toEqual(['a', 'phone', 'stage_id', 'tag_ids', 'updated_at', 'version']);
  });

  it('bills every key of a BatchGetItem, found or not', () => {
    const call = {
      operation: 'BatchGetItem',
      input: {
        RequestItems: {
          t: {
            Keys: [
              { pk: 'a', sk: 'UNIQ' },
              { pk: 'b', sk: 'UNIQ' },
            ],
            ConsistentRead: true,
          },
        },
      },
      output: { Responses: { t: [{ pk: 'a', sk: 'UNIQ', record_id: 'p' }] } },
    };
    expect(billedUnits(call, none)).toEqual({ read: 2, write: 0, writes: noWrites });
  });

  it('sums the items a Query read before rounding', () => {
    const items = [
      { pk: 'WS#w', sk: 'CFG#A', v: 'x'.repeat(3000) },
      { pk: 'WS#w', sk: 'CFG#B', v: 'x'.repeat(3000) },
    ];
    expect(totals({ operation: 'Query', input: {}, output: { Items: items } }, none)).toEqual({
      read: 1,
      write: 0,
    });
  });

  it('bills each item of a transaction twice, sizing an update by the item it left', () => {
    const call = {
      operation: 'TransactWriteItems',
      input: {
        TransactItems: [{ Update: { Key: { pk: prospect.pk, sk: prospect.sk } } }, { Put: { Item: logEntry } }],
      },
      output: {},
    };
    const lookup = jest.fn<ItemLookup>(() => prospect);
    expect(totals(call, lookup)).toEqual({ read: 0, write: (1 + 3) * 2 });
    expect(lookup).toHaveBeenCalledWith({ pk: prospect.pk, sk: prospect.sk });
  });

  it('bills a ConditionCheck of a transaction as a write of the item checked, twice, and no index', () => {
    const big = { ...prospect, gsi5pk: 'WS#w#STAGE#s', gsi5sk: 't#p', notes: 'x'.repeat(1500) };
    const call = {
      operation: 'TransactWriteItems',
      input: { TransactItems: [{ ConditionCheck: { Key: { pk: prospect.pk, sk: prospect.sk } } }] },
      output: {},
    };
    expect(billedUnits(call, () => big)).toMatchObject({ read: 0, write: 2 * 2, writes: { table: 4, gsi5: 0 } });
    expect(billedUnits(call, () => undefined)).toMatchObject({ read: 0, write: 1 * 2, writes: { table: 2 } });
  });

  it('sizes an UpdateItem by its ALL_NEW answer when it asked for one, else by the stored item', () => {
    const big = { ...prospect, notes: 'x'.repeat(1500) };
    const asked = { operation: 'UpdateItem', input: { Key: {}, ReturnValues: 'ALL_NEW' }, output: { Attributes: big } };
    expect(totals(asked, none)).toEqual({ read: 0, write: 2 });
    const silent = { operation: 'UpdateItem', input: { Key: {} }, output: {} };
    expect(totals(silent, () => big)).toEqual({ read: 0, write: 2 });
  });

  it('tells where write units land: the table, then gsi1 to gsi6, in the table definition’s order', () => {
    expect(writeDestinations).toEqual(['table', 'gsi1', 'gsi2', 'gsi3', 'gsi4', 'gsi5', 'gsi6']);
    expect(writesByDestination(logEntry)).toEqual({ ...noWrites, table: 1, gsi1: 1, gsi2: 1 });
    const listed = { ...prospect, gsi3pk: 'WS#w#PROSPECTS', gsi3sk: 't#p', gsi5pk: 'WS#w#STAGE#s', gsi5sk: 't#p' };
    expect(writesByDestination(listed)).toEqual({ ...noWrites, table: 1, gsi3: 1, gsi5: 1 });
    // A stage change moves the gsi5 entry (two writes) and neither writes gsi3 nor puts the prospect in gsi6.
    const moved = updatedAttributes({ UpdateExpression: 'SET stage_id = :s, gsi5pk = :pk, gsi5sk = :sk' });
    expect(writesByDestination(listed, moved)).toEqual({ ...noWrites, table: 1, gsi5: 2 });
    // A follow-up set puts the prospect in gsi6: billed as a move (without the item as it was, an upper bound).
    const followed = { ...listed, gsi6pk: 'WS#w#FOLLOWUP', gsi6sk: 'f#p' };
    const set = updatedAttributes({ UpdateExpression: 'SET next_follow_up_at = :f, gsi6pk = :pk, gsi6sk = :sk' });
    expect(writesByDestination(followed, set)).toEqual({ ...noWrites, table: 1, gsi6: 2 });
  });

  it('splits a call’s write units by destination, adding up to its total, a transaction’s twice', () => {
    const listed = { ...prospect, gsi5pk: 'WS#w#STAGE#s', gsi5sk: 't#p' };
    const change = { Update: { Key: { pk: prospect.pk, sk: prospect.sk }, UpdateExpression: 'SET gsi5sk = :k' } };
    const transaction = {
      operation: 'TransactWriteItems',
      input: { TransactItems: [change, { Put: { Item: logEntry } }] },
      output: {},
    };
    const billed = billedUnits(transaction, () => listed);
    expect(billed.writes).toEqual({ ...noWrites, table: 4, gsi1: 2, gsi2: 2, gsi5: 4 });
    expect(billed.write).toBe(12);
    // The totals as billed before the split: 12, a put of the entry 3, a move 1 + 2, a delete 1, a read 0.
    const calls: [MeteredCall, number][] = [
      [transaction, 12],
      [{ operation: 'PutItem', input: { Item: logEntry }, output: {} }, 3],
      [{ operation: 'UpdateItem', input: { Key: {}, UpdateExpression: 'SET gsi5sk = :k' }, output: {} }, 3],
      [{ operation: 'DeleteItem', input: { Key: {} }, output: {} }, 1],
      [{ operation: 'GetItem', input: {}, output: { Item: prospect } }, 0],
    ];
    for (const [call, total] of calls) {
      const { write, writes } = billedUnits(call, () => listed);
      expect([call.operation, write, Object.values(writes).reduce((sum, units) => sum + units, 0)]).toEqual([
        call.operation,
        total,
        total,
      ]);
    }
  });

  it('refuses an operation it does not model instead of billing it as free', () => {
    expect(() => billedUnits({ operation: 'Scan', input: {}, output: {} }, none)).toThrow(
      'Scan: capacity not modelled',
    );
  });

  it('adds up what DynamoDB Local reported, one object or one per table', () => {
    expect(reportedUnits({ ConsumedCapacity: { CapacityUnits: 1.5 } })).toBe(1.5);
    expect(reportedUnits({ ConsumedCapacity: [{ CapacityUnits: 2 }, { CapacityUnits: 1 }] })).toBe(3);
    expect(reportedUnits(undefined)).toBe(0);
  });
});
