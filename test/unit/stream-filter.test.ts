import type { DynamoDBRecord } from 'aws-lambda';
import { streamRecordMatcher, UnsupportedFilterError } from '../../tools/local/stream-filter';
import { eventFunctions } from '../../lib/routes';

const streamFilters = eventFunctions.find((candidate) => candidate.id === 'streamHandler')?.streamFilters;
const matches = streamRecordMatcher(streamFilters);

function aRecord(eventName: DynamoDBRecord['eventName'], pk: unknown, sk = 'PROSPECT'): DynamoDBRecord {
  return {
    eventID: '1',
    eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'eu-west-3',
    dynamodb: { Keys: { pk: pk as never, sk: { S: sk } }, SequenceNumber: '1', StreamViewType: 'NEW_AND_OLD_IMAGES' },
    eventSourceARN: 'arn:aws:dynamodb:eu-west-3:123456789012:table/t/stream/x',
  };
}

test('the stream handler has filters to apply', () => {
  expect(streamFilters?.length).toBeGreaterThan(0);
});

test.each([
  ['INSERT', 'PROSPECT#1'],
  ['MODIFY', 'PROSPECT#1'],
  ['INSERT', 'CANDIDATE#1'],
  ['MODIFY', 'CANDIDATE#é🎉'],
  ['INSERT', 'PROSPECT#'],
] as const)('%s of %s is handed to the function', (eventName, pk) => {
  expect(matches(aRecord(eventName, { S: pk }))).toBe(true);
});

test.each([
  ['REMOVE', { S: 'PROSPECT#1' }], // a removal
  ['INSERT', { S: 'CALL#1' }], // a webhook call
  ['INSERT', { S: 'DELIVERY#ws' }], // a delivery
  ['MODIFY', { S: 'WS#1' }], // a subscription
  ['INSERT', { S: 'prospect#1' }], // a prefix differing in case
  ['INSERT', { S: 'XPROSPECT#1' }], // the prefix further in
  ['INSERT', { S: 'PROSPECT' }], // the prefix without its separator
  ['INSERT', { S: 'CANDIDATE\u0301#1' }], // a combining accent in the prefix
  ['INSERT', { N: '1' }], // a number key
  ['INSERT', undefined], // no key
] as const)('%s of %j is skipped', (eventName, pk) => {
  expect(matches(aRecord(eventName, pk))).toBe(false);
});

test('a record without its dynamodb part or event name matches nothing', () => {
  expect(matches({ eventName: 'INSERT' })).toBe(false);
  expect(matches({ dynamodb: { Keys: { pk: { S: 'PROSPECT#1' } } } })).toBe(false);
  expect(matches(null)).toBe(false);
  expect(matches('INSERT')).toBe(false);
});

test('filters are ORed, each field of one filter ANDed, and a list value matches by any element', () => {
  const either = streamRecordMatcher([{ a: ['x'], b: [{ prefix: 'p' }] }, { c: [1, true, null] }]);
  expect(either({ a: 'x', b: 'pq' })).toBe(true);
  expect(either({ a: 'x', b: 'q' })).toBe(false);
  expect(either({ a: 'y', c: true })).toBe(true);
  expect(either({ c: null })).toBe(true);
  expect(either({ c: '1' })).toBe(false);
  expect(either({ a: ['y', 'x'], b: ['q', 'pz'] })).toBe(true);
});

test('no filter lets everything through, as a mapping without FilterCriteria does', () => {
  expect(streamRecordMatcher(undefined)({})).toBe(true);
  expect(streamRecordMatcher([])(aRecord('REMOVE', { S: 'CALL#1' }))).toBe(true);
});

test.each([
  [{ eventName: [{ 'anything-but': ['REMOVE'] }] }],
  [{ eventName: [{ prefix: 'I', suffix: 'T' }] }],
  [{ eventName: 'INSERT' }],
  [{ eventName: [] }],
  [{}],
  [{ dynamodb: { Keys: { pk: { S: [{ exists: true }] } } } }],
])('an operator outside the supported subset is refused: %j', (filter) => {
  expect(() => streamRecordMatcher([filter])).toThrow(UnsupportedFilterError);
});
