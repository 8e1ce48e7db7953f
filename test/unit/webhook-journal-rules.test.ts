import { randomUUID } from 'node:crypto';
import {
  countingEntryOf,
  journaledOneByOne,
  keptBodyMaxBytes,
  keptBodyOf,
  refusalMinuteOf,
} from '../../lib/domain/webhook-call';
import { timeOrderedId, timeOrderedIdPrefix, stillKept } from '../../lib/storage/table-items';
import type { WebhookCall } from '../../lib/domain/model';

/**
 * The pure rules of docs/api.md#webhook-call-journal that keep the journal bounded (docs/data-model.md, "Webhook call
 * journal").
 */

const aRefusal = (at: string, overrides: Partial<WebhookCall> = {}): WebhookCall => ({
  id: timeOrderedId(new Date(at)),
  workspace_id: 'c0ffee00-0000-4000-8000-000000000001',
  endpoint_id: 'c0ffee00-0000-4000-8000-000000000002',
  at,
  route: 'ingest-lead',
  status: 401,
  outcome: 'unauthorized',
  record_id: null,
  placement: null,
  warnings: [],
  request_id: randomUUID(),
  ...overrides,
});

describe('refusals counted per minute', () => {
  it('gives the first 10 of a minute an entry each, and counts the others', () => {
    expect([1, 9, 10, 11, 12, 600].map(journaledOneByOne)).toEqual([true, true, true, false, false, false]);
  });

  it('reads the UTC minute of a call, with its last millisecond', () => {
    expect(refusalMinuteOf({ at: '2026-11-26T22:11:00.000Z' })).toEqual({
      minute: '2026-11-26T22:11',
      minuteEnd: new Date('2026-11-26T22:11:59.999Z'),
    });
    expect(refusalMinuteOf({ at: '2026-11-26T22:11:59.999Z' }).minute).toBe('2026-11-26T22:11');
    expect(refusalMinuteOf({ at: '2026-12-31T23:59:59.999Z' }).minuteEnd).toEqual(new Date('2026-12-31T23:59:59.999Z'));
  });

  it('makes one counting entry per endpoint, route and minute, whatever call creates it', () => {
    const first = countingEntryOf(aRefusal('2026-11-26T22:11:05.000Z'));
    const later = countingEntryOf(aRefusal('2026-11-26T22:11:58.123Z'));
    expect(later.id).toBe(first.id);
    const others = [
      countingEntryOf(aRefusal('2026-11-26T22:12:05.000Z')),
      countingEntryOf(aRefusal('2026-11-26T22:11:05.000Z', { route: 'recruitment' })),
      countingEntryOf(aRefusal('2026-11-26T22:11:05.000Z', { endpoint_id: randomUUID() })),
    ];
    expect(new Set([first.id, ...others.map((entry) => entry.id)]).size).toBe(4);
  });

  it('keeps the at and request id of the call that creates it, with an id that sorts after its whole minute', () => {
    const call = aRefusal('2026-11-26T22:11:05.000Z');
    const entry = countingEntryOf(call);
    expect(entry).toEqual({ ...call, id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7/) });
    expect(entry.id).not.toBe(call.id);
    const lastOfMinute = timeOrderedId(new Date('2026-11-26T22:11:59.998Z'));
    const firstOfNext = timeOrderedId(new Date('2026-11-26T22:12:00.000Z'));
    expect([firstOfNext, entry.id, lastOfMinute].sort()).toEqual([lastOfMinute, entry.id, firstOfNext]);
  });
});

describe('time-ordered ids', () => {
  it('sort after the prefix of their millisecond and of any earlier one, before that of any later one', () => {
    const at = new Date('2026-11-27T06:30:00.123Z');
    const id = timeOrderedId(at);
    expect(id.startsWith(timeOrderedIdPrefix(at))).toBe(true);
    expect([timeOrderedIdPrefix(new Date(at.getTime() + 1)), id, timeOrderedIdPrefix(at)].sort()).toEqual([
      timeOrderedIdPrefix(at),
      id,
      timeOrderedIdPrefix(new Date(at.getTime() + 1)),
    ]);
    expect(timeOrderedId(new Date(at.getTime() - 1)) < timeOrderedIdPrefix(at)).toBe(true);
  });
});

describe('kept bodies cut at 64 KB', () => {
  it('keeps a body of 64 KB or less as received', () => {
    const exact = 'a'.repeat(keptBodyMaxBytes);
    expect(keptBodyOf(exact, false)).toEqual({ body: exact, truncated: false });
    expect(keptBodyOf('{"é":1}', false)).toEqual({ body: '{"é":1}', truncated: false });
  });

  it('keeps the first 65 536 bytes of a longer body', () => {
    const long = 'x'.repeat(keptBodyMaxBytes + 1);
    expect(keptBodyOf(long, false)).toEqual({ body: 'x'.repeat(keptBodyMaxBytes), truncated: true });
  });

  it.each([
    ['é (2 bytes)', 'é', 1],
    ['€ (3 bytes)', '€', 2],
    ['🎉 (4 bytes)', '🎉', 3],
  ])('never cuts a character in two: %s', (_, character, straddling) => {
    // The character starts `straddling` bytes before the limit, so it does not fit whole.
    const body = `${'a'.repeat(keptBodyMaxBytes - straddling)}${character}${'b'.repeat(100)}`;
    const kept = keptBodyOf(body, false);
    expect(kept).toEqual({ body: 'a'.repeat(keptBodyMaxBytes - straddling), truncated: true });
    expect(body.startsWith(kept.body)).toBe(true);
  });

  it('measures a base64 body in the bytes it stands for, and keeps it in base64', () => {
    const bytes = Buffer.from(`${'é'.repeat(keptBodyMaxBytes / 2 - 1)}éé`, 'utf8');
    const kept = keptBodyOf(bytes.toString('base64'), true);
    expect(kept.truncated).toBe(true);
    expect(Buffer.from(kept.body, 'base64')).toEqual(bytes.subarray(0, keptBodyMaxBytes));
    const small = Buffer.from('{"a":1}').toString('base64');
    expect(keptBodyOf(small, true)).toEqual({ body: small, truncated: false });
  });
});

describe('entries kept until their expires_at', () => {
  const expiresAt = Date.parse('2026-12-26T22:11:05.000Z') / 1000;
  it('keeps an item before its expires_at second, and not from that second on', () => {
    const item = { expires_at: expiresAt };
    expect(stillKept(item, new Date('2026-12-26T22:11:04.999Z'))).toBe(true);
    expect(stillKept(item, new Date('2026-12-26T22:11:05.000Z'))).toBe(false);
    expect(stillKept(item, new Date('2027-01-01T00:00:00.000Z'))).toBe(false);
  });
});
